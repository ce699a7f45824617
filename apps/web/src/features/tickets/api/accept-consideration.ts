import type { AcceptConsiderationSchema, Ticket } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface AcceptConsiderationRequest {
  id: string;
  body: z.input<typeof AcceptConsiderationSchema>;
  idempotencyKey: string;
}

/**
 * PATCH api/chatter/trade/accept-consideration/{id}/ with the side's custodian: the second side's
 * acceptance confirms the trade (the ticket goes to reporting).
 */
export function acceptConsideration({ id, body, idempotencyKey }: AcceptConsiderationRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/chatter/trade/accept-consideration/${encodeURIComponent(id)}/`, body, idempotencyHeaders(idempotencyKey));
}

export const useAcceptConsideration = () => useTicketMutation(acceptConsideration);
