import type { NetworkClient } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { NETWORK_KEY } from './get-network-stats';

/** GET api/clients/?is_partner=true: firms the caller's firm shares a ticket with (needs client.view_client). */
export function listPartners(search: string, signal?: AbortSignal): Promise<{ results: NetworkClient[]; count: number }> {
  return http.get('/api/clients/', { query: { search, is_partner: 'true' }, ...(signal ? { signal } : {}) });
}

export const partnersQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...NETWORK_KEY, 'partners', search.toLowerCase()] as const,
    queryFn: ({ signal }) => listPartners(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function usePartners(search: string, enabled: boolean) {
  return useQuery({ ...partnersQueryOptions(search), enabled });
}
