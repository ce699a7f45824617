import type { Ticket, TicketEditSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface EditTicketRequest {
  id: string;
  /** `version` and what changes: size, settlement (date or T+n), exchange. */
  body: z.input<typeof TicketEditSchema>;
  idempotencyKey: string;
}

/** PATCH api/chatter/trade/{id}/: change the terms (a consideration update clears both acceptances). */
export function editTicket({ id, body, idempotencyKey }: EditTicketRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/chatter/trade/${encodeURIComponent(id)}/`, body, idempotencyHeaders(idempotencyKey));
}

export const useEditTicket = () => useTicketMutation(editTicket);
