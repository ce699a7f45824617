import type { ManualTicketSchema, Ticket } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { beginOwnCreate, markOwnChange } from '../utils/own-changes';
import { rememberTicket } from './get-ticket';
import { idempotencyHeaders } from './ticket-mutation';

export interface CreateManualTicketRequest {
  body: z.input<typeof ManualTicketSchema>;
  idempotencyKey: string;
}

/** POST api/chatter/trade/manual-ticket/: a ticket (draft) for a trade agreed outside Dart's market. */
export function createManualTicket({ body, idempotencyKey }: CreateManualTicketRequest): Promise<Ticket> {
  return http.post<Ticket>('/api/chatter/trade/manual-ticket/', body, idempotencyHeaders(idempotencyKey));
}

export function useCreateManualTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CreateManualTicketRequest) => {
      // Its 'created' event may arrive before the answer: it is the user's own, no toast.
      const end = beginOwnCreate();
      try {
        return await createManualTicket(request);
      } finally {
        end();
      }
    },
    onSuccess: (ticket) => {
      markOwnChange(ticket.id);
      rememberTicket(queryClient, ticket);
    },
  });
}
