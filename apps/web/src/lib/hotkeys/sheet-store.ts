/** Whether the keyboard cheat sheet is open: a tiny external store (`?` toggles it, the account menu opens it). */
export interface ShortcutSheetStore {
  isOpen(): boolean;
  open(): void;
  close(): void;
  toggle(): void;
  subscribe(listener: () => void): () => void;
}

export function createShortcutSheetStore(): ShortcutSheetStore {
  let opened = false;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (next === opened) return;
    opened = next;
    for (const listener of listeners) listener();
  };
  return {
    isOpen: () => opened,
    open: () => set(true),
    close: () => set(false),
    toggle: () => set(!opened),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const shortcutSheet = createShortcutSheetStore();
