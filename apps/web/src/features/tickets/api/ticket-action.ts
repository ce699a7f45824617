import type { Ticket, TicketAction, TicketActionBodySchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface TicketActionRequest {
  id: string;
  action: TicketAction;
  /** `version`, and the reason for reject and cancel. */
  body: z.input<typeof TicketActionBodySchema>;
  idempotencyKey: string;
}

/** PATCH api/chatter/trade/actions/{id}/{action}/: send a draft, reject or cancel (with a reason). */
export function runTicketAction({ id, action, body, idempotencyKey }: TicketActionRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/chatter/trade/actions/${encodeURIComponent(id)}/${action}/`, body, idempotencyHeaders(idempotencyKey));
}

export const useTicketAction = () => useTicketMutation(runTicketAction);
