import type { Ticket, TicketBrokerageSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface SetBrokerageRequest {
  id: string;
  /** `version` and the brokerage in ₹ (paise at most). */
  body: z.input<typeof TicketBrokerageSchema>;
  idempotencyKey: string;
}

/** PATCH api/trade/{id}/brokerage/: a broker on the ticket sets the brokerage it charges its principal. */
export function setBrokerage({ id, body, idempotencyKey }: SetBrokerageRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/trade/${encodeURIComponent(id)}/brokerage/`, body, idempotencyHeaders(idempotencyKey));
}

export const useSetBrokerage = () => useTicketMutation(setBrokerage);
