import { MARKET_PAGE_SIZE_DEFAULT, type MarketInstrumentList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** Instrument pages sit under this prefix: live public-run events refetch them. */
export const INSTRUMENTS_KEY = ['market', 'instruments'] as const;

export interface InstrumentsQuery {
  page: number;
  page_size?: number;
  search?: string;
}

/** GET api/trade/finstrument/: bonds with open public quotes, best bid/ask and counts (type Bond). */
export function listInstruments(query: InstrumentsQuery, signal?: AbortSignal): Promise<MarketInstrumentList> {
  return http.get<MarketInstrumentList>('/api/trade/finstrument/', {
    query: {
      page: query.page,
      page_size: query.page_size ?? MARKET_PAGE_SIZE_DEFAULT,
      search: query.search?.trim() ? query.search.trim() : undefined,
    },
    ...(signal ? { signal } : {}),
  });
}

export const instrumentsQueryOptions = (query: InstrumentsQuery) =>
  queryOptions({
    queryKey: [...INSTRUMENTS_KEY, query] as const,
    queryFn: ({ signal }) => listInstruments(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export function useInstruments(query: InstrumentsQuery) {
  return useQuery(instrumentsQueryOptions(query));
}
