/**
 * The shortcuts every screen has, as data (the header and the cheat sheet attach the actions; the
 * tests dispatch keys against these same definitions).
 */
import type { HotkeyDefinition } from './registry';

type Described = Omit<HotkeyDefinition, 'run'>;

/** `/` or Ctrl+K (⌘K on a Mac) focuses the header's bond search; Ctrl+K works from inside a field too (it types nothing). */
export const SEARCH_HOTKEY: Described = {
  id: 'search',
  keys: ['/', 'Mod+K'],
  label: 'Search bonds',
  scope: 'Anywhere',
  allowInInputs: ['Mod+K'],
};

/** `?` opens the cheat sheet, and closes it again. */
export const SHEET_HOTKEY: Described = {
  id: 'sheet',
  keys: ['?'],
  label: 'Show or hide the keyboard shortcuts',
  scope: 'Anywhere',
  allowInModal: 'sheet',
};

/** `B` / `S`: a bid / an ask ticket on the selected bond (registered only for users who can trade). */
export const BID_HOTKEY: Described = {
  id: 'ticket-bid',
  keys: ['B'],
  label: 'Bid on the selected bond (new quote ticket)',
  scope: 'Quote ticket',
};
export const ASK_HOTKEY: Described = { id: 'ticket-ask', keys: ['S'], label: 'Ask (sell) on the selected bond', scope: 'Quote ticket' };
