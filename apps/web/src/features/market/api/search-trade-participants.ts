import type { Exchange, TradeParticipantList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** Outside `['market']`: refetching the runs after a market event never refetches a search. */
export const TRADE_PARTICIPANTS_KEY = ['market-participants'] as const;

export interface TradeParticipantQuery {
  /** Part of a firm's or a person's name; empty = the first firms by name. */
  search: string;
  /** An RFQ on this exchange: only firms enabled for RFQs there. */
  rfqExchange?: Exchange;
}

/** GET api/chatter/search-trade-participants: other trading firms (Company) and their members (Member), 20 at most. */
export function searchTradeParticipants(query: TradeParticipantQuery, signal?: AbortSignal): Promise<TradeParticipantList> {
  return http.get<TradeParticipantList>('/api/chatter/search-trade-participants', {
    query: {
      search_param: query.search.trim(),
      ...(query.rfqExchange ? { for_rfq: 'true', exchange: query.rfqExchange } : {}),
    },
    retries: 0,
    ...(signal ? { signal } : {}),
  });
}

export const tradeParticipantsQueryOptions = (query: TradeParticipantQuery) =>
  queryOptions({
    queryKey: [...TRADE_PARTICIPANTS_KEY, query.search.trim().toLowerCase(), query.rfqExchange ?? null] as const,
    queryFn: ({ signal }) => searchTradeParticipants(query, signal),
    // The previous answer stays on screen while the next one loads (no flicker between keystrokes).
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });

/** A failed search only empties the list (the picker shows its empty text). */
export function useTradeParticipants(query: TradeParticipantQuery, enabled = true) {
  const result = useQuery({ ...tradeParticipantsQueryOptions(query), enabled });
  return { ...result, results: result.isError ? [] : (result.data?.results ?? []) };
}
