import type { FacilitatorListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { NETWORK_KEY } from './get-network-stats';

export type FacilitatorList = z.output<typeof FacilitatorListSchema>;

/** GET api/trade/facilitator/: broker firms with their count of active dealers. */
export function listFacilitators(search: string, signal?: AbortSignal): Promise<FacilitatorList> {
  return http.get<FacilitatorList>('/api/trade/facilitator/', { query: { search }, ...(signal ? { signal } : {}) });
}

export const facilitatorsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...NETWORK_KEY, 'facilitators', search.toLowerCase()] as const,
    queryFn: ({ signal }) => listFacilitators(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useFacilitators(search: string) {
  return useQuery(facilitatorsQueryOptions(search));
}
