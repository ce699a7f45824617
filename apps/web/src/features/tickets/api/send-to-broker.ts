import type { SendToBrokerSchema, Ticket } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { idempotencyHeaders, useTicketMutation } from './ticket-mutation';

export interface SendToBrokerRequest {
  id: string;
  body: z.input<typeof SendToBrokerSchema>;
  idempotencyKey: string;
}

/** PATCH api/chatter/trade/send-to-broker/{id}/: the caller's firm hands its side of the ticket to a broker's user. */
export function sendToBroker({ id, body, idempotencyKey }: SendToBrokerRequest): Promise<Ticket> {
  return http.patch<Ticket>(`/api/chatter/trade/send-to-broker/${encodeURIComponent(id)}/`, body, idempotencyHeaders(idempotencyKey));
}

export const useSendToBroker = () => useTicketMutation(sendToBroker);
