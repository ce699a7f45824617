import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  applyNegotiationEvent,
  isMyTurn,
  mergeLoadedNegotiations,
  NEGOTIATIONS_KEY,
  rememberNegotiation,
  type NegotiationRecord,
} from './negotiations-store';

const NEGOTIATION_ID = '00000000-0000-4000-8000-000000000001';
const QUOTE_ID = '00000000-0000-4000-8000-000000000002';
const counter = {
  action: 'counter' as const,
  by_client: 'responder' as const,
  by_user_id: 'u-second',
  at: '2026-11-22T06:00:00.000Z',
  unit_price_stored: 99.81,
  yield_stored: 0.0795,
  quantum: 1000,
};

const records = (client: QueryClient) => client.getQueryData<NegotiationRecord[]>(NEGOTIATIONS_KEY) ?? [];

describe('negotiations kept from answers and live events', () => {
  it('makes the quote owner the quoter on a counter seen only live, with their turn to answer', () => {
    const client = new QueryClient();
    applyNegotiationEvent(client, { negotiation_id: NEGOTIATION_ID, quote_id: QUOTE_ID, status: 'open', last: counter }, 'u-demo');
    const [record] = records(client);
    expect(record).toMatchObject({ role: 'quoter', status: 'open', history: [counter] });
    expect(isMyTurn(record!)).toBe(true);
  });

  it('does not append the same step twice when the answer and the event both arrive', () => {
    const client = new QueryClient();
    rememberNegotiation(client, {
      id: NEGOTIATION_ID,
      quote_id: QUOTE_ID,
      finstrument_id: 7,
      status: 'open',
      role: 'responder',
      history: [counter],
      deal: null,
      created_at: counter.at,
      updated_at: counter.at,
    });
    applyNegotiationEvent(client, { negotiation_id: NEGOTIATION_ID, quote_id: QUOTE_ID, status: 'open', last: counter }, 'u-second');
    const [record] = records(client);
    expect(record!.history).toHaveLength(1);
    expect(record!.role).toBe('responder');
    expect(isMyTurn(record!)).toBe(false);
  });

  it('merges a load into the key: the server record wins unless a later step was seen live; others stay', () => {
    const client = new QueryClient();
    const answer = { ...counter, by_client: 'quoter' as const, by_user_id: 'u-demo', at: '2026-11-22T06:05:00.000Z', yield_stored: 0.079 };
    applyNegotiationEvent(client, { negotiation_id: NEGOTIATION_ID, quote_id: QUOTE_ID, status: 'open', last: counter }, 'u-demo');
    applyNegotiationEvent(client, { negotiation_id: NEGOTIATION_ID, quote_id: QUOTE_ID, status: 'open', last: answer }, 'u-demo');
    const other = '00000000-0000-4000-8000-000000000003';
    const loaded = [
      {
        id: NEGOTIATION_ID,
        quote_id: QUOTE_ID,
        finstrument_id: 7,
        status: 'open' as const,
        role: 'quoter' as const,
        history: [counter],
        deal: null,
        created_at: counter.at,
        updated_at: counter.at,
      },
      {
        id: other,
        quote_id: QUOTE_ID,
        finstrument_id: 7,
        status: 'rejected' as const,
        role: 'quoter' as const,
        history: [counter],
        deal: null,
        created_at: '2026-11-22T05:00:00.000Z',
        updated_at: '2026-11-22T05:00:00.000Z',
      },
    ];
    const merged = mergeLoadedNegotiations(records(client), loaded);
    expect(merged.map((record) => record.id)).toEqual([NEGOTIATION_ID, other]);
    expect(merged[0]!.history).toEqual([counter, answer]);
    expect(merged[1]).toMatchObject({ status: 'rejected', role: 'quoter' });
  });
});
