import type { SupportTicketCreate, SupportTicketCreatedSchema } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { SUPPORT_TICKETS_KEY } from './get-tickets';

export type SupportTicketCreated = z.infer<typeof SupportTicketCreatedSchema>;

/** POST /ext/tickets/ {ticket_type_id, contacts, ticket_attributes}: raises a ticket with Dart Support. */
export function createTicket(body: SupportTicketCreate): Promise<SupportTicketCreated> {
  return http.post<SupportTicketCreated>('/ext/tickets/', body);
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUPPORT_TICKETS_KEY }),
  });
}
