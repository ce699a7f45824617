/**
 * The app's keyboard shortcuts: one `keydown` listener on the document and a list of registrations
 * that mounted components add and remove. The cheat sheet (`?`) reads the same list, so it shows
 * exactly the shortcuts the screen has and never goes stale.
 *
 * Rules every shortcut follows (issue 12 §4):
 * - it never fires while the user types in an input, a textarea, a select or a contenteditable
 *   element, unless it says so (`allowInInputs`: Esc, and `Mod+K`, a chord that types nothing);
 * - it never fires with a modifier it does not name (Ctrl+B is the browser's, not "Bid");
 * - it never fires while a modal dialog (the cheat sheet included) is open, unless it says so
 *   (`allowInModal`; `?` closes the sheet), so keys pressed in a dialog never act on the page behind it;
 * - a key another handler already took (`defaultPrevented`, or an IME composition) is left alone.
 */

/** A key chord as written in registrations: `'/'`, `'?'`, `'B'`, `'Escape'`, `'Mod+K'` (Ctrl, or ⌘ on a Mac). */
export type HotkeyChord = string;

/** The group a shortcut is listed under in the cheat sheet, in this order. */
export const HOTKEY_SCOPES = ['Anywhere', 'Quote ticket', 'Blotters', 'Lists', 'Dialogs'] as const;
export type HotkeyScope = (typeof HOTKEY_SCOPES)[number];

/** The part of a KeyboardEvent the registry reads (a real KeyboardEvent is one). */
export interface HotkeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
  preventDefault(): void;
}

export interface HotkeyDefinition {
  /** Stable id: registrations with the same id (two blotters) are listed once. */
  id: string;
  keys: readonly HotkeyChord[];
  /** What the key does, in the cheat sheet. */
  label: string;
  scope: HotkeyScope;
  /** Absent: the shortcut is only listed (a key the focused control handles itself, e.g. arrows in a grid). */
  run?: (event: HotkeyEvent) => void;
  /** Fire even while typing in a field: every chord (`true`: Esc) or only those listed (`['Mod+K']`, a chord that types nothing). */
  allowInInputs?: boolean | readonly HotkeyChord[];
  /** Fire even while a modal dialog is open (`'sheet'`: only over the cheat sheet, as `?` does to close it). */
  allowInModal?: boolean | 'sheet';
  /** Fire only when the key is pressed inside this element (e.g. Esc in the ticket). */
  within?: () => Element | null;
  /** A last word on the key (e.g. Esc on a field whose dropdown is open belongs to the dropdown). */
  when?: (event: HotkeyEvent) => boolean;
}

/** A shortcut as the cheat sheet lists it. */
export interface HotkeyListing {
  id: string;
  keys: readonly HotkeyChord[];
  label: string;
  scope: HotkeyScope;
}

export interface HotkeyRegistryOptions {
  /** Mac keyboards: `Mod` is ⌘ (metaKey) instead of Ctrl. */
  isMac?: () => boolean;
  /** Which modal is open: none, only the cheat sheet, or another dialog. */
  modalState?: () => ModalState;
  /** Where the one listener goes, attached with the first registration. */
  listenOn?: () => Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
}

/** What is open over the page: keys act on the page only with 'none'. */
export type ModalState = 'none' | 'sheet' | 'other';

/** Marks the cheat sheet's modal, which `?` may close (every other key waits until it is closed). */
export const HOTKEY_SHEET_ATTRIBUTE = 'data-hotkeys-sheet';

const NON_TYPING_INPUT_TYPES = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit']);

interface ElementLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
}

/** True when a key pressed on `target` types text: inputs (not buttons, boxes or radios), textareas, selects, contenteditable. */
export function isTypingTarget(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const element = target as ElementLike;
  if (element.isContentEditable) return true;
  const tag = typeof element.tagName === 'string' ? element.tagName.toUpperCase() : '';
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TYPING_INPUT_TYPES.has(String(element.type ?? 'text').toLowerCase());
  return false;
}

/** True on a Mac-like platform (⌘ instead of Ctrl). */
export function detectMac(): boolean {
  if (typeof navigator === 'undefined') return false;
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform ?? '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** The open modal dialogs (Mantine's Modal and Drawer): none, only the cheat sheet, or another. */
export function detectModalState(): ModalState {
  if (typeof document === 'undefined') return 'none';
  let state: ModalState = 'none';
  for (const dialog of document.querySelectorAll('[aria-modal="true"]')) {
    if (!dialog.closest(`[${HOTKEY_SHEET_ATTRIBUTE}]`)) return 'other';
    state = 'sheet';
  }
  return state;
}

function allowedOver(definition: HotkeyDefinition, state: ModalState): boolean {
  if (state === 'none') return true;
  return definition.allowInModal === true || (state === 'sheet' && definition.allowInModal === 'sheet');
}

const isLetter = (key: string) => /^[a-z]$/i.test(key);

/** Whether `event` is the chord: exactly the modifiers it names (Shift is free for symbols such as `?` and `/`). */
export function matchesChord(chord: HotkeyChord, event: HotkeyEvent, isMac: boolean): boolean {
  const parts = chord.split('+');
  const key = parts.pop() ?? '';
  const mods = new Set(parts.map((part) => part.toLowerCase()));
  const wantCtrl = mods.has('ctrl') || (mods.has('mod') && !isMac);
  const wantMeta = mods.has('meta') || (mods.has('mod') && isMac);
  if (event.ctrlKey !== wantCtrl || event.metaKey !== wantMeta || event.altKey !== mods.has('alt')) return false;
  if (isLetter(key)) {
    if (event.shiftKey !== mods.has('shift')) return false;
    return event.key.toLowerCase() === key.toLowerCase();
  }
  if (key.length === 1) return event.key === key; // a symbol: whichever Shift the layout needs to type it
  if (event.shiftKey !== mods.has('shift')) return false;
  return event.key === key;
}

/** A readable form of a chord for the sheet: `Mod+K` → `['Ctrl', 'K']` (or `['⌘', 'K']` on a Mac). */
export function describeChord(chord: HotkeyChord, isMac: boolean): string[] {
  const names: Record<string, string> = {
    mod: isMac ? '⌘' : 'Ctrl',
    ctrl: 'Ctrl',
    meta: isMac ? '⌘' : 'Meta',
    alt: isMac ? '⌥' : 'Alt',
    shift: 'Shift',
    escape: 'Esc',
    arrowup: '↑',
    arrowdown: '↓',
    arrowleft: '←',
    arrowright: '→',
    delete: 'Delete',
    enter: 'Enter',
  };
  return chord.split('+').map((part) => names[part.toLowerCase()] ?? (part.length === 1 ? part.toUpperCase() : part));
}

function allowsTyping(definition: HotkeyDefinition, chord: HotkeyChord): boolean {
  const allow = definition.allowInInputs;
  return allow === true || (Array.isArray(allow) && allow.includes(chord));
}

export interface HotkeyRegistry {
  /** Adds a shortcut; returns its removal. The latest registration of a key wins. */
  register(definition: HotkeyDefinition): () => void;
  /** The shortcuts to list, one per id, in registration order (a stable snapshot between changes). */
  list(): readonly HotkeyListing[];
  subscribe(listener: () => void): () => void;
  /** The listener's work: runs the matching shortcut and returns whether one ran. */
  handleKeyDown(event: HotkeyEvent): boolean;
  isMac(): boolean;
}

export function createHotkeyRegistry(options: HotkeyRegistryOptions = {}): HotkeyRegistry {
  const isMac = options.isMac ?? detectMac;
  const modalState = options.modalState ?? detectModalState;
  const listenOn = options.listenOn ?? (() => (typeof document === 'undefined' ? null : document));
  const entries: { definition: HotkeyDefinition }[] = [];
  const listeners = new Set<() => void>();
  let snapshot: readonly HotkeyListing[] = [];
  let attachedTo: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null = null;

  const onKeyDown = (event: Event) => {
    registry.handleKeyDown(event as unknown as HotkeyEvent);
  };

  function changed() {
    const seen = new Set<string>();
    const next: HotkeyListing[] = [];
    for (const { definition } of entries) {
      if (seen.has(definition.id)) continue;
      seen.add(definition.id);
      next.push({ id: definition.id, keys: definition.keys, label: definition.label, scope: definition.scope });
    }
    snapshot = next;
    for (const listener of listeners) listener();
  }

  function syncListener() {
    if (entries.length > 0 && !attachedTo) {
      attachedTo = listenOn();
      attachedTo?.addEventListener('keydown', onKeyDown);
    } else if (entries.length === 0 && attachedTo) {
      attachedTo.removeEventListener('keydown', onKeyDown);
      attachedTo = null;
    }
  }

  const registry: HotkeyRegistry = {
    register(definition) {
      const entry = { definition };
      entries.push(entry);
      syncListener();
      changed();
      return () => {
        const index = entries.indexOf(entry);
        if (index === -1) return;
        entries.splice(index, 1);
        syncListener();
        changed();
      };
    },
    list: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    handleKeyDown(event) {
      if (event.defaultPrevented || event.isComposing) return false;
      const typing = isTypingTarget(event.target);
      const mac = isMac();
      let modal: ModalState | null = null; // read the DOM only when a chord matches
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const definition = entries[index]!.definition;
        const chord = definition.run ? definition.keys.find((candidate) => matchesChord(candidate, event, mac)) : undefined;
        if (!definition.run || chord === undefined) continue;
        if (typing && !allowsTyping(definition, chord)) continue;
        if (definition.within) {
          const root = definition.within();
          const target = event.target as Node | null;
          if (!root || !target || typeof root.contains !== 'function' || !root.contains(target)) continue;
        }
        if (definition.when && !definition.when(event)) continue;
        modal ??= modalState();
        if (!allowedOver(definition, modal)) continue;
        event.preventDefault();
        definition.run(event);
        return true;
      }
      return false;
    },
    isMac,
  };
  return registry;
}

/** The app's registry: every `useHotkey` registers here; the cheat sheet lists it. */
export const hotkeys = createHotkeyRegistry();
