/**
 * Deals the session has seen made. There is no list call for deals yet (post-trade is a later
 * issue), so this query key is filled from negotiation and cluster answers and from
 * `market.consideration_update` events, never fetched.
 */
import type { Deal, DealEventPayloadSchema } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

export type DealEvent = z.infer<typeof DealEventPayloadSchema>;

export interface DealRecord {
  id: string;
  finstrument_id: number;
  display_name: string | null;
  side: Deal['side'] | null;
  counterparty: string | null;
  price: number;
  yield: number;
  quantum: number;
  settlement_date: string;
  consideration: number;
  created_at: string;
}

export const DEALS_KEY = ['market-session', 'deals'] as const;

export const dealsQueryOptions = () =>
  queryOptions({
    queryKey: DEALS_KEY,
    queryFn: () => Promise.resolve<DealRecord[]>([]),
    initialData: [] as DealRecord[],
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export function useDeals() {
  return useQuery(dealsQueryOptions()).data;
}

function merge(queryClient: QueryClient, record: DealRecord): void {
  queryClient.setQueryData<DealRecord[]>(DEALS_KEY, (old = []) => {
    const current = old.find((deal) => deal.id === record.id);
    const next: DealRecord = current
      ? {
          ...current,
          ...record,
          display_name: record.display_name ?? current.display_name,
          side: record.side ?? current.side,
          counterparty: record.counterparty ?? current.counterparty,
        }
      : record;
    return [next, ...old.filter((deal) => deal.id !== record.id)];
  });
}

/** A full deal (the caller's side and the other firm's name come with it). */
export function rememberDeal(queryClient: QueryClient, deal: Deal): void {
  merge(queryClient, {
    id: deal.id,
    finstrument_id: deal.finstrument_id,
    display_name: deal.display_name,
    side: deal.side,
    counterparty: deal.side === 'buy' ? deal.seller_name : deal.buyer_name,
    price: deal.price,
    yield: deal.yield,
    quantum: deal.quantum,
    settlement_date: deal.settlement_date,
    consideration: deal.consideration,
    created_at: deal.created_at,
  });
}

/** A `market.consideration_update` event: the terms, without names or side (known ones are kept). */
export function applyDealEvent(
  queryClient: QueryClient,
  event: DealEvent,
  context: { display_name: string | null; side: Deal['side'] | null },
): void {
  merge(queryClient, {
    id: event.deal_id,
    finstrument_id: event.finstrument_id,
    display_name: context.display_name,
    side: context.side,
    counterparty: null,
    price: event.price,
    yield: event.yield,
    quantum: event.quantum,
    settlement_date: event.settlement_date,
    consideration: event.consideration,
    created_at: new Date().toISOString(),
  });
}
