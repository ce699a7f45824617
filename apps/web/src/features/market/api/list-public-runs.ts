import type { Quote } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export interface RunsQuery {
  page: number;
  page_size: number;
  search?: string;
  my_quotes?: boolean;
}

/** `GET api/trade/d/market/` and `GET api/eoi/private-run/` share this response. */
export interface QuoteList {
  count: number;
  page: number;
  page_size: number;
  results: Quote[];
  restriction_text: string | null;
}

/** Every cached page of public runs sits under this prefix (live updates patch them all). */
export const PUBLIC_RUNS_KEY = ['market', 'public-runs'] as const;

export function toRunsParams(query: RunsQuery): Record<string, string | number | undefined> {
  return {
    page: query.page,
    page_size: query.page_size,
    search: query.search?.trim() ? query.search.trim() : undefined,
    my_quotes: query.my_quotes ? 'true' : undefined,
  };
}

/** GET api/trade/d/market/: open public quotes (empty with `restriction_text` without trade access). */
export function listPublicRuns(query: RunsQuery, signal?: AbortSignal): Promise<QuoteList> {
  return http.get<QuoteList>('/api/trade/d/market/', { query: toRunsParams(query), ...(signal ? { signal } : {}) });
}

export const publicRunsQueryOptions = (query: RunsQuery) =>
  queryOptions({
    queryKey: [...PUBLIC_RUNS_KEY, query] as const,
    queryFn: ({ signal }) => listPublicRuns(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function usePublicRuns(query: RunsQuery) {
  return useQuery(publicRunsQueryOptions(query));
}
