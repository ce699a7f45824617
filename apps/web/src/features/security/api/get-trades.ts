import type { TradeListSchema, TradesRequestSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type TradesRequest = z.input<typeof TradesRequestSchema>;
export type TradeList = z.infer<typeof TradeListSchema>;
export type TradeRow = TradeList['results'][number];

/** POST /api/trades/{id}/ (security-data permission): exchange closes, reported OTC trades, fund valuations. */
export function getTrades(id: number, request: TradesRequest): Promise<TradeList> {
  return http.post<TradeList>(`/api/trades/${id}/`, request);
}

export const tradesQueryOptions = (id: number, request: TradesRequest) =>
  queryOptions({
    queryKey: ['finstruments', 'trades', id, request] as const,
    queryFn: () => getTrades(id, request),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });

export function useTrades(id: number, request: TradesRequest, enabled = true) {
  return useQuery({ ...tradesQueryOptions(id, request), enabled });
}
