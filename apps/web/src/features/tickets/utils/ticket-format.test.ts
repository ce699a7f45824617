import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@dart/contracts';
import { BROKER, BUYER, makeTicket, SELLER } from './ticket-fixture';
import {
  counterpartyLabel,
  deadlineState,
  myRole,
  needsAction,
  readPricing,
  settlementDeltaOf,
  sideAccepted,
  sortTickets,
  todayInIndia,
} from './ticket-format';

const broker = (buy_or_sell: 'buy' | 'sell') => ({
  client_id: BROKER,
  name: 'Demo Brokers',
  user_id: null,
  user_name: null,
  nsccl_code: null,
  iccl_code: null,
  buy_or_sell,
  brokerage: null,
});

describe('whose ticket it is', () => {
  it('names the firm a principal first, then a broker with the side it works', () => {
    const ticket = makeTicket({ broker_details: [broker('buy')] });
    expect(myRole(ticket, SELLER)).toBe('seller');
    expect(myRole(ticket, BUYER)).toBe('buyer');
    expect(myRole(ticket, BROKER)).toBe('buyer_broker');
    expect(myRole(makeTicket({ broker_details: [broker('sell')] }), BROKER)).toBe('seller_broker');
    expect(myRole(ticket, 'someone-else')).toBeNull();
  });

  it('shows a principal the other principal, and a broker both, seller first', () => {
    const ticket = makeTicket({ broker_details: [broker('sell')] });
    expect(counterpartyLabel(ticket, SELLER)).toBe('Second Bank');
    expect(counterpartyLabel(ticket, BUYER)).toBe('Demo Capital');
    expect(counterpartyLabel(ticket, BROKER)).toBe('Demo Capital → Second Bank');
  });

  it('reads a side as accepted from its principal’s acceptance, for brokers too', () => {
    const ticket = makeTicket({
      state: 'priced',
      buyer_acceptance: { accepted_at: '2026-05-04T05:03:00Z', accepted_by: 'Asha', custodian_id: null, custodian_name: 'HDFC Bank' },
    });
    expect(sideAccepted(ticket, 'buyer')).toBe(true);
    expect(sideAccepted(ticket, 'buyer_broker')).toBe(true);
    expect(sideAccepted(ticket, 'seller')).toBe(false);
    expect(sideAccepted(ticket, null)).toBe(false);
  });
});

describe('tickets needing my action', () => {
  it('counts send, accept consideration and the price of a ticket awaiting it, not the actions open all along', () => {
    expect(needsAction(makeTicket({ state: 'draft', my_actions: ['send', 'edit', 'cancel'] }))).toBe(true);
    expect(needsAction(makeTicket({ state: 'sent', my_actions: ['price', 'edit'] }))).toBe(true);
    expect(needsAction(makeTicket({ state: 'priced', my_actions: ['accept_consideration', 'price'] }))).toBe(true);
    expect(needsAction(makeTicket({ state: 'priced', my_actions: ['price', 'edit', 'members', 'cancel'] }))).toBe(false);
    expect(needsAction(makeTicket({ state: 'sent', my_actions: ['reject', 'send_to_broker', 'brokerage'] }))).toBe(false);
    expect(needsAction(makeTicket({ state: 'reporting', my_actions: [] }))).toBe(false);
  });

  it('sorts tickets needing my action first, then by the reporting deadline, then newest first', () => {
    const waiting = makeTicket({ number: 'TKT-000001', report_deadline: '2026-05-04T05:10:00Z', my_actions: ['edit'] });
    const mine = makeTicket({ number: 'TKT-000002', report_deadline: '2026-05-04T05:30:00Z', my_actions: ['price'] });
    const soon = makeTicket({ number: 'TKT-000003', report_deadline: '2026-05-04T05:05:00Z', my_actions: [] });
    const sameDeadlineOlder = makeTicket({ number: 'TKT-000004', report_deadline: '2026-05-04T05:20:00Z' });
    const sameDeadlineNewer = makeTicket({ number: 'TKT-000005', report_deadline: '2026-05-04T05:20:00Z' });
    const sorted = sortTickets([waiting, sameDeadlineOlder, soon, mine, sameDeadlineNewer]).map((t) => t.number);
    expect(sorted).toEqual(['TKT-000002', 'TKT-000003', 'TKT-000001', 'TKT-000005', 'TKT-000004']);
  });

  it('does not reorder the list it is given', () => {
    const list = [makeTicket({ number: 'TKT-000001' }), makeTicket({ number: 'TKT-000002', my_actions: ['send'], state: 'draft' })];
    sortTickets(list);
    expect(list.map((t) => t.number)).toEqual(['TKT-000001', 'TKT-000002']);
  });
});

describe('the reporting countdown', () => {
  const deadline = '2026-05-04T05:15:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts down in minutes and seconds, red under five minutes', () => {
    expect(deadlineState(deadline, at('2026-05-04T05:02:30.000Z'))).toEqual({ label: '12:30', urgent: false, overdue: false });
    expect(deadlineState(deadline, at('2026-05-04T05:10:00.500Z'))).toEqual({ label: '5:00', urgent: true, overdue: false });
  });

  it('says Overdue with the time past the deadline', () => {
    expect(deadlineState(deadline, at('2026-05-04T05:15:41.000Z'))).toEqual({ label: 'Overdue 0:41', urgent: true, overdue: true });
    expect(deadlineState(deadline, at('2026-05-04T06:16:02.000Z')).label).toBe('Overdue 1:01:02');
  });
});

describe('settlement and pricing inputs', () => {
  it('counts T+n in weekdays from today, at most T+2', () => {
    expect(settlementDeltaOf('2026-05-04', '2026-05-04')).toBe(0);
    expect(settlementDeltaOf('2026-05-05', '2026-05-04')).toBe(1);
    // Friday → Monday is one weekday.
    expect(settlementDeltaOf('2026-05-11', '2026-05-08')).toBe(1);
    expect(settlementDeltaOf('2026-05-20', '2026-05-04')).toBe(2);
    expect(settlementDeltaOf('2026-05-01', '2026-05-04')).toBe(0);
  });

  it('takes today in India (IST, UTC+5:30)', () => {
    expect(todayInIndia(Date.parse('2026-05-04T18:29:00Z'))).toBe('2026-05-04');
    expect(todayInIndia(Date.parse('2026-05-04T18:31:00Z'))).toBe('2026-05-05');
  });

  it('reads a yield in % as a fraction and a price as it is, with the spec’s messages', () => {
    expect(readPricing('yield', '7.12')).toEqual({ value: 0.0712 });
    expect(readPricing('yield', '7.12 %')).toEqual({ value: 0.0712 });
    expect(readPricing('price', '100.25')).toEqual({ value: 100.25 });
    expect(readPricing('price', '')).toEqual({ message: MESSAGES.priceRequired });
    expect(readPricing('yield', ' ')).toEqual({ message: MESSAGES.yieldRequired });
    expect(readPricing('price', '1o0')).toEqual({ message: MESSAGES.shouldBeNumber });
  });
});
