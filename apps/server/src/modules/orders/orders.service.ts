/**
 * The firm's calls on its orders (the seller's side of a confirmed ticket) and procurement orders (the
 * buyer's): read, list, report now / re-report, modify before the match, accept or reject the reported trade,
 * cancel, and retry or cancel a failed settlement. Each check runs on the locked rows inside the write's one
 * transaction (with its audit rows and live events); a call the order's state does not allow is 409 naming the
 * state; another firm's order is 404. Calls that need the venue ask it first: a refusal changes nothing (503).
 */
import {
  ORDER_EXPORT_MAX_ROWS,
  ORDER_MESSAGES,
  ORDER_PAGE_SIZE_MAX,
  quantumError,
  TICKET_MESSAGES,
  EXCHANGE_MESSAGES,
  type Order,
  type OrderKind,
  type OrderState,
  type OrderUnifiedQuery,
  type ReportedOrderStatus,
} from '@dart/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { custodians, orders, tickets } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import type { Principal } from '../auth/principal';
import { ExchangeUnavailableError, type ExchangeName, type TradeSettlement } from '../exchange';
import { ticketParticipants } from '../tickets/ticket-transitions';
import type { OrderSettledHook, OrdersContext } from './orders.context';
import type { OrderReporter } from './orders.reporting';
import { rfqTradeOf } from './orders.rfq';
import { renderContractNote } from './orders.documents';
import { createOrdersRepository, type OrderListFilters, type OrderRow, type OrderView } from './orders.repository';
import { cancelTrade, CANCELLABLE, emitOrders, markSettlement, ticketOf, type Emit } from './orders.transitions';
import { perBondOf } from '../market';
import { toOrder } from './orders.views';

const notFound = () => new AppError('NOT_FOUND', ORDER_MESSAGES.notFound);
const notAllowed = (state: string, action: string) => new AppError('CONFLICT', ORDER_MESSAGES.notAllowed(state as OrderState, action));

export interface ModifyInput {
  version: number;
  price?: number | undefined;
  quantum?: number | undefined;
  settlement_date?: string | undefined;
  custodian_id?: string | undefined;
}

export function createOrdersService(ctx: OrdersContext, reporter: Pick<OrderReporter, 'reportNow'>) {
  const db = ctx.deps.database.db;

  async function view(principal: Principal, kind: OrderKind, id: string): Promise<OrderView> {
    const found = await createOrdersRepository(db).findView(id, { clientId: principal.clientId, kind });
    if (!found) throw notFound();
    return found;
  }

  /**
   * The caller's order among the ticket's locked orders: 404 unless it is the firm's and of this kind; 409 on a
   * stale version or a state the action is not allowed in.
   */
  async function lockMine(
    tx: Tx,
    principal: Principal,
    kind: OrderKind,
    id: string,
    check: { version?: number; states: readonly OrderState[]; action: string },
  ): Promise<OrderRow> {
    const [probe] = await tx.select({ ticketId: orders.ticketId }).from(orders).where(eq(orders.id, id));
    if (!probe) throw notFound();
    const mine = (await createOrdersRepository(tx).lockTicketOrders(tx, probe.ticketId)).find((o) => o.id === id);
    if (!mine || mine.clientId !== principal.clientId || mine.kind !== kind) throw notFound();
    if (check.version !== undefined && check.version !== mine.version) throw new AppError('CONFLICT', ORDER_MESSAGES.staleVersion);
    if (!check.states.includes(mine.state as OrderState)) throw notAllowed(mine.state, check.action);
    return mine;
  }

  /** A venue call made by a user: an outage is 503 and nothing changed. */
  async function atVenue<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ExchangeUnavailableError) throw new AppError('SERVICE_UNAVAILABLE', EXCHANGE_MESSAGES.unavailable);
      throw error;
    }
  }

  /** Cancels the trade at the venue (a settled trade cannot be: 409). */
  async function cancelAtVenue(order: OrderRow, reason: string): Promise<void> {
    const { status } = await atVenue(() =>
      ctx.gateway.cancelTrade({ exchange: order.exchange as ExchangeName, ticketId: order.ticketId, reason }),
    );
    if (status === 'settled') throw new AppError('CONFLICT', ORDER_MESSAGES.alreadySettled);
  }

  async function reread(principal: Principal, kind: OrderKind, id: string): Promise<Order> {
    return toOrder(await view(principal, kind, id));
  }

  /** Puts an order due for a report now (a modify or a re-report) and reports it at once. */
  async function reportSoon(principal: Principal, kind: OrderKind, id: string): Promise<Order> {
    await reporter.reportNow(id);
    return reread(principal, kind, id);
  }

  return {
    async get(principal: Principal, kind: OrderKind, id: string): Promise<Order> {
      return toOrder(await view(principal, kind, id));
    },

    async list(principal: Principal, query: OrderUnifiedQuery) {
      const pageSize = query.paginate ? query.page_size : ORDER_PAGE_SIZE_MAX;
      const page = query.paginate ? query.page : 1;
      const { count, rows } = await createOrdersRepository(db).list(principal.clientId, query, {
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { count, page, page_size: pageSize, results: rows.map(toOrder) };
    },

    /** The firm's filtered blotter for an export (400 above `ORDER_EXPORT_MAX_ROWS`). */
    async exportRows(principal: Principal, query: OrderListFilters): Promise<Order[]> {
      const { count, rows } = await createOrdersRepository(db).list(principal.clientId, query, { limit: ORDER_EXPORT_MAX_ROWS, offset: 0 });
      if (count > ORDER_EXPORT_MAX_ROWS) throw new AppError('BAD_REQUEST', ORDER_MESSAGES.exportTooLarge);
      return rows.map(toOrder);
    },

    /** The contract note of a reported trade (PDF); 409 before the venue has matched it. */
    async contractNote(principal: Principal, kind: OrderKind, id: string): Promise<{ filename: string; body: Buffer }> {
      const found = await view(principal, kind, id);
      if (!found.order.exchangeTradeId) throw notAllowed(found.order.state, 'contract note');
      const parties = (await createOrdersRepository(db).contractNoteParties(found.order.ticketId))!;
      const order = toOrder(found);
      const body = await renderContractNote({
        order,
        tradedAt: found.order.tradedAt,
        securityType: found.securityType,
        faceValuePerBond: perBondOf(found),
        ...parties,
        productName: ctx.deps.config.productName,
        generatedAt: ctx.deps.now(),
      });
      return { filename: `contract-note-${order.number}.pdf`, body };
    },

    /**
     * `POST api/orders/` (seller) / `POST api/procurement-orders/` (buyer): report the firm's side of a confirmed
     * ticket now, or again after a mismatch. Idempotent: the existing order, whatever its state.
     */
    async report(principal: Principal, kind: OrderKind, ticketId: string, audit: AuditContext): Promise<Order> {
      const [ticket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
      if (!ticket || !ticketParticipants(ticket).includes(principal.clientId)) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
      if ((kind === 'order' ? ticket.sellerClientId : ticket.buyerClientId) !== principal.clientId)
        throw new AppError('FORBIDDEN', ORDER_MESSAGES.wrongSide(kind));
      const order = await createOrdersRepository(db).ticketOrder(ticketId, kind);
      if (!order) throw new AppError('CONFLICT', ORDER_MESSAGES.ticketNotConfirmed);
      const due = await ctx.change(
        async (tx, emit) => {
          const mine = await lockMine(tx, principal, kind, order.id, {
            states: [...CANCELLABLE, 'rejected', 'settled', 'cancelled'],
            action: 'report',
          });
          if (mine.state === 'reporting') {
            await tx.update(orders).set({ nextReportAt: ctx.deps.now() }).where(eq(orders.id, mine.id));
            return true;
          }
          if (mine.state !== 'mismatch') return false;
          const [row] = await tx
            .update(orders)
            .set({
              state: 'reporting',
              reason: null,
              nextReportAt: ctx.deps.now(),
              reportAttempts: 0,
              version: sql`${orders.version} + 1`,
              updatedAt: new Date(),
            })
            .where(eq(orders.id, mine.id))
            .returning();
          await writeAudit(tx, audit, {
            action: 'order.resubmitted',
            entity: 'order',
            entityId: mine.id,
            before: { state: 'mismatch', reason: mine.reason },
            after: { state: 'reporting' },
          });
          emitOrders(emit, await ticketOf(tx, mine.ticketId), [row!]);
          return true;
        },
        { fence: true },
      );
      return due ? reportSoon(principal, kind, order.id) : reread(principal, kind, order.id);
    },

    /** This side's report before the venue matched it: new terms (consideration from bond-math), reported again. */
    async modify(principal: Principal, kind: OrderKind, id: string, input: ModifyInput, audit: AuditContext): Promise<Order> {
      const current = await view(principal, kind, id);
      const o = current.order;
      if (!['reporting', 'mismatch'].includes(o.state)) throw notAllowed(o.state, 'modify');
      // The RFQ platform reported the deal on its terms: there is no report of this side to change.
      if (await rfqTradeOf(db, o.ticketId)) throw notAllowed(o.state, 'modify of a trade done on the exchange RFQ platform');
      const price = input.price ?? o.price;
      const quantum = input.quantum ?? o.quantum;
      const settlementDate = input.settlement_date ?? o.settlementDate;
      const perBond = perBondOf(current);
      const sizeError = quantumError(quantum, perBond);
      if (sizeError) throw fieldError('quantum', sizeError);
      if (input.custodian_id) {
        const [known] = await db.select({ id: custodians.id }).from(custodians).where(eq(custodians.id, input.custodian_id));
        if (!known) throw fieldError('custodian_id', TICKET_MESSAGES.custodianUnknown);
      }
      const termsChanged = price !== o.price || quantum !== o.quantum || settlementDate !== o.settlementDate;
      let money = {};
      if (termsChanged) {
        const priced = await ctx.finstruments.price(String(o.finstrumentId), {
          price,
          settlement_date: settlementDate,
          quantity: Math.round(quantum / perBond),
        });
        const c = priced.consideration_details;
        if (!c || priced.price.bond_yield === null)
          throw new AppError('BAD_REQUEST', priced.not_priceable_reason ?? 'This bond cannot be priced.');
        money = {
          yieldFraction: priced.price.bond_yield,
          accruedDays: c.accrued_days,
          principalPaise: Math.round(c.principal * 100),
          accruedInterestPaise: Math.round(c.accrued_interest * 100),
          considerationPaise: Math.round(c.consideration * 100),
          // Stamp duty is the buyer's: the seller's order carries the same figure for the trade.
          stampDutyPaise: Math.round(c.stamp_duty * 100),
        };
      }
      await ctx.change(
        async (tx, emit) => {
          const mine = await lockMine(tx, principal, kind, id, {
            version: input.version,
            states: ['reporting', 'mismatch'],
            action: 'modify',
          });
          const [row] = await tx
            .update(orders)
            .set({
              price,
              quantum,
              settlementDate,
              ...money,
              ...(input.custodian_id ? { custodianId: input.custodian_id } : {}),
              state: 'reporting',
              reason: null,
              lastError: null,
              reportAttempts: 0,
              nextReportAt: ctx.deps.now(),
              version: sql`${orders.version} + 1`,
              updatedAt: new Date(),
            })
            .where(eq(orders.id, mine.id))
            .returning();
          await writeAudit(tx, audit, {
            action: 'order.modified',
            entity: 'order',
            entityId: mine.id,
            before: {
              state: mine.state,
              price: mine.price,
              quantum: mine.quantum,
              settlement_date: mine.settlementDate,
              custodian_id: mine.custodianId,
            },
            after: {
              state: row!.state,
              price: row!.price,
              quantum: row!.quantum,
              settlement_date: row!.settlementDate,
              custodian_id: row!.custodianId,
            },
          });
          emitOrders(emit, await ticketOf(tx, mine.ticketId), [row!]);
        },
        { fence: true },
      );
      return reportSoon(principal, kind, id);
    },

    /**
     * `reported_order_status` on a reported trade: ACCEPTED confirms it; REJECTED rejects its consideration,
     * which cancels the trade at the venue and on both sides (the ticket is cancelled with the reason).
     */
    async acceptReject(
      principal: Principal,
      kind: OrderKind,
      id: string,
      input: { version: number; reported_order_status: ReportedOrderStatus; reason?: string | undefined },
      audit: AuditContext,
    ): Promise<Order> {
      const accept = input.reported_order_status === 'ACCEPTED';
      const action = accept ? 'accept' : 'reject';
      if (!accept && !input.reason) throw fieldError('reason', ORDER_MESSAGES.reasonRequired);
      const current = (await view(principal, kind, id)).order;
      if (current.state !== 'reported') throw notAllowed(current.state, action);
      if (current.version !== input.version) throw new AppError('CONFLICT', ORDER_MESSAGES.staleVersion);
      if (!accept) await cancelAtVenue(current, input.reason!);
      await ctx.change(
        async (tx, emit) => {
          const mine = await lockMine(tx, principal, kind, id, { version: input.version, states: ['reported'], action });
          if (!accept) {
            await cancelTrade(tx, emit, mine.ticketId, audit, input.reason!, { orderId: mine.id });
            return;
          }
          const [row] = await tx
            .update(orders)
            .set({ state: 'accepted', reportedOrderStatus: 'ACCEPTED', version: sql`${orders.version} + 1`, updatedAt: new Date() })
            .where(eq(orders.id, mine.id))
            .returning();
          await writeAudit(tx, audit, {
            action: 'order.accepted',
            entity: 'order',
            entityId: mine.id,
            before: { state: 'reported' },
            after: { state: 'accepted', reported_order_status: 'ACCEPTED' },
          });
          emitOrders(emit, await ticketOf(tx, mine.ticketId), [row!]);
        },
        { fence: true },
      );
      return reread(principal, kind, id);
    },

    /** Cancels the trade before it settles: at the venue, then both orders and the ticket. */
    async cancel(principal: Principal, kind: OrderKind, id: string, input: { version: number; reason: string }, audit: AuditContext) {
      const current = (await view(principal, kind, id)).order;
      if (!CANCELLABLE.includes(current.state as OrderState)) throw notAllowed(current.state, 'cancel');
      if (current.version !== input.version) throw new AppError('CONFLICT', ORDER_MESSAGES.staleVersion);
      await cancelAtVenue(current, input.reason);
      await ctx.change(
        async (tx, emit) => {
          const mine = await lockMine(tx, principal, kind, id, { version: input.version, states: CANCELLABLE, action: 'cancel' });
          await cancelTrade(tx, emit, mine.ticketId, audit, input.reason);
        },
        { fence: true },
      );
      return reread(principal, kind, id);
    },

    /**
     * `settle-cancel/{id}/{action}/` on a failed settlement: `settle` runs the pay-in again (both orders back to
     * awaiting settlement; the outcome comes from the settlement job), `cancel` cancels the trade.
     */
    async settleCancel(
      principal: Principal,
      kind: OrderKind,
      id: string,
      action: 'settle' | 'cancel',
      input: { version: number; reason?: string | undefined },
      audit: AuditContext,
    ): Promise<Order> {
      const label = action === 'settle' ? 'settle' : 'cancel settlement';
      if (action === 'cancel' && !input.reason) throw fieldError('reason', ORDER_MESSAGES.reasonRequired);
      const current = (await view(principal, kind, id)).order;
      if (current.state !== 'failed') throw notAllowed(current.state, label);
      if (current.version !== input.version) throw new AppError('CONFLICT', ORDER_MESSAGES.staleVersion);
      if (action === 'cancel') {
        await cancelAtVenue(current, input.reason!);
        await ctx.change(
          async (tx, emit) => {
            const mine = await lockMine(tx, principal, kind, id, { version: input.version, states: ['failed'], action: label });
            await cancelTrade(tx, emit, mine.ticketId, audit, input.reason!);
          },
          { fence: true },
        );
        return reread(principal, kind, id);
      }
      const settlement = await atVenue(() => ctx.gateway.retrySettlement(current.exchange as ExchangeName, current.exchangeTradeId!));
      await ctx.change(
        async (tx, emit) => {
          const mine = await lockMine(tx, principal, kind, id, { version: input.version, states: ['failed'], action: label });
          await applyRetry(tx, emit, mine, settlement, audit, ctx.settledHooks);
        },
        { fence: true },
      );
      return reread(principal, kind, id);
    },
  };
}

/** After the venue took a retry: both failed orders await settlement again (or take the outcome it already has). */
async function applyRetry(
  tx: Tx,
  emit: Emit,
  mine: OrderRow,
  settlement: TradeSettlement,
  audit: AuditContext,
  settledHooks: Iterable<OrderSettledHook>,
): Promise<void> {
  if (settlement.status !== 'pending') {
    await markSettlement(tx, emit, mine.ticketId, settlement, settledHooks);
    return;
  }
  const rows = await tx
    .update(orders)
    .set({
      state: sql`CASE WHEN ${orders.reportedOrderStatus} = 'ACCEPTED' THEN 'accepted' ELSE 'reported' END`,
      reason: null,
      version: sql`${orders.version} + 1`,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.ticketId, mine.ticketId), inArray(orders.state, ['failed'])))
    .returning();
  for (const row of rows)
    await writeAudit(tx, audit, {
      action: 'order.settlement_retried',
      entity: 'order',
      entityId: row.id,
      before: { state: 'failed' },
      after: { state: row.state, exchange_trade_id: row.exchangeTradeId },
    });
  emitOrders(emit, await ticketOf(tx, mine.ticketId), rows);
}
export type OrdersService = ReturnType<typeof createOrdersService>;
