import type { PrivateRunCard } from '@dart/contracts';
import type { ReactNode } from 'react';
import type { ChatFirm } from '../utils/private-run';

/** What chat gives the private run form it borrows. */
export interface PrivateRunFormSlotProps {
  /** Every other firm in the chat: the quote must go privately to exactly these (shown, not chosen). */
  counterparties: readonly ChatFirm[];
  /**
   * Call with the new quote's id: sends the private run message into the chat and closes the dialog.
   * Rejects when the chat refuses it, with the spec's message (`PRIVATE_RUN_MESSAGES`) as the error's.
   */
  postToChat: (quoteId: string) => Promise<void>;
}

/**
 * Parts other features own (a feature never imports another, STYLE practice 2): the route passes the
 * market's private run form and the Counter action of a private run card. Without them chat offers
 * no "Send a private run" and shows cards without an action.
 */
export interface ChatSlots {
  renderPrivateRunForm?: (props: PrivateRunFormSlotProps) => ReactNode;
  /** The action on a private run card of another firm (the market's Counter, opening its negotiation dialog). */
  renderQuoteAction?: (card: PrivateRunCard) => ReactNode;
}
