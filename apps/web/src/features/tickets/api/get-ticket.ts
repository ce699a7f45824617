import type { Ticket } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { patchTicketInList, TICKETS_KEY } from './list-tickets';

export const TICKET_KEY = [...TICKETS_KEY, 'detail'] as const;

/** GET api/chatter/trade/{id}/: one ticket with its stamped history (another firm's ticket is 404). */
export function getTicket(id: string, signal?: AbortSignal): Promise<Ticket> {
  return http.get<Ticket>(`/api/chatter/trade/${encodeURIComponent(id)}/`, signal ? { signal } : {});
}

export const ticketQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...TICKET_KEY, id] as const,
    queryFn: ({ signal }) => getTicket(id, signal),
    staleTime: 10_000,
    retry: false,
  });

export function useTicket(id: string | null) {
  return useQuery({ ...ticketQueryOptions(id ?? ''), enabled: Boolean(id) });
}

/**
 * The ticket an action answered with: into its detail key (keeping the history held when the answer
 * carries none, then refetching it for the new stamp) and into the open list.
 */
export function rememberTicket(queryClient: QueryClient, ticket: Ticket): void {
  const key = [...TICKET_KEY, ticket.id];
  const held = queryClient.getQueryData<Ticket>(key);
  if (!held || held.version <= ticket.version)
    queryClient.setQueryData<Ticket>(key, ticket.history || !held?.history ? ticket : { ...ticket, history: held.history });
  if (!ticket.history) void queryClient.invalidateQueries({ queryKey: key });
  patchTicketInList(queryClient, ticket);
}
