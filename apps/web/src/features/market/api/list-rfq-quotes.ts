import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import type { QuoteList } from './list-public-runs';

/** Live `market.inquiries` events refetch this key. */
export const RFQ_QUOTES_KEY = ['market', 'rfq-quotes'] as const;

/** GET api/eoi/rfq-quote/?paginate=false: open exchange RFQs on the firm's RFQ exchanges, and its own (one page of up to 500). */
export function listRfqQuotes(signal?: AbortSignal): Promise<QuoteList> {
  return http.get<QuoteList>('/api/eoi/rfq-quote/', { query: { paginate: 'false' }, ...(signal ? { signal } : {}) });
}

export const rfqQuotesQueryOptions = () =>
  queryOptions({
    queryKey: [...RFQ_QUOTES_KEY] as const,
    queryFn: ({ signal }) => listRfqQuotes(signal),
    staleTime: 30_000,
  });

export function useRfqQuotes() {
  return useQuery(rfqQuotesQueryOptions());
}
