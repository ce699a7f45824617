import type { Quote } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export const QUOTE_KEY = ['market', 'quote'] as const;

/** GET api/trade/eoi/{id}/: one quote the caller may see (404 otherwise). */
export function getQuote(id: string, signal?: AbortSignal): Promise<Quote> {
  return http.get<Quote>(`/api/trade/eoi/${encodeURIComponent(id)}/`, signal ? { signal } : {});
}

export const quoteQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...QUOTE_KEY, id] as const,
    queryFn: ({ signal }) => getQuote(id, signal),
    staleTime: 30_000,
    retry: false,
  });

export function useQuote(id: string | null) {
  return useQuery({ ...quoteQueryOptions(id ?? ''), enabled: Boolean(id) });
}
