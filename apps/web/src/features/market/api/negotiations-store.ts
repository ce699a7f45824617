/**
 * The firm's negotiations. Loaded from `GET api/eoi/negotiations/` (so a reload keeps them) and kept
 * current by `POST api/eoi/add-negotiation/` answers and `market.rfq_negotiation` events on the same
 * query key. A load merges into what the key already holds (a step that arrived live while it was in
 * flight is kept). It lives outside the `['market']` prefix so that refetching the runs never touches it.
 */
import type { CounterSchema, NegotiationEventPayloadSchema, NegotiationSchema } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

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
/** How many of the newest negotiations a load brings (the server's page maximum). */
export const NEGOTIATIONS_LOADED = 100;

export interface NegotiationList {
  count: number;
  page: number;
  page_size: number;
  results: Negotiation[];
}

/** GET api/eoi/negotiations/: the firm's negotiations, newest first, with the full counter history. */
export function listNegotiations(signal?: AbortSignal): Promise<NegotiationList> {
  return http.get<NegotiationList>('/api/eoi/negotiations/', {
    query: { page: 1, page_size: NEGOTIATIONS_LOADED },
    ...(signal ? { signal } : {}),
  });
}

function toRecord(negotiation: Negotiation, current: NegotiationRecord | undefined): NegotiationRecord {
  const newer = current !== undefined && current.history.length > negotiation.history.length;
  return {
    id: negotiation.id,
    quote_id: negotiation.quote_id,
    status: newer ? current.status : negotiation.status,
    role: negotiation.role,
    history: newer ? current.history : negotiation.history,
    deal_id: negotiation.deal?.id ?? current?.deal_id ?? null,
    updated_at: newer ? current.updated_at : negotiation.updated_at,
  };
}

/**
 * The loaded list merged into what the key holds: the server's record wins unless the session saw a
 * later step; records the load did not bring (newer than it, or beyond its page) stay. Last change first.
 */
export function mergeLoadedNegotiations(held: readonly NegotiationRecord[], loaded: readonly Negotiation[]): NegotiationRecord[] {
  const byId = new Map(held.map((record) => [record.id, record]));
  for (const negotiation of loaded) byId.set(negotiation.id, toRecord(negotiation, byId.get(negotiation.id)));
  return [...byId.values()].sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
}

export const negotiationsQueryOptions = () =>
  queryOptions({
    queryKey: NEGOTIATIONS_KEY,
    queryFn: async ({ signal, client }) => {
      const list = await listNegotiations(signal);
      return mergeLoadedNegotiations(client.getQueryData<NegotiationRecord[]>(NEGOTIATIONS_KEY) ?? [], list.results);
    },
    // Loaded whenever the workspace mounts (even if a live event filled the key first), then kept live.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
    gcTime: Number.POSITIVE_INFINITY,
  });

const NONE: NegotiationRecord[] = [];

export function useNegotiations() {
  return useQuery(negotiationsQueryOptions()).data ?? NONE;
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
  upsert(queryClient, negotiation.id, (current) => toRecord(negotiation, current));
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
