import type { TradeTimingsSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type TradeTimings = z.infer<typeof TradeTimingsSchema>;

/** GET api/trade/timings: sessions (IST), the T+0 cut-off, whether the market is open now. */
export function getTradeTimings(): Promise<TradeTimings> {
  return http.get<TradeTimings>('/api/trade/timings');
}

export const tradeTimingsQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'timings'] as const, queryFn: getTradeTimings, staleTime: 60_000 });

export function useTradeTimings() {
  return useQuery(tradeTimingsQueryOptions());
}
