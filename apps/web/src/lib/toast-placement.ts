/**
 * Where a toast group draws its stack while a modal dialog is open (issue 12 §5 fix 5). Each group keeps
 * its spec place (default top-centre, notifications top-right 20rem, loader, connectivity) whenever that
 * does not touch the dialog. When it would, the stack moves to the first free band around the dialog that
 * holds it — for the top-centre group: above the dialog, below it, to its right, to its left — and when no
 * band holds it (a phone, a tall dialog) it stays over the dialog's body but ends above the dialog's action
 * buttons (or starts below them), scrolling if it must. So a toast never covers a dialog's actions, and a
 * toast's own details are never cut by the dialog.
 *
 * All figures are CSS pixels in viewport coordinates.
 */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type ToastPosition = 'top-center' | 'top-left' | 'top-right' | 'bottom-center' | 'bottom-left' | 'bottom-right';
type Band = 'above' | 'below' | 'left' | 'right';

export interface PlacementInput {
  viewport: { width: number; height: number };
  position: ToastPosition;
  /** The group's configured container width. */
  width: number;
  /** The toast stack's full height (all its toasts and gaps). */
  stackHeight: number;
  /** The open modal dialog, or null. */
  dialog: Box | null;
  /** The dialog's action buttons (its lowest row of buttons), or null if it has none. */
  actions: Box | null;
  /** Gap kept from the viewport edges and the dialog; Mantine's `md` spacing. */
  margin?: number;
}

export interface Placement {
  top: number;
  left: number;
  width: number;
  /** Set when the stack must scroll to fit its band (the over-the-body fallback). */
  maxHeight: number | null;
  where: Band | 'over-body';
}

/** Narrowest a stack may become beside a dialog (the notification group is 20rem = 320 px). */
export const MIN_SIDE_WIDTH = 280;
/** When a dialog's actions are unknown, its bottom strip of this height is treated as its footer. */
const ASSUMED_FOOTER_HEIGHT = 64;

const BAND_ORDER: Record<ToastPosition, Band[]> = {
  'top-center': ['above', 'below', 'right', 'left'],
  'top-right': ['right', 'above', 'below', 'left'],
  'top-left': ['left', 'above', 'below', 'right'],
  'bottom-center': ['below', 'above', 'right', 'left'],
  'bottom-right': ['right', 'below', 'above', 'left'],
  'bottom-left': ['left', 'below', 'above', 'right'],
};

export function intersects(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** Where Mantine draws the group's stack (its `position`, `md` from the edges). */
export function naturalBox({ viewport, position, width, stackHeight, margin = 16 }: PlacementInput): Box {
  const w = Math.min(width, viewport.width - 2 * margin);
  const top = position.startsWith('top') ? margin : viewport.height - margin - stackHeight;
  const left = position.endsWith('center') ? (viewport.width - w) / 2 : position.endsWith('right') ? viewport.width - margin - w : margin;
  return { left, top, width: w, height: stackHeight };
}

/** The stack's place while a dialog is open; null when the group's own place is already clear of it. */
export function placeToastStack(input: PlacementInput): Placement | null {
  const { viewport, position, dialog, stackHeight, margin = 16 } = input;
  if (!dialog) return null;
  const natural = naturalBox(input);
  if (!intersects(natural, dialog)) return null;
  const dialogRight = dialog.left + dialog.width;
  const dialogBottom = dialog.top + dialog.height;
  const anchoredTop = position.startsWith('top');

  for (const band of BAND_ORDER[position]) {
    if (band === 'above' && margin + stackHeight + margin <= dialog.top)
      return {
        top: anchoredTop ? margin : dialog.top - margin - stackHeight,
        left: natural.left,
        width: natural.width,
        maxHeight: null,
        where: band,
      };
    if (band === 'below' && dialogBottom + margin + stackHeight + margin <= viewport.height)
      return {
        top: anchoredTop ? dialogBottom + margin : viewport.height - margin - stackHeight,
        left: natural.left,
        width: natural.width,
        maxHeight: null,
        where: band,
      };
    const fitsHeight = stackHeight + 2 * margin <= viewport.height;
    if (band === 'right') {
      const width = Math.min(natural.width, viewport.width - dialogRight - 2 * margin);
      if (fitsHeight && width >= MIN_SIDE_WIDTH)
        return { top: natural.top, left: dialogRight + margin, width, maxHeight: null, where: band };
    }
    if (band === 'left') {
      const width = Math.min(natural.width, dialog.left - 2 * margin);
      if (fitsHeight && width >= MIN_SIDE_WIDTH)
        return { top: natural.top, left: dialog.left - margin - width, width, maxHeight: null, where: band };
    }
  }

  // No free band holds the stack: over the dialog's body, clear of its actions, in the larger of the
  // space above them and below them.
  const actions = actionsOrFooter(input.actions, dialog);
  const aboveHeight = actions.top - 2 * margin;
  const belowTop = actions.top + actions.height + margin;
  const belowHeight = viewport.height - margin - belowTop;
  const useAbove = aboveHeight >= Math.min(stackHeight, belowHeight);
  return {
    top: useAbove ? margin : belowTop,
    left: natural.left,
    width: natural.width,
    maxHeight: Math.max(0, useAbove ? aboveHeight : belowHeight),
    where: 'over-body',
  };
}

function actionsOrFooter(actions: Box | null, dialog: Box): Box {
  if (actions) return actions;
  const height = Math.min(ASSUMED_FOOTER_HEIGHT, dialog.height);
  return { left: dialog.left, top: dialog.top + dialog.height - height, width: dialog.width, height };
}
