/** What makes two requests "the same" for an Idempotency-Key, and which keys are accepted. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import { idempotencyKeyOf, requestHash } from './idempotency';

const request = (body: unknown, extra: Partial<{ params: unknown; query: unknown; headers: Record<string, string> }> = {}) => ({
  params: extra.params ?? {},
  query: extra.query ?? {},
  body,
  headers: extra.headers ?? {},
});

describe('requestHash', () => {
  it('ignores key order and tells bodies, params, queries and routes apart', () => {
    const route = 'POST /api/trade/eoi/';
    const base = requestHash(request({ a: 1, b: { c: [1, 2] } }), route);
    expect(requestHash(request({ b: { c: [1, 2] }, a: 1 }), route)).toBe(base);
    expect(requestHash(request({ a: 1, b: { c: [2, 1] } }), route)).not.toBe(base);
    expect(requestHash(request({ a: 1, b: { c: [1, 2] } }), 'POST /api/eoi/add/')).not.toBe(base);
    expect(requestHash(request({ a: 1, b: { c: [1, 2] } }, { params: { id: 'x' } }), route)).not.toBe(base);
    expect(requestHash(request({ a: 1, b: { c: [1, 2] } }, { query: { lsId: 'y' } }), route)).not.toBe(base);
  });
  it('hashes raw bodies by their bytes and content type', () => {
    const route = 'POST /api/eoi/upload/';
    const csv = requestHash(request(Buffer.from('isin\n'), { headers: { 'content-type': 'text/csv' } }), route);
    expect(requestHash(request(Buffer.from('isin\n'), { headers: { 'content-type': 'text/csv' } }), route)).toBe(csv);
    expect(requestHash(request(Buffer.from('isin \n'), { headers: { 'content-type': 'text/csv' } }), route)).not.toBe(csv);
    expect(requestHash(request(Buffer.from('isin\n'), { headers: { 'content-type': 'image/png' } }), route)).not.toBe(csv);
  });
});

describe('idempotencyKeyOf', () => {
  it('takes 1–100 letters, digits and .:-_ and refuses anything else with a field error', () => {
    expect(idempotencyKeyOf({ headers: {} })).toBeUndefined();
    expect(idempotencyKeyOf({ headers: { 'idempotency-key': 'order:2024-01-01_a.b' } })).toBe('order:2024-01-01_a.b');
    expect(idempotencyKeyOf({ headers: { 'idempotency-key': 'x'.repeat(100) } })).toBe('x'.repeat(100));
    for (const bad of ['', 'x'.repeat(101), 'a b', "k';--", 'é']) {
      let caught: unknown;
      try {
        idempotencyKeyOf({ headers: { 'idempotency-key': bad } });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).status).toBe(400);
      expect((caught as AppError).fieldErrors?.['Idempotency-Key']).toHaveLength(1);
    }
  });
});
