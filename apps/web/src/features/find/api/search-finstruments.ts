import { MIN_SEARCH_CHARACTERS, type FinstrumentSummary } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET /api/finstruments/search/?searchKey&limit (public; fewer than 3 characters is a 400). */
export async function searchFinstruments(searchKey: string, limit = 20, signal?: AbortSignal): Promise<FinstrumentSummary[]> {
  const response = await http.get<{ finstruments: FinstrumentSummary[] }>('/api/finstruments/search/', {
    query: { searchKey, limit },
    retries: 0,
    ...(signal ? { signal } : {}),
  });
  return response.finstruments;
}

export const finstrumentSearchQueryOptions = (searchKey: string, limit = 20) =>
  queryOptions({
    queryKey: ['finstruments', 'search', searchKey.trim().toLowerCase(), limit] as const,
    queryFn: ({ signal }) => searchFinstruments(searchKey.trim(), limit, signal),
    enabled: searchKey.trim().length >= MIN_SEARCH_CHARACTERS,
    staleTime: 60_000,
    retry: false,
  });

/** Spec §5: a failed bond search only empties the results (no toast). */
export function useFinstrumentSearch(searchKey: string, limit = 20) {
  const query = useQuery(finstrumentSearchQueryOptions(searchKey, limit));
  return { ...query, results: query.isError ? [] : (query.data ?? []) };
}
