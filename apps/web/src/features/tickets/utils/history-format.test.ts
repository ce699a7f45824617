import type { TicketHistoryEntry } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { describeChanges, sortHistory, stampColor, stampLabel, stateMove } from './history-format';

const entry = (overrides: Partial<TicketHistoryEntry>): TicketHistoryEntry => ({
  seq: 1,
  action: 'created',
  label: 'Received',
  from_state: null,
  to_state: 'sent',
  actor_name: 'Asha Rao',
  actor_firm: 'Demo Capital',
  at: '2026-05-04T05:00:00.000Z',
  changes: null,
  reason: null,
  ...overrides,
});

describe('history stamps', () => {
  it('stamps each action with the Bloomberg-style label of the contracts', () => {
    expect(stampLabel(entry({ action: 'created' }))).toBe('Received');
    expect(stampLabel(entry({ action: 'price', label: 'whatever' }))).toBe('Quoted');
    expect(stampLabel(entry({ action: 'accept_consideration' }))).toBe('Consideration accepted');
    expect(stampLabel(entry({ action: 'confirmed' }))).toBe('Final');
    expect(stampLabel(entry({ action: 'reported' }))).toBe('Reported');
    expect(stampLabel(entry({ action: 'settled' }))).toBe('Settled');
  });

  it('colours the steps that complete a trade green and the ones that end it red', () => {
    expect(stampColor('confirmed')).toBe('teal');
    expect(stampColor('settled')).toBe('teal');
    expect(stampColor('reject')).toBe('red');
    expect(stampColor('settlement_failed')).toBe('red');
    expect(stampColor('report_alert')).toBe('orange');
    expect(stampColor('edit')).toBe('gray');
  });

  it('names a state move, and nothing for a change within a state or the creation', () => {
    expect(stateMove(entry({ from_state: 'priced', to_state: 'reporting' }))).toBe('Priced → Reporting');
    expect(stateMove(entry({ from_state: 'priced', to_state: 'priced' }))).toBeNull();
    expect(stateMove(entry({ from_state: null, to_state: 'draft' }))).toBeNull();
  });

  it('orders the stamps by the server’s sequence, oldest first', () => {
    const sorted = sortHistory([entry({ seq: 3 }), entry({ seq: 1 }), entry({ seq: 2 })]);
    expect(sorted.map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});

describe('what changed', () => {
  it('writes [old, new] and { from, to } pairs in the market’s formats', () => {
    expect(
      describeChanges({
        price: [99.5, 100.25],
        yield: { from: 0.0725, to: 0.0712 },
        quantum: [50_000_000, 10_000_000],
        consideration: [1_23_45_678.9, 1_00_00_000],
      }),
    ).toEqual([
      'Price 99.5000 → 100.2500',
      'Yield 7.2500% → 7.1200%',
      'Face value ₹5 Cr → ₹1 Cr',
      'Consideration ₹1,23,45,678.90 → ₹1,00,00,000.00',
    ]);
  });

  it('writes a set value as it is, names unknown fields in words and leaves ids and the version out', () => {
    expect(
      describeChanges({
        custodian_name: 'HDFC Bank',
        custodian_id: 'c1',
        version: 4,
        exchange_trade_id: 'NSE-1',
        side: 'buy',
        odd_field: null,
      }),
    ).toEqual(['Custodian HDFC Bank', 'Exchange trade id NSE-1', 'Side buy', 'Odd field —']);
    expect(describeChanges(null)).toEqual([]);
  });
});
