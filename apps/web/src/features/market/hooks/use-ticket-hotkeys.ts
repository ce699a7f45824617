import { ASK_HOTKEY, BID_HOTKEY, useHotkey } from '../../../lib/hotkeys';
import { selectedBond } from '../stores/selected-bond';

/**
 * `B` / `S`: a bid / an ask ticket on the selected bond (the quote ticket takes the request). Only
 * for users who can trade: without trade access the keys do nothing and are not listed. Mounted by
 * the ticket and the blotters (listed once), so the keys work wherever the dealer's focus is.
 */
export function useTicketHotkeys(canTrade: boolean): void {
  useHotkey({ ...BID_HOTKEY, run: () => selectedBond.requestTicket('BID') }, canTrade);
  useHotkey({ ...ASK_HOTKEY, run: () => selectedBond.requestTicket('ASK') }, canTrade);
}
