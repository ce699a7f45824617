import type { UnifiedUserSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type BrokerUser = z.infer<typeof UnifiedUserSchema>;

/** GET api/chatter/search-brokers/{id}: broker firms' users who may work the caller's side of ticket `id`. */
export function searchBrokers(ticketId: string, search: string, signal?: AbortSignal): Promise<BrokerUser[]> {
  return http.get<BrokerUser[]>(`/api/chatter/search-brokers/${encodeURIComponent(ticketId)}`, {
    query: { search_param: search.trim() },
    retries: 0,
    ...(signal ? { signal } : {}),
  });
}

export const brokersQueryOptions = (ticketId: string, search: string) =>
  queryOptions({
    queryKey: ['tickets', 'brokers', ticketId, search.trim().toLowerCase()] as const,
    queryFn: ({ signal }) => searchBrokers(ticketId, search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });

export function useBrokers(ticketId: string, search: string, enabled = true) {
  return useQuery({ ...brokersQueryOptions(ticketId, search), enabled });
}
