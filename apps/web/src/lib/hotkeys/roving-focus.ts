import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import { isTypingTarget } from './registry';
import { useHotkey } from './use-hotkey';

/** Marks the items of a list with roving focus (`data-roving-item`). */
export const ROVING_ITEM = { 'data-roving-item': '' } as const;
const ITEM_SELECTOR = '[data-roving-item]';

/** The item a key moves to in a list of `count` (Up/Down stop at the ends; Home/End jump), or null for other keys. */
export function nextRovingIndex(current: number, count: number, key: string): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, current + 1);
    case 'ArrowUp':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

function itemsOf(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(ITEM_SELECTOR));
}

function makeCurrent(items: HTMLElement[], current: HTMLElement) {
  for (const item of items) item.tabIndex = item === current ? 0 : -1;
}

export interface RovingFocusOptions {
  /** What Enter does on an item, listed in the cheat sheet (e.g. 'Open the negotiation'); none: Enter is not listed. */
  enterLabel?: string;
}

/**
 * Roving focus for a list panel (negotiations, matches, deals): the list is one Tab stop, Up/Down
 * (Home/End) move between its items, and Tab goes on into the focused item's buttons. Spread the
 * result on the list element and `ROVING_ITEM` on each item.
 */
export function useRovingFocus<T extends HTMLElement>({ enterLabel }: RovingFocusOptions = {}) {
  const ref = useRef<T | null>(null);
  useHotkey({ id: 'list-move', keys: ['ArrowUp', 'ArrowDown'], label: 'Move between the items of a list', scope: 'Lists' });
  useHotkey({ id: `list-enter-${enterLabel ?? ''}`, keys: ['Enter'], label: enterLabel ?? '', scope: 'Lists' }, Boolean(enterLabel));

  // After every render: exactly one item is the list's Tab stop (the first, until another gets focus).
  useLayoutEffect(() => {
    const container = ref.current;
    if (!container) return;
    const items = itemsOf(container);
    const current = items.find((item) => item.tabIndex === 0 && item.getAttribute('tabindex') === '0') ?? items[0];
    if (current) makeCurrent(items, current);
  });

  const onKeyDown = useCallback((event: KeyboardEvent<T>) => {
    const container = ref.current;
    if (!container || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || isTypingTarget(event.target)) return;
    const items = itemsOf(container);
    const from = items.findIndex((item) => item.contains(event.target as Node));
    const next = nextRovingIndex(from === -1 ? 0 : from, items.length, event.key);
    if (next === null) return;
    event.preventDefault();
    const item = items[next]!;
    makeCurrent(items, item);
    item.focus();
  }, []);

  const onFocus = useCallback((event: FocusEvent<T>) => {
    const container = ref.current;
    if (!container) return;
    const items = itemsOf(container);
    const item = items.find((candidate) => candidate.contains(event.target as Node));
    if (item) makeCurrent(items, item);
  }, []);

  return { ref, onKeyDown, onFocus };
}
