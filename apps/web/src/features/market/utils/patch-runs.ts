/**
 * Live updates patch the runs' own query keys (STYLE practice 14): a quote already on a cached page
 * is replaced in place (so the blotter flashes the changed cells, and a closed, expired, replaced
 * or filled quote shows that state until the next refetch drops it); a quote not on any page is
 * fetched by refetching the pages.
 */
import type { Quote } from '@dart/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { QUOTE_KEY } from '../api/get-quote';
import { PRIVATE_RUNS_KEY } from '../api/list-private-runs';
import { PUBLIC_RUNS_KEY, type QuoteList } from '../api/list-public-runs';

/** Event payloads omit the reader-specific fields; those stay as the list had them. */
export type QuoteUpdate = Omit<Quote, 'is_mine' | 'client_name' | 'counterparties'> & Partial<Quote>;

/** Replaces the quote where it is cached; returns whether any page held it. */
export function patchQuoteInRuns(queryClient: QueryClient, quote: QuoteUpdate): boolean {
  let found = false;
  for (const key of [PUBLIC_RUNS_KEY, PRIVATE_RUNS_KEY]) {
    queryClient.setQueriesData<QuoteList>({ queryKey: key }, (old) => {
      if (!old?.results.some((row) => row.id === quote.id)) return old;
      found = true;
      return { ...old, results: old.results.map((row) => (row.id === quote.id ? { ...row, ...quote } : row)) };
    });
  }
  return found;
}

/** Looks a bond's name up in the cached runs (live deal events carry only the bond id). */
export function findBondName(queryClient: QueryClient, finstrumentId: number): string | null {
  for (const key of [PUBLIC_RUNS_KEY, PRIVATE_RUNS_KEY]) {
    for (const [, list] of queryClient.getQueriesData<QuoteList>({ queryKey: key })) {
      const row = list?.results.find((quote) => quote.finstrument_id === finstrumentId);
      if (row) return row.display_name;
    }
  }
  for (const [, quote] of queryClient.getQueriesData<Quote>({ queryKey: QUOTE_KEY }))
    if (quote?.finstrument_id === finstrumentId) return quote.display_name;
  return null;
}
