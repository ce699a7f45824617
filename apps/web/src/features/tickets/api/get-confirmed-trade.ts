import type { ConfirmedTradeSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { TICKETS_KEY } from './list-tickets';

export type ConfirmedTrade = z.infer<typeof ConfirmedTradeSchema>;

/**
 * GET api/chatter/trade/confirmed-trade/{id}/: the trade confirmation once both sides accepted the
 * consideration, with the custodians and the firm's order / procurement order (the other firm's is null).
 */
export function getConfirmedTrade(ticketId: string, signal?: AbortSignal): Promise<ConfirmedTrade> {
  return http.get<ConfirmedTrade>(`/api/chatter/trade/confirmed-trade/${encodeURIComponent(ticketId)}/`, signal ? { signal } : {});
}

/** Under the tickets key: a ticket event (or a reconnect) refetches it with the rest. */
export const confirmedTradeQueryOptions = (ticketId: string, version: number) =>
  queryOptions({
    // The ticket's version in the key: a new state (reported, settled) loads the orders again.
    queryKey: [...TICKETS_KEY, 'confirmed', ticketId, version] as const,
    // No abort signal: a new version (reported, then settled seconds later) drops the observer of the old key while
    // its load may still be on the way, and TanStack Query aborts a dropped load that took the signal. The answer is
    // small; it is let finish rather than shown as a failed request.
    queryFn: () => getConfirmedTrade(ticketId),
    staleTime: 10_000,
    retry: false,
  });

/** Only for a confirmed ticket (`enabled`): before that the server answers 409 "not confirmed yet". */
export function useConfirmedTrade(ticketId: string, version: number, enabled: boolean) {
  return useQuery({ ...confirmedTradeQueryOptions(ticketId, version), enabled });
}
