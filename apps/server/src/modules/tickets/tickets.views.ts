/**
 * Tickets (and the orders of a confirmed one) as one participant sees them: names of the firms, dealers,
 * brokers and custodians, the consideration in rupees to the paisa, the reader's `buy_or_sell` (spec §3 rule)
 * and `my_actions`, and the stamped history. Lists are batched (one query per kind of name).
 */
import {
  TICKET_HISTORY_LABELS,
  TICKET_STATE_LABELS,
  ticketNumber,
  type Order,
  type OrderKind,
  type Ticket,
  type TicketBroker,
  type TicketHistoryAction,
  type TicketHistoryEntry,
  type TicketParty,
  type TicketSource,
  type TicketState,
} from '@dart/contracts';
import type { DbOrTx } from '../../db/client';
import { perBondOf } from '../market';
import { considerationOf, reportDeadline, toOrder } from '../orders/orders.views';
import type { TicketRow } from './ticket-transitions';
import { createTicketsRepository, type OrderRow, type ViewIds, type ViewNames } from './tickets.repository';
import { isPriceSetter, myActions, type TicketReader } from './tickets.roles';

interface Names extends ViewNames {
  orders: Map<string, OrderRow[]>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const rupees = (paise: number | null) => (paise === null ? null : paise / 100);
const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** The ids the views of `rows` name: bonds, firms, users, and the custodians of the tickets and of `orderRows`. */
export function viewIdsOf(rows: readonly TicketRow[], orderRows: readonly OrderRow[]): ViewIds {
  return {
    bonds: rows.map((t) => t.finstrumentId),
    firms: rows.flatMap((t) => [t.buyerClientId, t.sellerClientId, t.buyerBrokerClientId, t.sellerBrokerClientId]).filter(present),
    users: rows
      .flatMap((t) => [t.buyerUserId, t.sellerUserId, t.buyerBrokerUserId, t.sellerBrokerUserId, t.buyerAcceptedBy, t.sellerAcceptedBy])
      .filter(present),
    custodians: [...rows.flatMap((t) => [t.buyerCustodianId, t.sellerCustodianId]), ...orderRows.map((o) => o.custodianId)].filter(present),
  };
}

export function createTicketViews(db: DbOrTx, productName: string) {
  const repo = createTicketsRepository(db);

  /**
   * The names of the views, and ticket `withHistory`'s history, in one statement (unless `known`: read by the
   * caller's own statement); the orders of confirmed tickets in a second.
   */
  async function namesFor(
    rows: readonly TicketRow[],
    withHistory: string | null = null,
    knownOrders?: readonly OrderRow[],
    known?: ViewNames,
  ): Promise<Names> {
    const confirmed = rows.filter((t) => t.confirmedAt).map((t) => t.id);
    const orderRows = knownOrders ?? (confirmed.length ? await repo.ordersOf(confirmed) : []);
    const names = known ?? (await repo.viewNames(viewIdsOf(rows, orderRows), withHistory));
    const orders = new Map<string, OrderRow[]>();
    for (const o of orderRows) orders.set(o.ticketId, [...(orders.get(o.ticketId) ?? []), o]);
    return { ...names, orders };
  }

  function party(names: Names, clientId: string, userId: string | null): TicketParty {
    const firm = names.firms.get(clientId);
    return {
      client_id: clientId,
      name: firm?.name ?? '',
      user_id: userId,
      user_name: userId ? (names.users.get(userId) ?? null) : null,
      nsccl_code: firm?.nscclName ?? null,
      iccl_code: firm?.icclName ?? null,
    };
  }

  function view(t: TicketRow, names: Names, reader: TicketReader): Ticket {
    const bond = names.bonds.get(t.finstrumentId);
    const brokers: TicketBroker[] = [];
    if (t.buyerBrokerClientId)
      brokers.push({
        ...party(names, t.buyerBrokerClientId, t.buyerBrokerUserId),
        buy_or_sell: 'buy',
        brokerage: rupees(t.buyerBrokeragePaise),
      });
    if (t.sellerBrokerClientId)
      brokers.push({
        ...party(names, t.sellerBrokerClientId, t.sellerBrokerUserId),
        buy_or_sell: 'sell',
        brokerage: rupees(t.sellerBrokeragePaise),
      });
    const acceptance = (at: Date | null, by: string | null, custodianId: string | null) => ({
      accepted_at: iso(at),
      accepted_by: by ? (names.users.get(by) ?? null) : null,
      custodian_id: custodianId,
      custodian_name: custodianId ? (names.custodians.get(custodianId) ?? null) : null,
    });
    const orders = names.orders.get(t.id) ?? [];
    return {
      id: t.id,
      number: ticketNumber(t.number),
      deal_id: t.dealId,
      source: t.source as TicketSource,
      state: t.state as TicketState,
      state_label: TICKET_STATE_LABELS[t.state as TicketState],
      version: t.version,
      finstrument_id: t.finstrumentId,
      isin: bond?.isin ?? '',
      bond_name: bond?.displayName ?? '',
      security_type: bond?.securityType ?? null,
      buy_or_sell: isPriceSetter(t, reader) ? 'sell' : 'buy',
      buyer_details: party(names, t.buyerClientId, t.buyerUserId),
      seller_details: party(names, t.sellerClientId, t.sellerUserId),
      broker_details: brokers,
      price: t.price,
      yield: t.yieldFraction,
      quantum: t.quantum,
      face_value_per_bond: bond ? perBondOf(bond) : 0,
      settlement_date: t.settlementDate,
      exchange: t.exchange as 'NSE' | 'BSE',
      clearing_corporation: t.clearingCorporation as 'NSCCL' | 'ICCL',
      consideration: considerationOf(t, bond ? perBondOf(bond) : 0),
      buyer_acceptance: acceptance(t.buyerAcceptedAt, t.buyerAcceptedBy, t.buyerCustodianId),
      seller_acceptance: acceptance(t.sellerAcceptedAt, t.sellerAcceptedBy, t.sellerCustodianId),
      price_confirmed_at: iso(t.priceConfirmedAt),
      traded_at: t.tradedAt.toISOString(),
      report_deadline: reportDeadline(t.tradedAt).toISOString(),
      report_alert: (t.reportAlert as 'alert' | 'escalated' | null) ?? null,
      reason: t.reason,
      my_actions: myActions(t, reader),
      order_ids: {
        order: orders.find((o) => o.kind === 'order')?.id ?? null,
        procurement: orders.find((o) => o.kind === 'procurement')?.id ?? null,
      },
      created_at: t.createdAt.toISOString(),
      updated_at: t.updatedAt.toISOString(),
    };
  }

  function historyOf(names: Names): TicketHistoryEntry[] {
    return names.history.map((h) => ({
      seq: h.seq,
      action: h.action as TicketHistoryAction,
      label: TICKET_HISTORY_LABELS[h.action as TicketHistoryAction] ?? h.action,
      from_state: (h.fromState as TicketState | null) ?? null,
      to_state: h.toState as TicketState,
      actor_name: h.actorName ?? productName,
      actor_firm: h.actorFirm ?? null,
      // PostgreSQL's JSON text of the timestamp (microseconds, +00:00), read as the driver reads a column.
      at: new Date(h.at).toISOString(),
      changes: (h.changes as Record<string, unknown> | null) ?? null,
      reason: h.reason,
    }));
  }

  /** The order or procurement order of a confirmed ticket, as a participant of the trade sees it (the orders module's view). */
  function orderView(o: OrderRow, t: TicketRow, names: Names): Order {
    const bond = names.bonds.get(t.finstrumentId);
    return toOrder({
      order: o,
      ticketNumber: t.number,
      isin: bond?.isin ?? '',
      bondName: bond?.displayName ?? '',
      securityType: bond?.securityType ?? '',
      faceValue: bond?.faceValue ?? null,
      clientName: names.firms.get(o.clientId)?.name ?? '',
      counterpartyName: names.firms.get(o.counterpartyClientId)?.name ?? '',
      custodianName: o.custodianId ? (names.custodians.get(o.custodianId) ?? null) : null,
    });
  }

  return {
    async many(rows: readonly TicketRow[], reader: TicketReader): Promise<Ticket[]> {
      if (rows.length === 0) return [];
      const names = await namesFor(rows);
      return rows.map((t) => view(t, names, reader));
    },
    /**
     * `orders`: the ticket's orders when the caller has them (booked in its transaction), not read again;
     * `names`: what the view names with its history, when the caller's statement answered them (`viewNamesColumns`).
     */
    async one(t: TicketRow, reader: TicketReader, withHistory = true, orders?: readonly OrderRow[], names?: ViewNames): Promise<Ticket> {
      const named = await namesFor([t], withHistory ? t.id : null, orders, names);
      return { ...view(t, named, reader), ...(withHistory ? { history: historyOf(named) } : {}) };
    },
    /** `GET api/chatter/trade/confirmed-trade/{id}/`: the confirmed ticket with both custodians and orders. */
    async confirmed(t: TicketRow, reader: TicketReader) {
      const names = await namesFor([t], t.id);
      const orders = names.orders.get(t.id) ?? [];
      const of = (kind: OrderKind) => {
        const o = orders.find((row) => row.kind === kind);
        return o ? orderView(o, t, names) : null;
      };
      return {
        ticket: { ...view(t, names, reader), history: historyOf(names) },
        confirmed_at: t.confirmedAt!.toISOString(),
        buyer_custodian: t.buyerCustodianId ? (names.custodians.get(t.buyerCustodianId) ?? '') : '',
        seller_custodian: t.sellerCustodianId ? (names.custodians.get(t.sellerCustodianId) ?? '') : '',
        order: of('order'),
        procurement_order: of('procurement'),
      };
    },
  };
}
export type TicketViews = ReturnType<typeof createTicketViews>;
