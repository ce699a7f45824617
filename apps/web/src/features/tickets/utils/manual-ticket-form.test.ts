import { MESSAGES, TICKET_MESSAGES, TRADE_TIME_LATER_MESSAGE } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildManualTicket,
  INITIAL_MANUAL_TICKET,
  manualTicketFieldOf,
  nowInIndia,
  pricingDeltaOf,
  type ManualTicketFormValues,
} from './manual-ticket-form';

const SECOND = '22222222-2222-4222-8222-222222222222';
const DEALER = '55555555-5555-4555-8555-555555555555';
const BROKER_USER = '66666666-6666-4666-8666-666666666666';
// 2026-05-04 11:00 IST.
const NOW = Date.parse('2026-05-04T05:30:00Z');

const filled = (overrides: Partial<ManualTicketFormValues> = {}): ManualTicketFormValues => ({
  ...INITIAL_MANUAL_TICKET,
  bond: { id: 7, label: 'RELIANCE NCD 10-Jun-2027', isin: 'INE002A08534' },
  counterparty: { clientId: SECOND, userId: null, label: 'Second Bank' },
  quantum: '5cr',
  valueText: '7.12',
  ...overrides,
});

describe('the manual ticket payload', () => {
  it('builds the server’s payload: yield % as a fraction, size in rupees, T+1 and NSE by default', () => {
    const built = buildManualTicket(filled(), { perBond: 100_000, now: NOW });
    expect(built).toEqual({
      ok: true,
      payload: {
        finstrument_id: 7,
        buy_or_sell: 'buy',
        counterparty_client_id: SECOND,
        quantum: 50_000_000,
        yield: 0.0712,
        settlement_delta: 1,
        exchange: 'NSE',
      },
    });
  });

  it('sends a price, a dealer, a broker, a settlement date and the trade time when given', () => {
    const built = buildManualTicket(
      filled({
        side: 'sell',
        fixedField: 'price',
        valueText: '100.25',
        counterparty: { clientId: SECOND, userId: DEALER, label: 'Vikram Shah · Second Bank' },
        broker: { clientId: 'b', userId: BROKER_USER, label: 'Meera Iyer · Demo Brokers' },
        settlement: 'date',
        settlementDate: '2026-05-06',
        exchange: 'BSE',
        tradeTime: '10:45',
      }),
      { now: NOW },
    );
    expect(built.ok && built.payload).toEqual({
      finstrument_id: 7,
      buy_or_sell: 'sell',
      counterparty_client_id: SECOND,
      counterparty_user_id: DEALER,
      quantum: 50_000_000,
      price: 100.25,
      settlement_date: '2026-05-06',
      exchange: 'BSE',
      broker_user_id: BROKER_USER,
      trade_time: '10:45',
    });
  });

  it('puts the schema’s messages on the form’s fields', () => {
    const built = buildManualTicket({ ...INITIAL_MANUAL_TICKET }, { now: NOW });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors.bond).toBe('Please choose a bond.');
    expect(built.errors.counterparty).toBe('Please choose a counterparty.');
    expect(built.errors.quantum).toBe(MESSAGES.required);
    expect(built.errors.valueText).toBe(TICKET_MESSAGES.priceOrYieldRequired);
  });

  it('refuses a size that is not a whole number of bonds, a value that is not a number and a price below 1', () => {
    const parts = buildManualTicket(filled({ quantum: '1.5L' }), { perBond: 100_000, now: NOW });
    expect(!parts.ok && parts.errors.quantum).toMatch(/bond/i);
    const text = buildManualTicket(filled({ valueText: 'seven' }), { now: NOW });
    expect(!text.ok && text.errors.valueText).toBe(MESSAGES.shouldBeNumber);
    const low = buildManualTicket(filled({ fixedField: 'price', valueText: '0.5' }), { now: NOW });
    expect(!low.ok && low.errors.valueText).toBeTruthy();
  });

  it('refuses a missing settlement date and a trade time later than now (IST)', () => {
    const noDate = buildManualTicket(filled({ settlement: 'date', settlementDate: '' }), { now: NOW });
    expect(!noDate.ok && noDate.errors.settlementDate).toBe('Please enter a valid date.');
    const later = buildManualTicket(filled({ tradeTime: '11:01' }), { now: NOW });
    expect(!later.ok && later.errors.tradeTime).toBe(TRADE_TIME_LATER_MESSAGE);
    const badTime = buildManualTicket(filled({ tradeTime: '25:00' }), { now: NOW });
    expect(!badTime.ok && badTime.errors.tradeTime).toBe('Please enter valid time in HH:MM 24-hour format');
    expect(buildManualTicket(filled({ tradeTime: '11:00' }), { now: NOW }).ok).toBe(true);
  });

  it('maps server field paths to the form', () => {
    expect(manualTicketFieldOf('counterparty_user_id')).toBe('counterparty');
    expect(manualTicketFieldOf('yield')).toBe('valueText');
    expect(manualTicketFieldOf('settlement_delta')).toBe('settlement');
    expect(manualTicketFieldOf('something_else')).toBe('root');
  });

  it('prices at T+0, T+1, or the weekdays to the chosen date', () => {
    expect(pricingDeltaOf({ settlement: 'T0', settlementDate: '' }, NOW)).toBe(0);
    expect(pricingDeltaOf({ settlement: 'T1', settlementDate: '' }, NOW)).toBe(1);
    expect(pricingDeltaOf({ settlement: 'date', settlementDate: '' }, NOW)).toBe(1);
    expect(pricingDeltaOf({ settlement: 'date', settlementDate: '2026-05-04' }, NOW)).toBe(0);
    expect(pricingDeltaOf({ settlement: 'date', settlementDate: '2026-05-08' }, NOW)).toBe(2);
    expect(nowInIndia(NOW)).toBe('11:00');
  });
});
