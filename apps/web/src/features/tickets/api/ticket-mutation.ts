import { IDEMPOTENCY_KEY_HEADER, type Ticket } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markOwnChange } from '../utils/own-changes';
import { rememberTicket } from './get-ticket';

/** Every ticket submit carries one Idempotency-Key (the client's own retries of that submit reuse it). */
export const idempotencyHeaders = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });

/**
 * A change to one ticket: marked as the user's own (its live echo raises no toast), and the answer (the
 * ticket as the caller now sees it) goes into the ticket's keys.
 */
export function useTicketMutation<TVariables extends { id: string }>(mutationFn: (variables: TVariables) => Promise<Ticket>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onMutate: (variables) => markOwnChange(variables.id),
    onSuccess: (ticket) => rememberTicket(queryClient, ticket),
  });
}
