import { TOAST, Z_INDEX } from '@dart/contracts';
import { Notifications } from '@mantine/notifications';
import { useEffect, useState, type CSSProperties } from 'react';
import { TOAST_GROUPS, toastStores, type ToastGroup } from '../lib/toast';
import { placeToastStack, type Box, type Placement, type ToastPosition } from '../lib/toast-placement';
import { prepareSounds } from '../lib/sounds';

/** Mantine's default container width when a group names none (the default group). */
const DEFAULT_CONTAINER_WIDTH = 440;
/** Mantine's `md` spacing, the gap it keeps from the viewport edges. */
const EDGE_MARGIN = 16;
/** A modal's open transition (scale/fade) settles within this; placement is measured again after it. */
const DIALOG_SETTLE_MS = 350;

const rectOf = (element: Element): Box => {
  const { left, top, width, height } = element.getBoundingClientRect();
  return { left, top, width, height };
};

function remToPx(width: string | undefined): number {
  if (!width) return DEFAULT_CONTAINER_WIDTH;
  const rem = /^([\d.]+)rem$/.exec(width);
  const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  return rem ? Number(rem[1]) * root : Number.parseFloat(width) || DEFAULT_CONTAINER_WIDTH;
}

/**
 * The open modal dialog (the topmost) and its actions: an element marked `data-dialog-actions`, else the
 * span from its first submit button down to its lowest row of buttons (the header's close button is not
 * an action). A form's submit button is its main action even when a result (a copy-link button) sits below it.
 */
export function findOpenDialog(): { dialog: Box; actions: Box | null } | null {
  const dialogs = [...document.querySelectorAll<HTMLElement>('[role="dialog"][aria-modal="true"]')].filter(
    (element) => element.getClientRects().length > 0,
  );
  const dialog = dialogs.at(-1);
  if (!dialog) return null;
  const marked = dialog.querySelector('[data-dialog-actions]');
  if (marked) return { dialog: rectOf(dialog), actions: rectOf(marked) };
  const visible = [...dialog.querySelectorAll<HTMLElement>('button, a[href], [role="button"]')].filter(
    (button) => !button.closest('.mantine-Modal-header, .mantine-Drawer-header') && button.getClientRects().length > 0,
  );
  const buttons = visible.map(rectOf);
  if (buttons.length === 0) return { dialog: rectOf(dialog), actions: null };
  const lowest = Math.max(...buttons.map((box) => box.top + box.height));
  const row = [
    ...buttons.filter((box) => box.top + box.height >= lowest - 8),
    ...visible.filter((button) => button.matches('[type="submit"]')).map(rectOf),
  ];
  const left = Math.min(...row.map((box) => box.left));
  const top = Math.min(...row.map((box) => box.top));
  const right = Math.max(...row.map((box) => box.left + box.width));
  return { dialog: rectOf(dialog), actions: { left, top, width: right - left, height: lowest - top } };
}

/**
 * While the group shows toasts, watches for an open modal dialog and answers the style that moves the
 * stack clear of it (lib/toast-placement.ts); undefined leaves the group in its spec place.
 */
function useDialogAvoidance(group: ToastGroup, position: ToastPosition, width: number): CSSProperties | undefined {
  const store = toastStores[group];
  const [count, setCount] = useState(() => store.getState().notifications.length);
  const [placement, setPlacement] = useState<Placement | null>(null);

  useEffect(() => store.subscribe((state) => setCount(state.notifications.length)), [store]);

  useEffect(() => {
    if (count === 0) return;
    let frame = 0;
    let settle = 0;
    const measure = () => {
      frame = 0;
      const open = findOpenDialog();
      const stack = document.querySelector<HTMLElement>(`[data-toast-group="${group}"][data-position="${position}"]`);
      const next = placeToastStack({
        viewport: { width: window.innerWidth, height: window.innerHeight },
        position,
        width,
        stackHeight: stack?.scrollHeight ?? 0,
        dialog: open?.dialog ?? null,
        actions: open?.actions ?? null,
        margin: EDGE_MARGIN,
      });
      setPlacement((previous) => (JSON.stringify(previous) === JSON.stringify(next) ? previous : next));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    // A dialog appearing (or going) changes the body's children; measure again once its transition settles.
    const scheduleSettled = () => {
      window.clearTimeout(settle);
      settle = window.setTimeout(schedule, DIALOG_SETTLE_MS);
    };
    const mutations = new MutationObserver(() => {
      schedule();
      scheduleSettled();
    });
    mutations.observe(document.body, { childList: true, subtree: true });
    const sizes = new ResizeObserver(schedule);
    for (const element of document.querySelectorAll(`[data-toast-group="${group}"]`)) sizes.observe(element);
    window.addEventListener('resize', schedule);
    schedule();
    scheduleSettled();
    return () => {
      mutations.disconnect();
      sizes.disconnect();
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
      window.clearTimeout(settle);
    };
  }, [count, group, position, width]);

  // Held to a band that makes the stack scroll, the newest toast (Mantine adds it last) is scrolled into view.
  const scrolls = placement !== null && placement.maxHeight !== null;
  useEffect(() => {
    if (!scrolls || count === 0) return;
    const reveal = () => {
      const stack = document.querySelector<HTMLElement>(`[data-toast-group="${group}"][data-position="${position}"]`);
      if (stack) stack.scrollTop = stack.scrollHeight;
    };
    reveal();
    // Again once the new toast's enter transition has given it its full height.
    const timer = window.setTimeout(reveal, DIALOG_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [scrolls, count, group, position]);

  // With no toasts there is nothing to move (a stale placement is measured afresh on the next toast).
  if (count === 0 || !placement) return undefined;
  return {
    top: placement.top,
    left: placement.left,
    right: 'auto',
    bottom: 'auto',
    transform: 'none',
    width: placement.width,
    maxWidth: placement.width,
    ...(placement.maxHeight === null ? {} : { maxHeight: placement.maxHeight, overflowY: 'auto' }),
  };
}

function ToastArea({ group }: { group: ToastGroup }) {
  const config: { position: (typeof TOAST.groups)[typeof group]['position']; width?: string } = TOAST.groups[group];
  const [width] = useState(() => remToPx(config.width));
  const avoidance = useDialogAvoidance(group, config.position, width);
  return (
    <Notifications
      store={toastStores[group]}
      position={config.position}
      autoClose={TOAST.lifetimeMs}
      // Hovering any toast of a group holds the whole stack (spec: the timer pauses on hover), so a
      // toast below the one being read (a "Deal done" with its details) does not vanish meanwhile.
      pauseResetOnHover="all"
      zIndex={Z_INDEX.modal + 1}
      limit={group === 'connectivity' ? 2 : 5}
      {...(config.width ? { containerWidth: config.width } : {})}
      {...(avoidance ? { style: avoidance } : {})}
      data-toast-group={group}
      data-toast-placement={avoidance ? 'clear-of-dialog' : 'spec'}
    />
  );
}

/** The root's toast areas, one per group (spec §9); each keeps clear of an open dialog's actions. */
export function ToastAreas() {
  useEffect(() => prepareSounds(), []);
  return (
    <>
      {TOAST_GROUPS.map((group) => (
        <ToastArea key={group} group={group} />
      ))}
    </>
  );
}
