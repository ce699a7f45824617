import { describe, expect, it, vi } from 'vitest';
import { ASK_HOTKEY, BID_HOTKEY, SEARCH_HOTKEY, SHEET_HOTKEY } from './app-hotkeys';
import {
  createHotkeyRegistry,
  describeChord,
  isTypingTarget,
  matchesChord,
  type HotkeyEvent,
  type HotkeyRegistryOptions,
} from './registry';
import { nextRovingIndex } from './roving-focus';
import { createShortcutSheetStore } from './sheet-store';

/** A keydown as the browser sends it (a KeyboardEvent has these fields), on `target`. */
function key(
  keyName: string,
  options: Partial<Pick<HotkeyEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing' | 'defaultPrevented'>> & {
    target?: unknown;
  } = {},
): HotkeyEvent & { prevented: boolean } {
  const event = {
    key: keyName,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    isComposing: false,
    defaultPrevented: false,
    ...options,
    target: (options.target ?? { tagName: 'BODY' }) as EventTarget,
    prevented: false,
    preventDefault() {
      event.prevented = true;
    },
  };
  return event;
}

const input = (type = 'text') => ({ tagName: 'INPUT', type });

function setup(options: HotkeyRegistryOptions = {}) {
  return createHotkeyRegistry({ isMac: () => false, modalState: () => 'none', listenOn: () => null, ...options });
}

describe('the search shortcut (/ and Ctrl+K)', () => {
  it('focuses the search on / and on Ctrl+K, and takes the key from the browser', () => {
    const registry = setup();
    const focusSearch = vi.fn<() => void>();
    registry.register({ ...SEARCH_HOTKEY, run: focusSearch });
    const slash = key('/');
    expect(registry.handleKeyDown(slash)).toBe(true);
    expect(slash.prevented).toBe(true);
    expect(registry.handleKeyDown(key('k', { ctrlKey: true }))).toBe(true);
    expect(focusSearch).toHaveBeenCalledTimes(2);
  });

  it('is ⌘K on a Mac, where Ctrl+K is left to the system', () => {
    const registry = setup({ isMac: () => true });
    const focusSearch = vi.fn<() => void>();
    registry.register({ ...SEARCH_HOTKEY, run: focusSearch });
    expect(registry.handleKeyDown(key('k', { ctrlKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('k', { metaKey: true }))).toBe(true);
    expect(focusSearch).toHaveBeenCalledTimes(1);
  });

  it('ignores / typed in an input, a textarea, a select or a contenteditable element, but not Ctrl+K', () => {
    const registry = setup();
    const focusSearch = vi.fn<() => void>();
    registry.register({ ...SEARCH_HOTKEY, run: focusSearch });
    for (const target of [
      input(),
      input('search'),
      { tagName: 'TEXTAREA' },
      { tagName: 'SELECT' },
      { tagName: 'DIV', isContentEditable: true },
    ]) {
      const event = key('/', { target });
      expect(registry.handleKeyDown(event)).toBe(false);
      expect(event.prevented).toBe(false); // the / is typed
    }
    expect(focusSearch).not.toHaveBeenCalled();
    expect(registry.handleKeyDown(key('k', { ctrlKey: true, target: input() }))).toBe(true);
    expect(focusSearch).toHaveBeenCalledTimes(1);
  });

  it('does not fire with a modifier it does not name, nor while a modal dialog is open', () => {
    const registry = setup();
    const focusSearch = vi.fn<() => void>();
    registry.register({ ...SEARCH_HOTKEY, run: focusSearch });
    expect(registry.handleKeyDown(key('k', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('k', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('/', { ctrlKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('k'))).toBe(false);
    const withModal = setup({ modalState: () => 'other' });
    withModal.register({ ...SEARCH_HOTKEY, run: focusSearch });
    expect(withModal.handleKeyDown(key('/'))).toBe(false);
    expect(focusSearch).not.toHaveBeenCalled();
  });

  it('leaves a key another handler took, or one typed in an IME composition', () => {
    const registry = setup();
    const focusSearch = vi.fn<() => void>();
    registry.register({ ...SEARCH_HOTKEY, run: focusSearch });
    expect(registry.handleKeyDown(key('/', { defaultPrevented: true }))).toBe(false);
    expect(registry.handleKeyDown(key('/', { isComposing: true }))).toBe(false);
    expect(focusSearch).not.toHaveBeenCalled();
  });
});

describe('the cheat sheet (?)', () => {
  it('? opens the sheet and ? closes it again; no other key acts on the page behind the sheet', () => {
    const sheet = createShortcutSheetStore();
    const registry = setup({ modalState: () => (sheet.isOpen() ? 'sheet' : 'none') });
    const bid = vi.fn<() => void>();
    registry.register({ ...SHEET_HOTKEY, run: sheet.toggle });
    registry.register({ ...BID_HOTKEY, run: bid });
    expect(registry.handleKeyDown(key('?', { shiftKey: true }))).toBe(true);
    expect(sheet.isOpen()).toBe(true);
    expect(registry.handleKeyDown(key('b'))).toBe(false);
    expect(bid).not.toHaveBeenCalled();
    expect(registry.handleKeyDown(key('?', { shiftKey: true }))).toBe(true);
    expect(sheet.isOpen()).toBe(false);
    expect(registry.handleKeyDown(key('b'))).toBe(true);
    expect(bid).toHaveBeenCalledTimes(1);
  });

  it('? is typed, not caught, in a field; and does nothing over another dialog', () => {
    const sheet = createShortcutSheetStore();
    const registry = setup();
    registry.register({ ...SHEET_HOTKEY, run: sheet.toggle });
    expect(registry.handleKeyDown(key('?', { shiftKey: true, target: { tagName: 'TEXTAREA' } }))).toBe(false);
    const withModal = setup({ modalState: () => 'other' });
    withModal.register({ ...SHEET_HOTKEY, run: sheet.toggle });
    expect(withModal.handleKeyDown(key('?', { shiftKey: true }))).toBe(false);
    expect(sheet.isOpen()).toBe(false);
  });

  it('lists what is registered now, once per id, and forgets what unmounted', () => {
    const registry = setup();
    const changes = vi.fn<() => void>();
    registry.subscribe(changes);
    registry.register({ ...SHEET_HOTKEY, run: () => undefined });
    const offBid = registry.register({ ...BID_HOTKEY, run: () => undefined });
    // Two blotters list their arrows once.
    registry.register({ id: 'grid-move', keys: ['ArrowUp', 'ArrowDown'], label: 'Move between rows', scope: 'Blotters' });
    const offSecondGrid = registry.register({
      id: 'grid-move',
      keys: ['ArrowUp', 'ArrowDown'],
      label: 'Move between rows',
      scope: 'Blotters',
    });
    expect(registry.list().map((entry) => entry.id)).toEqual(['sheet', 'ticket-bid', 'grid-move']);
    const before = registry.list();
    expect(registry.list()).toBe(before); // a stable snapshot for useSyncExternalStore
    offBid();
    offSecondGrid();
    expect(registry.list().map((entry) => entry.id)).toEqual(['sheet', 'grid-move']);
    expect(changes).toHaveBeenCalledTimes(6);
  });
});

describe('B and S', () => {
  it('B opens a bid and S an ask; Shift+B, Ctrl+B (the browser’s) and a B typed in a field do nothing', () => {
    const registry = setup();
    const sides: string[] = [];
    registry.register({ ...BID_HOTKEY, run: () => sides.push('BID') });
    registry.register({ ...ASK_HOTKEY, run: () => sides.push('ASK') });
    registry.handleKeyDown(key('b'));
    registry.handleKeyDown(key('s'));
    registry.handleKeyDown(key('B')); // Caps Lock
    expect(registry.handleKeyDown(key('B', { shiftKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('b', { ctrlKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('b', { metaKey: true }))).toBe(false);
    expect(registry.handleKeyDown(key('b', { target: input() }))).toBe(false);
    expect(registry.handleKeyDown(key('s', { target: input('search') }))).toBe(false);
    expect(sides).toEqual(['BID', 'ASK', 'BID']);
  });

  it('fire from a focused button, tick box or radio (they type nothing)', () => {
    expect(isTypingTarget(input('checkbox'))).toBe(false);
    expect(isTypingTarget(input('radio'))).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV' })).toBe(false);
    expect(isTypingTarget(input('number'))).toBe(true);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('scoped keys', () => {
  it('Esc inside the ticket clears it even from a field; outside the ticket it is not the ticket’s', () => {
    const registry = setup();
    const clear = vi.fn<() => void>();
    const field = input();
    const ticket = { contains: (node: unknown) => node === field };
    registry.register({
      id: 'ticket-escape',
      keys: ['Escape'],
      label: 'Clear',
      scope: 'Quote ticket',
      allowInInputs: true,
      within: () => ticket as unknown as Element,
      run: clear,
    });
    expect(registry.handleKeyDown(key('Escape', { target: field }))).toBe(true);
    expect(registry.handleKeyDown(key('Escape', { target: input() }))).toBe(false);
    expect(clear).toHaveBeenCalledTimes(1);
  });

  it('the latest registration of a key wins, and a listed-only key runs nothing', () => {
    const registry = setup();
    const calls: string[] = [];
    registry.register({ id: 'outer', keys: ['Enter'], label: 'Outer', scope: 'Anywhere', run: () => calls.push('outer') });
    registry.register({ id: 'inner', keys: ['Enter'], label: 'Inner', scope: 'Dialogs', run: () => calls.push('inner') });
    registry.register({ id: 'listed', keys: ['Enter'], label: 'Listed only', scope: 'Lists' });
    registry.handleKeyDown(key('Enter'));
    expect(calls).toEqual(['inner']);
  });
});

describe('the one listener', () => {
  it('is attached with the first shortcut and removed with the last, and hears keydown events', () => {
    const target = new EventTarget();
    const add = vi.spyOn(target, 'addEventListener');
    const remove = vi.spyOn(target, 'removeEventListener');
    const registry = setup({ listenOn: () => target });
    const run = vi.fn<() => void>();
    const offFirst = registry.register({ ...SHEET_HOTKEY, run });
    const offSecond = registry.register({ ...SEARCH_HOTKEY, run });
    expect(add).toHaveBeenCalledTimes(1);
    const event = Object.assign(new Event('keydown', { cancelable: true }), {
      key: '?',
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: true,
    });
    target.dispatchEvent(event);
    expect(run).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
    offFirst();
    offSecond();
    expect(remove).toHaveBeenCalledTimes(1);
    target.dispatchEvent(Object.assign(new Event('keydown'), { key: '?', ctrlKey: false, metaKey: false, altKey: false, shiftKey: true }));
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('chords and lists', () => {
  it('writes chords for people: Ctrl+K, or ⌘K on a Mac; arrows as arrows', () => {
    expect(describeChord('Mod+K', false)).toEqual(['Ctrl', 'K']);
    expect(describeChord('Mod+K', true)).toEqual(['⌘', 'K']);
    expect(describeChord('ArrowDown', false)).toEqual(['↓']);
    expect(describeChord('Escape', false)).toEqual(['Esc']);
    expect(describeChord('b', false)).toEqual(['B']);
  });

  it('matches named keys with exactly their modifiers', () => {
    expect(matchesChord('Escape', key('Escape'), false)).toBe(true);
    expect(matchesChord('Escape', key('Escape', { shiftKey: true }), false)).toBe(false);
    expect(matchesChord('?', key('?', { shiftKey: true }), false)).toBe(true);
  });

  it('moves roving focus with Up/Down (stopping at the ends) and Home/End', () => {
    expect(nextRovingIndex(0, 3, 'ArrowDown')).toBe(1);
    expect(nextRovingIndex(2, 3, 'ArrowDown')).toBe(2);
    expect(nextRovingIndex(0, 3, 'ArrowUp')).toBe(0);
    expect(nextRovingIndex(1, 3, 'End')).toBe(2);
    expect(nextRovingIndex(2, 3, 'Home')).toBe(0);
    expect(nextRovingIndex(0, 3, 'Enter')).toBeNull();
    expect(nextRovingIndex(0, 0, 'ArrowDown')).toBeNull();
  });
});
