import { Button } from '@mantine/core';
import { useState } from 'react';
import { useCanTrade } from '../../../lib/session';
import type { MarketSlots } from './market-slots';
import { NegotiationDialog } from './negotiation-dialog';

export interface QuoteCounterButtonProps extends Pick<MarketSlots, 'renderPricing'> {
  quoteId: string;
}

/**
 * "Counter" on a quote shown outside the market's panels (a private run card in a chat): opens the
 * negotiation dialog for that quote id, which loads the quote and shows its status. View-only users
 * and users without the trading permission get no button (they could only earn a refusal).
 */
export function QuoteCounterButton({ quoteId, renderPricing }: QuoteCounterButtonProps) {
  const canTrade = useCanTrade();
  const [open, setOpen] = useState(false);
  if (!canTrade) return null;
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setOpen(true)} data-testid="quote-counter">
        Counter
      </Button>
      <NegotiationDialog target={open ? { quoteId } : null} onClose={() => setOpen(false)} canTrade renderPricing={renderPricing} />
    </>
  );
}
