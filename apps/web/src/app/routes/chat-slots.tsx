/**
 * What chat borrows from the market for private runs sent into a chat: the quote form (the ticket's
 * fields, addressed to the chat's other firms) and a card's Counter (the negotiation dialog).
 */
import type { ChatSlots } from '../../features/chat';
import { PrivateRunForm, QuoteCounterButton } from '../../features/market';
import { marketSlots } from './market-slots';

export const chatSlots: ChatSlots = {
  renderPrivateRunForm: ({ counterparties, postToChat }) => (
    <PrivateRunForm
      counterparties={counterparties}
      onCreated={(quote) => postToChat(quote.id)}
      renderBondSearch={marketSlots.renderBondSearch}
      renderPricing={marketSlots.renderPricing}
    />
  ),
  renderQuoteAction: (card) => <QuoteCounterButton quoteId={card.quote_id} renderPricing={marketSlots.renderPricing} />,
};
