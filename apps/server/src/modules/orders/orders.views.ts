/** What a firm sees of its order or procurement order (contracts `OrderSchema`): rupees on the wire, paise inside. */
import {
  ORDER_STATE_LABELS,
  POST_TRADE_TOPICS,
  orderNumber,
  REPORTING_DEADLINE_MINUTES,
  ticketNumber,
  type Order,
  type OrderKind,
  type OrderState,
  type ReportedOrderStatus,
  type TicketConsideration,
} from '@dart/contracts';
import type { DomainEvent } from '../../lib/events';
import { perBondOf } from '../market';
import { ticketParticipants, type TicketRow } from '../tickets/ticket-transitions';
import type { OrderRow, OrderView } from './orders.repository';

export const reportDeadline = (tradedAt: Date) => new Date(tradedAt.getTime() + REPORTING_DEADLINE_MINUTES * 60_000);

/**
 * The money of a ticket or an order in rupees to the paisa (bond-math's integer paise ÷ 100); `perBond` 0 (the
 * bond is unknown) counts no bonds.
 */
export function considerationOf(
  order: Pick<
    OrderRow,
    'quantum' | 'price' | 'accruedDays' | 'accruedInterestPaise' | 'principalPaise' | 'considerationPaise' | 'stampDutyPaise'
  >,
  perBond: number,
): TicketConsideration {
  return {
    face_value: order.quantum,
    bonds: perBond > 0 ? Math.round(order.quantum / perBond) : 0,
    clean_price: order.price,
    accrued_days: order.accruedDays,
    accrued_interest: order.accruedInterestPaise / 100,
    principal: order.principalPaise / 100,
    consideration: order.considerationPaise / 100,
    stamp_duty: order.stampDutyPaise / 100,
    buyer_pays: (order.considerationPaise + order.stampDutyPaise) / 100,
    seller_receives: order.considerationPaise / 100,
  };
}

export function toOrder(view: OrderView): Order {
  const o = view.order;
  const kind = o.kind as OrderKind;
  const state = o.state as OrderState;
  return {
    id: o.id,
    kind,
    number: orderNumber(kind, o.number),
    ticket_id: o.ticketId,
    ticket_number: ticketNumber(view.ticketNumber),
    state,
    state_label: ORDER_STATE_LABELS[state],
    reported_order_status: o.reportedOrderStatus as ReportedOrderStatus | null,
    version: o.version,
    finstrument_id: o.finstrumentId,
    isin: view.isin,
    bond_name: view.bondName,
    buy_or_sell: kind === 'order' ? 'sell' : 'buy',
    counterparty_name: view.counterpartyName,
    price: o.price,
    yield: o.yieldFraction,
    quantum: o.quantum,
    settlement_date: o.settlementDate,
    trade_date: o.tradeDate,
    exchange: o.exchange as Order['exchange'],
    clearing_corporation: o.clearingCorporation as Order['clearing_corporation'],
    consideration: considerationOf(o, perBondOf(view)),
    custodian_name: view.custodianName,
    exchange_trade_id: o.exchangeTradeId,
    reported_at: o.reportedAt?.toISOString() ?? null,
    settled_at: o.settledAt?.toISOString() ?? null,
    reason: o.reason,
    report_deadline: reportDeadline(o.tradedAt).toISOString(),
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

/**
 * The live payload of `trade.open_orders` (ids and state only: names stay behind the firm's own GET). `client_id`:
 * the firm whose order it is (the bell tells only that firm; every participant's screens refresh).
 */
const openOrdersPayload = (ticketId: string, o: Pick<OrderRow, 'id' | 'kind' | 'state' | 'clientId'>) => ({
  order_id: o.id,
  ticket_id: ticketId,
  kind: o.kind,
  state: o.state,
  client_id: o.clientId,
});

/** `trade.open_orders` of each of the ticket's `rows` to each participant firm of the ticket. */
export const openOrdersEvents = (
  ticket: TicketRow,
  rows: ReadonlyArray<Pick<OrderRow, 'id' | 'kind' | 'state' | 'clientId'>>,
): DomainEvent[] =>
  rows.flatMap((row) =>
    ticketParticipants(ticket).map((clientId) => ({
      topic: POST_TRADE_TOPICS.openOrders,
      clientId,
      payload: openOrdersPayload(ticket.id, row),
    })),
  );
