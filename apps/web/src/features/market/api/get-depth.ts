import type { Depth } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** Depth pages sit under this prefix: live public-run events refetch them. */
export const DEPTH_KEY = ['market', 'depth'] as const;

/** GET api/quote/depth/ (Premium: BASIC clients get 402): open public interest in one bond by price level. */
export function getDepth(finstrumentId: number, signal?: AbortSignal): Promise<Depth> {
  return http.get<Depth>('/api/quote/depth/', { query: { finstrument_id: finstrumentId }, retries: 0, ...(signal ? { signal } : {}) });
}

export const depthQueryOptions = (finstrumentId: number | null) =>
  queryOptions({
    queryKey: [...DEPTH_KEY, finstrumentId] as const,
    queryFn: ({ signal }) => getDepth(finstrumentId!, signal),
    enabled: finstrumentId !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // A 402 (Premium) or 404 answer does not change by asking again.
    retry: false,
  });

export function useDepth(finstrumentId: number | null) {
  return useQuery(depthQueryOptions(finstrumentId));
}
