import type { Ticket, TicketPriceSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface PriceTicketRequest {
  id: string;
  /** `version` and the price (clean, per ₹100) or the yield (a fraction), not both. */
  body: z.input<typeof TicketPriceSchema>;
  idempotencyKey: string;
}

/** PATCH api/chatter/trade/{id}/price/: the seller or the buyer's broker quotes (or confirms) the price. */
export function priceTicket({ id, body, idempotencyKey }: PriceTicketRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/chatter/trade/${encodeURIComponent(id)}/price/`, body, idempotencyHeaders(idempotencyKey));
}

export const usePriceTicket = () => useTicketMutation(priceTicket);
