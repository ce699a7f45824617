/**
 * The firm's deals. Loaded from `GET api/trade/deals/` (so a reload keeps them) and kept current by
 * negotiation and cluster answers and `market.consideration_update` events on the same query key;
 * a load merges into what the key already holds.
 */
import type { Deal, DealEventPayloadSchema, DealListItem } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type DealEvent = z.infer<typeof DealEventPayloadSchema>;

export interface DealRecord {
  id: string;
  finstrument_id: number;
  display_name: string | null;
  side: Deal['side'] | null;
  counterparty: string | null;
  price: number;
  yield: number;
  /** Face value in rupees (issue 12 §1). */
  quantum: number;
  /** Rupees of face value in one bond, for the bond count; unknown on a deal first heard of by a live event. */
  face_value_per_bond?: number | undefined;
  settlement_date: string;
  consideration: number;
  created_at: string;
}

export const DEALS_KEY = ['market-session', 'deals'] as const;
/** How many of the newest deals a load brings (the server's page maximum). */
export const DEALS_LOADED = 100;

/** A deal of the list: the other firm's name, or the anonymous label on an anonymous exchange RFQ. */
export type ListedDeal = DealListItem;
export interface DealList {
  count: number;
  page: number;
  page_size: number;
  results: ListedDeal[];
}

/** GET api/trade/deals/: the firm's deals, newest first, from its side. */
export function listDeals(signal?: AbortSignal): Promise<DealList> {
  return http.get<DealList>('/api/trade/deals/', { query: { page: 1, page_size: DEALS_LOADED }, ...(signal ? { signal } : {}) });
}

function toDealRecord(deal: Deal): DealRecord {
  return {
    id: deal.id,
    finstrument_id: deal.finstrument_id,
    display_name: deal.display_name,
    side: deal.side,
    counterparty: deal.side === 'buy' ? deal.seller_name : deal.buyer_name,
    price: deal.price,
    yield: deal.yield,
    quantum: deal.quantum,
    face_value_per_bond: deal.face_value_per_bond,
    settlement_date: deal.settlement_date,
    consideration: deal.consideration,
    created_at: deal.created_at,
  };
}

/** The loaded list merged into what the key holds (the server's deal wins; others stay). Newest first. */
export function mergeLoadedDeals(held: readonly DealRecord[], loaded: readonly ListedDeal[]): DealRecord[] {
  const byId = new Map(held.map((deal) => [deal.id, deal]));
  for (const deal of loaded) byId.set(deal.id, { ...toDealRecord(deal), counterparty: deal.counterparty_name });
  return [...byId.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

export const dealsQueryOptions = () =>
  queryOptions({
    queryKey: DEALS_KEY,
    queryFn: async ({ signal, client }) => {
      const list = await listDeals(signal);
      return mergeLoadedDeals(client.getQueryData<DealRecord[]>(DEALS_KEY) ?? [], list.results);
    },
    // Loaded whenever the workspace mounts (even if a live event filled the key first), then kept live.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
    gcTime: Number.POSITIVE_INFINITY,
  });

const NONE: DealRecord[] = [];

export function useDeals() {
  return useQuery(dealsQueryOptions()).data ?? NONE;
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
          face_value_per_bond: record.face_value_per_bond ?? current.face_value_per_bond,
          created_at: current.created_at,
        }
      : record;
    return [next, ...old.filter((deal) => deal.id !== record.id)];
  });
}

/** A full deal (the caller's side and the other firm's name come with it). */
export function rememberDeal(queryClient: QueryClient, deal: Deal): void {
  merge(queryClient, toDealRecord(deal));
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
