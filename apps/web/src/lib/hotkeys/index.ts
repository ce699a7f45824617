/** Keyboard shortcuts (issue 12 §4): one listener, scoped registrations, the `?` cheat sheet, roving focus for lists. */
export {
  createHotkeyRegistry,
  describeChord,
  HOTKEY_SCOPES,
  hotkeys,
  isTypingTarget,
  matchesChord,
  type HotkeyDefinition,
  type HotkeyEvent,
  type HotkeyListing,
  type HotkeyRegistry,
  type HotkeyScope,
} from './registry';
export { ASK_HOTKEY, BID_HOTKEY, SEARCH_HOTKEY, SHEET_HOTKEY } from './app-hotkeys';
export { nextRovingIndex, ROVING_ITEM, useRovingFocus } from './roving-focus';
export { shortcutSheet } from './sheet-store';
export { ShortcutSheet } from './shortcut-sheet';
export { useHotkey, useHotkeyList } from './use-hotkey';
