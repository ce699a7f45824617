import type { Ticket, TicketListSchema } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type TicketList = z.infer<typeof TicketListSchema>;

/** Every tickets query lives under this key (a reconnect refetches all of them). */
export const TICKETS_KEY = ['tickets'] as const;
export const OPEN_TICKETS_KEY = [...TICKETS_KEY, 'open'] as const;
/** The panel loads this many open tickets (the server's page maximum). */
export const OPEN_TICKETS_LOADED = 100;

/** GET api/chatter/trade/?open=true: the firm's tickets not yet settled, cancelled or rejected. */
export function listOpenTickets(signal?: AbortSignal): Promise<TicketList> {
  return http.get<TicketList>('/api/chatter/trade/', {
    query: { open: 'true', page: 1, page_size: OPEN_TICKETS_LOADED },
    ...(signal ? { signal } : {}),
  });
}

export const openTicketsQueryOptions = () =>
  queryOptions({
    queryKey: OPEN_TICKETS_KEY,
    queryFn: ({ signal }) => listOpenTickets(signal),
    // Kept current by live events (hooks/use-ticket-live-updates.ts), not by polling.
    staleTime: 60_000,
  });

export function useOpenTickets() {
  return useQuery(openTicketsQueryOptions());
}

/**
 * A ticket an answer brought: it replaces its row in the open list (a ticket that became final stays
 * until the next load, so the user sees what just happened to it).
 */
export function patchTicketInList(queryClient: QueryClient, ticket: Ticket): void {
  queryClient.setQueryData<TicketList>(OPEN_TICKETS_KEY, (old) => {
    if (!old) return old;
    const at = old.results.findIndex((row) => row.id === ticket.id);
    if (at < 0) return { ...old, count: old.count + 1, results: [withoutHistory(ticket), ...old.results] };
    if (old.results[at]!.version > ticket.version) return old;
    const results = [...old.results];
    results[at] = withoutHistory(ticket);
    return { ...old, results };
  });
}

function withoutHistory(ticket: Ticket): Ticket {
  const { history: _history, ...row } = ticket;
  return row;
}
