import { describe, expect, it } from 'vitest';
import { hasContractNote, orderActions, orderResource, settlementStatus, STATE_TABS } from './order-format';

describe('order actions by state', () => {
  it('lets a trader accept or reject a reported trade not yet answered, and cancel it', () => {
    expect(orderActions({ state: 'reported', reported_order_status: null })).toEqual(['accept', 'reject', 'cancel']);
    expect(orderActions({ state: 'reported', reported_order_status: 'ACCEPTED' })).toEqual(['cancel']);
  });

  it('lets a trader cancel a trade not yet matched at the venue', () => {
    expect(orderActions({ state: 'reporting', reported_order_status: null })).toEqual(['cancel']);
    expect(orderActions({ state: 'mismatch', reported_order_status: null })).toEqual(['cancel']);
  });

  it('offers a failed settlement a retry or a cancel, and nothing on final states', () => {
    expect(orderActions({ state: 'failed', reported_order_status: 'ACCEPTED' })).toEqual(['settle', 'settle_cancel']);
    for (const state of ['settled', 'cancelled', 'rejected', 'accepted'] as const)
      expect(orderActions({ state, reported_order_status: 'ACCEPTED' })).toEqual([]);
  });

  it('has a contract note for every trade not called off', () => {
    expect(hasContractNote({ state: 'settled' })).toBe(true);
    expect(hasContractNote({ state: 'failed' })).toBe(true);
    expect(hasContractNote({ state: 'cancelled' })).toBe(false);
    expect(hasContractNote({ state: 'rejected' })).toBe(false);
  });

  it('calls each kind on its own resource', () => {
    expect(orderResource('order')).toBe('orders');
    expect(orderResource('procurement')).toBe('procurement-orders');
  });
});

describe('settlement in words', () => {
  const base = { settlement_date: '2026-05-05', clearing_corporation: 'NSCCL' as const, reason: null };

  it('names the clearing corporation and the failure’s reason', () => {
    expect(settlementStatus({ ...base, state: 'settled' })).toBe('Settled DVP-I at NSCCL.');
    expect(settlementStatus({ ...base, state: 'failed', reason: 'Shortage of funds at pay-in' })).toBe(
      'Settlement failed at NSCCL: Shortage of funds at pay-in',
    );
    expect(settlementStatus({ ...base, state: 'mismatch', reason: 'Price differs' })).toBe(
      'The exchange refused the report: Price differs',
    );
    expect(settlementStatus({ ...base, state: 'accepted' })).toMatch(/^Settles .* at NSCCL\.$/);
  });

  it('lists every state once in the tabs, after All', () => {
    expect(STATE_TABS[0]).toEqual({ value: 'all', label: 'All' });
    expect(new Set(STATE_TABS.map((tab) => tab.value)).size).toBe(9);
  });
});
