import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { toRunsParams, type QuoteList, type RunsQuery } from './list-public-runs';

export const PRIVATE_RUNS_KEY = ['market', 'private-runs'] as const;

/** GET api/eoi/private-run/: quotes sent to the caller's firm, or sent by it, to chosen counterparties. */
export function listPrivateRuns(query: RunsQuery, signal?: AbortSignal): Promise<QuoteList> {
  return http.get<QuoteList>('/api/eoi/private-run/', { query: toRunsParams(query), ...(signal ? { signal } : {}) });
}

export const privateRunsQueryOptions = (query: RunsQuery) =>
  queryOptions({
    queryKey: [...PRIVATE_RUNS_KEY, query] as const,
    queryFn: ({ signal }) => listPrivateRuns(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function usePrivateRuns(query: RunsQuery) {
  return useQuery(privateRunsQueryOptions(query));
}
