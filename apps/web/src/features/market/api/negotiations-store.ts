/**
 * Negotiations the session has taken part in. The server has no list call for negotiations (only
 * `POST api/eoi/add-negotiation/` answers with one), so this query key is filled from those answers
 * and from `market.rfq_negotiation` events, never fetched. It lives outside the `['market']` prefix
 * so that refetching the runs never empties it.
 */
import type { CounterSchema, NegotiationEventPayloadSchema, NegotiationSchema } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

export type Counter = z.infer<typeof CounterSchema>;
export type Negotiation = z.infer<typeof NegotiationSchema>;
export type NegotiationEvent = z.infer<typeof NegotiationEventPayloadSchema>;

export interface NegotiationRecord {
  id: string;
  quote_id: string;
  status: Negotiation['status'];
  /** The caller's side: the quote's owner (quoter) or the firm that countered it (responder). */
  role: 'quoter' | 'responder';
  history: Counter[];
  deal_id: string | null;
  updated_at: string;
}

export const NEGOTIATIONS_KEY = ['market-session', 'negotiations'] as const;

export const negotiationsQueryOptions = () =>
  queryOptions({
    queryKey: NEGOTIATIONS_KEY,
    queryFn: () => Promise.resolve<NegotiationRecord[]>([]),
    initialData: [] as NegotiationRecord[],
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export function useNegotiations() {
  return useQuery(negotiationsQueryOptions()).data;
}

const sameCounter = (a: Counter, b: Counter) => a.at === b.at && a.action === b.action && a.by_client === b.by_client;

function upsert(queryClient: QueryClient, id: string, update: (current: NegotiationRecord | undefined) => NegotiationRecord): void {
  queryClient.setQueryData<NegotiationRecord[]>(NEGOTIATIONS_KEY, (old = []) => {
    const current = old.find((record) => record.id === id);
    const next = update(current);
    return [next, ...old.filter((record) => record.id !== id)];
  });
}

/** A full negotiation from the server's answer replaces what the session knew of it. */
export function rememberNegotiation(queryClient: QueryClient, negotiation: Negotiation): void {
  upsert(queryClient, negotiation.id, (current) => ({
    id: negotiation.id,
    quote_id: negotiation.quote_id,
    status: negotiation.status,
    role: negotiation.role,
    history: negotiation.history.length >= (current?.history.length ?? 0) ? negotiation.history : current!.history,
    deal_id: negotiation.deal?.id ?? current?.deal_id ?? null,
    updated_at: negotiation.updated_at,
  }));
}

/**
 * A live event carries the last step only: it is appended once. The caller's role on a negotiation
 * first seen through an event: the side that acted, if it was the caller, else the other side.
 */
export function applyNegotiationEvent(queryClient: QueryClient, event: NegotiationEvent, myUserId: string | null): void {
  upsert(queryClient, event.negotiation_id, (current) => {
    const history = current?.history ?? [];
    const known = history.some((counter) => sameCounter(counter, event.last));
    const otherSide = event.last.by_client === 'quoter' ? 'responder' : 'quoter';
    return {
      id: event.negotiation_id,
      quote_id: event.quote_id,
      status: event.status,
      role: current?.role ?? (event.last.by_user_id === myUserId ? event.last.by_client : otherSide),
      history: known ? history : [...history, event.last],
      deal_id: current?.deal_id ?? null,
      updated_at: event.last.at,
    };
  });
}

/** The last counter (the terms an accept would take). */
export function lastCounter(record: Pick<NegotiationRecord, 'history'>): Counter | undefined {
  return record.history.findLast((step) => step.action === 'counter');
}

/** Whether the caller may accept or reject now: the negotiation is open and the last counter is the other side's. */
export function isMyTurn(record: NegotiationRecord): boolean {
  const last = record.history.at(-1);
  return record.status === 'open' && last !== undefined && last.action === 'counter' && last.by_client !== record.role;
}
