/** A ticket as the server sends it, for the unit tests beside (not used by the app). */
import type { Ticket } from '@dart/contracts';

export const SELLER = '11111111-1111-4111-8111-111111111111';
export const BUYER = '22222222-2222-4222-8222-222222222222';
export const BROKER = '33333333-3333-4333-8333-333333333333';

const party = (client_id: string, name: string) => ({ client_id, name, user_id: null, user_name: null, nsccl_code: null, iccl_code: null });

export function makeTicket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    number: 'TKT-000001',
    deal_id: null,
    source: 'negotiation',
    state: 'sent',
    state_label: 'Awaiting price',
    version: 1,
    finstrument_id: 7,
    isin: 'INE002A08534',
    bond_name: 'RELIANCE NCD 10-Jun-2027',
    security_type: 'Bond/NCD',
    buy_or_sell: 'sell',
    buyer_details: party(BUYER, 'Second Bank'),
    seller_details: party(SELLER, 'Demo Capital'),
    broker_details: [],
    price: 100.25,
    yield: 0.0712,
    quantum: 50_000_000,
    face_value_per_bond: 100_000,
    settlement_date: '2026-05-05',
    exchange: 'NSE',
    clearing_corporation: 'NSCCL',
    consideration: {
      face_value: 50_000_000,
      bonds: 500,
      clean_price: 100.25,
      accrued_days: 12,
      accrued_interest: 117_041.1,
      principal: 50_125_000,
      consideration: 50_242_041.1,
      stamp_duty: 50.24,
      buyer_pays: 50_242_091.34,
      seller_receives: 50_242_041.1,
    },
    buyer_acceptance: { accepted_at: null, accepted_by: null, custodian_id: null, custodian_name: null },
    seller_acceptance: { accepted_at: null, accepted_by: null, custodian_id: null, custodian_name: null },
    price_confirmed_at: null,
    traded_at: '2026-05-04T05:00:00.000Z',
    report_deadline: '2026-05-04T05:15:00.000Z',
    report_alert: null,
    reason: null,
    my_actions: [],
    order_ids: { order: null, procurement: null },
    created_at: '2026-05-04T05:00:00.000Z',
    updated_at: '2026-05-04T05:00:00.000Z',
    ...overrides,
  };
}
