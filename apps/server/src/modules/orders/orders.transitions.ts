/**
 * The orders' state changes that follow the venue (reported, mismatch, settled, failed, cancelled), shared by
 * the reporter, the settlement job and the users' calls. Each runs inside the caller's transaction with the
 * ticket's orders locked: it moves both orders of the ticket that are in an allowed state (so a repeat, or a
 * second node arriving late, changes nothing), writes one audit row per order, moves the ticket through
 * `recordTicketTransition` when the ticket's state machine allows it, and emits `trade.open_orders` and
 * `trade.refresh_tickets` to every participant firm of the trade.
 */
import { TICKET_TRANSITIONS, type OrderState, type TicketHistoryAction, type TicketState } from '@dart/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { sqlRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { orders } from '../../db/schema';
import { writeAudit, writeAudits, type AuditContext } from '../../lib/audit';
import type { DomainEvent } from '../../lib/events';
import type { ReportedTerms, TradeSettlement } from '../exchange';
import type { OrderSettledHook } from './orders.context';
import {
  holdWrites,
  recordTicketTransition,
  readTicketRow,
  TICKET_ROW,
  writeHeld,
  type HeldWrites,
  type TicketRow,
  type TicketUpdate,
} from '../tickets/ticket-transitions';
import { ORDER_ROW, type OrderRow } from './orders.repository';
import { openOrdersEvents } from './orders.views';

/** Dart's own jobs act as the system (no user). */
export const SYSTEM_AUDIT: AuditContext = { actorEmail: 'system:post-trade' };

export type Emit = (event: DomainEvent) => void;

/** States in which an order still waits for the venue's report match. */
export const UNREPORTED: OrderState[] = ['reporting', 'mismatch'];
/** States of a reported trade awaiting settlement. */
export const AWAITING_SETTLEMENT: OrderState[] = ['reported', 'accepted'];
/** States from which a trade can still be cancelled. */
export const CANCELLABLE: OrderState[] = ['reporting', 'mismatch', 'reported', 'accepted', 'failed'];

/** The ticket's row (an order names it by a foreign key: it exists). */
export async function ticketOf(tx: Tx, ticketId: string): Promise<TicketRow> {
  return (await readTicketRow(tx, ticketId))!;
}

export function emitOrders(emit: Emit, ticket: TicketRow, rows: readonly OrderRow[]): void {
  for (const event of openOrdersEvents(ticket, rows)) emit(event);
}

/** The ticket's row, locked for the rest of the transaction (after its orders: one lock order for every caller). */
export async function lockedTicketOf(tx: Tx, ticketId: string): Promise<TicketRow | undefined> {
  return readTicketRow(tx, ticketId, true);
}

/**
 * Moves the ticket when its machine has the edge from its current state; otherwise leaves it (already there).
 * `extra.locked`: the row the caller locked in this transaction (not read again); `extra.held`: holds the
 * ticket's update, history and audit rows for the caller to write with its own (`writeHeld`).
 */
export async function moveTicket(
  tx: Tx,
  emit: Emit,
  ticketId: string,
  action: TicketHistoryAction,
  audit: AuditContext,
  extra: {
    set?: TicketUpdate;
    changes?: Record<string, unknown>;
    reason?: string | null;
    considerationChanged?: boolean;
    locked?: TicketRow;
    held?: HeldWrites;
  } = {},
): Promise<void> {
  const { locked, held, ...change } = extra;
  const current = locked ?? (await lockedTicketOf(tx, ticketId));
  if (!current || !TICKET_TRANSITIONS[current.state as TicketState]?.[action]) return;
  // The row is locked in this transaction (by the caller or just above): with `held`, its update is held too.
  const { events } = await recordTicketTransition(
    tx,
    ticketId,
    { action, audit, ...change },
    { read: current, ...(held ? { held, holdUpdate: true } : {}) },
  );
  for (const event of events) emit(event);
}

/**
 * The orders' live events, then the ticket's move, under one lock of the ticket's row taken here (after the orders':
 * one lock order for every caller) and not read again by the move.
 */
async function emitAndMoveTicket(
  tx: Tx,
  emit: Emit,
  ticketId: string,
  rows: readonly OrderRow[],
  action: TicketHistoryAction,
  audit: AuditContext,
  extra: Omit<NonNullable<Parameters<typeof moveTicket>[5]>, 'locked'>,
): Promise<void> {
  // The orders name the ticket by a foreign key: it exists.
  const ticket = (await lockedTicketOf(tx, ticketId))!;
  emitOrders(emit, ticket, rows);
  await moveTicket(tx, emit, ticketId, action, audit, { ...extra, locked: ticket });
}

const bump = { version: sql`${orders.version} + 1` };

async function move(tx: Tx, ticketId: string, from: OrderState[], set: PgUpdateSetSource<typeof orders>): Promise<OrderRow[]> {
  return tx
    .update(orders)
    .set({ ...set, ...bump, updatedAt: new Date() })
    .where(and(eq(orders.ticketId, ticketId), inArray(orders.state, from)))
    .returning();
}

/**
 * Several tickets reported in one transaction (the reporter's batch): their orders moved by the caller in one
 * statement (`moveToReported`), their rows locked in one (after their orders), and every ticket's history and
 * audit rows held for ONE `writeHeld` at the end.
 */
export interface ReportedBatch {
  moved: ReadonlyMap<string, OrderRow[]>;
  locked: ReadonlyMap<string, TicketRow>;
  held: HeldWrites;
}

/** A match the venue answered, for `moveToReported`. */
export interface ReportedMatch {
  ticketId: string;
  tradeId: string;
  terms: ReportedTerms;
  refs: ReportRefs;
}

/**
 * The orders of every ticket matched, still unreported, → `reported` in ONE statement: the trade number, the
 * terms the venue matched, and each answered side's report ref on that side's row only. Returns the moved rows
 * by ticket (none for a ticket whose orders had moved already).
 */
export async function moveToReported(tx: Tx, matches: readonly ReportedMatch[], now: Date): Promise<Map<string, OrderRow[]>> {
  const column = <T extends string | number | null>(pick: (m: ReportedMatch) => T) => pgArray(matches.map(pick));
  const rows = await sqlRows(
    tx,
    sql`UPDATE orders o SET state = ${'reported' satisfies OrderState}, version = o.version + 1,
          price = m.price, yield_fraction = m.yield_fraction, quantum = m.quantum, settlement_date = m.settlement_date,
          accrued_days = m.accrued_days, principal_paise = m.principal_paise, accrued_interest_paise = m.accrued_interest_paise,
          consideration_paise = m.consideration_paise, stamp_duty_paise = m.stamp_duty_paise, exchange_trade_id = m.trade_id,
          reported_at = ${now.toISOString()}::timestamptz, next_report_at = NULL, report_attempts = 0, last_error = NULL, reason = NULL,
          exchange_report_ref = coalesce(CASE o.kind WHEN ${'order' satisfies OrderRow['kind']} THEN m.order_ref ELSE m.procurement_ref END,
                                         o.exchange_report_ref),
          updated_at = ${new Date().toISOString()}::timestamptz
        FROM unnest(${column((m) => m.ticketId)}::uuid[], ${column((m) => m.tradeId)}::text[],
                    ${column((m) => m.terms.price)}::float8[], ${column((m) => m.terms.yieldFraction)}::float8[],
                    ${column((m) => m.terms.quantum)}::bigint[], ${column((m) => m.terms.settlementDate)}::date[],
                    ${column((m) => m.terms.accruedDays)}::int[], ${column((m) => m.terms.principalPaise)}::bigint[],
                    ${column((m) => m.terms.accruedInterestPaise)}::bigint[], ${column((m) => m.terms.considerationPaise)}::bigint[],
                    ${column((m) => m.terms.stampDutyPaise)}::bigint[],
                    ${column((m) => m.refs.order ?? null)}::text[], ${column((m) => m.refs.procurement ?? null)}::text[])
          AS m(ticket_id, trade_id, price, yield_fraction, quantum, settlement_date, accrued_days, principal_paise,
               accrued_interest_paise, consideration_paise, stamp_duty_paise, order_ref, procurement_ref)
       WHERE o.ticket_id = m.ticket_id AND o.state = ANY(${pgArray(UNREPORTED)}::text[])
       RETURNING ${ORDER_ROW.select('o')}`,
  );
  const moved = new Map<string, OrderRow[]>();
  for (const row of rows.map((raw) => ORDER_ROW.decode(raw))) moved.set(row.ticketId, [...(moved.get(row.ticketId) ?? []), row]);
  return moved;
}

/** Several tickets' rows, locked for the rest of the transaction in one statement (in id order; after their orders). */
export async function lockedTicketsOf(tx: Tx, ticketIds: readonly string[]): Promise<Map<string, TicketRow>> {
  const rows = await sqlRows(
    tx,
    sql`SELECT ${TICKET_ROW.select('t')} FROM tickets t WHERE t.id = ANY(${pgArray(ticketIds)}::uuid[]) ORDER BY t.id FOR UPDATE`,
  );
  return new Map(rows.map((row) => TICKET_ROW.decode(row)).map((ticket) => [ticket.id, ticket]));
}

/** The venue's report ref of each side answered (none for an exchange-RFQ trade: the RFQ platform reported it). */
export type ReportRefs = Partial<Record<OrderRow['kind'], string>>;

/**
 * The venue matched the two reports: both orders → `reported` with the trade number and the terms the venue
 * matched (what this side reported, equal to the other's on ISIN, size, price and settlement date), the ticket
 * → `reported` (its terms too, when the sides modified them before the match). An exchange-RFQ trade has no
 * side reports (`refs` empty): its orders take the RFQ platform's trade number with the ticket's terms.
 */
export async function markReported(
  tx: Tx,
  emit: Emit,
  ticketId: string,
  match: { tradeId: string; terms: ReportedTerms; refs: ReportRefs },
  now: Date,
  batch?: ReportedBatch,
): Promise<OrderRow[]> {
  const t = match.terms;
  const terms = {
    price: t.price,
    yieldFraction: t.yieldFraction,
    quantum: t.quantum,
    settlementDate: t.settlementDate,
    accruedDays: t.accruedDays,
    principalPaise: t.principalPaise,
    accruedInterestPaise: t.accruedInterestPaise,
    considerationPaise: t.considerationPaise,
    stampDutyPaise: t.stampDutyPaise,
  };
  const rows = (batch ? batch.moved : await moveToReported(tx, [{ ticketId, ...match }], now)).get(ticketId) ?? [];
  // A side answered whose order was reported already (after a node died holding both answers, each side's repeat
  // gets `matched`) takes its report ref on its own: the venue's ref of one side's report never changes.
  for (const [kind, ref] of Object.entries(match.refs) as Array<[OrderRow['kind'], string]>)
    if (!rows.some((row) => row.kind === kind))
      await tx
        .update(orders)
        .set({ exchangeReportRef: ref })
        .where(and(eq(orders.ticketId, ticketId), eq(orders.kind, kind)));
  if (rows.length === 0) return rows;
  // The orders' audit rows, the ticket's history and audit rows in one statement (all the system's), the
  // orders' audit rows first as before.
  const held = batch?.held ?? holdWrites();
  held.audits.push(
    ...rows.map((row) => ({
      action: 'order.reported',
      entity: 'order',
      entityId: row.id,
      after: {
        state: row.state,
        exchange_trade_id: match.tradeId,
        exchange_report_ref: match.refs[row.kind] ?? row.exchangeReportRef,
      },
    })),
  );
  // Locked now rather than by the move below: read once for the events, the terms and the move.
  const ticket = batch?.locked.get(ticketId) ?? (await lockedTicketOf(tx, ticketId))!;
  emitOrders(emit, ticket, rows);
  const changed =
    ticket.price !== t.price ||
    ticket.quantum !== t.quantum ||
    ticket.settlementDate !== t.settlementDate ||
    ticket.considerationPaise !== t.considerationPaise;
  await moveTicket(tx, emit, ticketId, 'reported', SYSTEM_AUDIT, {
    set: changed ? terms : {},
    changes: {
      exchange_trade_id: match.tradeId,
      ...(changed ? { price: t.price, quantum: t.quantum, settlement_date: t.settlementDate } : {}),
    },
    considerationChanged: changed,
    locked: ticket,
    held,
  });
  if (!batch) await writeHeld(tx, SYSTEM_AUDIT, held);
  return rows;
}

/** The venue refused the reports (terms differ): both unmatched orders → `mismatch` with the venue's reason. */
export async function markMismatch(tx: Tx, emit: Emit, ticketId: string, reason: string): Promise<OrderRow[]> {
  const rows = await move(tx, ticketId, ['reporting'], {
    state: 'mismatch',
    reason,
    nextReportAt: null,
    reportAttempts: 0,
    lastError: null,
  });
  await writeAudits(
    tx,
    SYSTEM_AUDIT,
    rows.map((row) => ({
      action: 'order.mismatch',
      entity: 'order',
      entityId: row.id,
      before: { state: 'reporting' },
      after: { state: 'mismatch', reason },
    })),
  );
  if (rows.length > 0) emitOrders(emit, await ticketOf(tx, ticketId), rows);
  return rows;
}

/**
 * The clearing corporation's outcome of the pay-in: settled or failed, for both orders and the ticket. Each order
 * it settles goes through `onSettled` (the settled-order hooks) in the same transaction.
 */
export async function markSettlement(
  tx: Tx,
  emit: Emit,
  ticketId: string,
  settlement: TradeSettlement,
  onSettled: Iterable<OrderSettledHook> = [],
): Promise<OrderRow[]> {
  if (settlement.status === 'cancelled')
    return cancelTrade(tx, emit, ticketId, SYSTEM_AUDIT, settlement.reason ?? 'Cancelled by the clearing corporation.');
  if (settlement.status === 'settled') {
    const rows = await move(tx, ticketId, [...AWAITING_SETTLEMENT, 'failed'], {
      state: 'settled',
      settledAt: settlement.settledAt ?? new Date(),
      reason: null,
    });
    await writeAudits(
      tx,
      SYSTEM_AUDIT,
      rows.map((row) => ({
        action: 'order.settled',
        entity: 'order',
        entityId: row.id,
        after: { state: 'settled', exchange_trade_id: settlement.tradeId, clearing_corporation: settlement.clearingCorporation },
      })),
    );
    for (const hook of onSettled) for (const row of rows) await hook(tx, row);
    if (rows.length > 0) {
      await emitAndMoveTicket(tx, emit, ticketId, rows, 'settled', SYSTEM_AUDIT, { changes: { exchange_trade_id: settlement.tradeId } });
    }
    return rows;
  }
  if (settlement.status !== 'failed') return [];
  const reason = settlement.reason ?? 'Settlement failed.';
  const rows = await move(tx, ticketId, AWAITING_SETTLEMENT, { state: 'failed', reason });
  await writeAudits(
    tx,
    SYSTEM_AUDIT,
    rows.map((row) => ({
      action: 'order.settlement_failed',
      entity: 'order',
      entityId: row.id,
      after: { state: 'failed', reason, exchange_trade_id: settlement.tradeId },
    })),
  );
  if (rows.length > 0) {
    await emitAndMoveTicket(tx, emit, ticketId, rows, 'settlement_failed', SYSTEM_AUDIT, { set: { reason }, reason });
  }
  return rows;
}

/**
 * The trade is off (cancelled by a side, or its consideration rejected): every order of the ticket not yet
 * final → `cancelled` (the rejecting side's → `rejected`), the ticket → `cancelled` (`order_cancelled`).
 */
export async function cancelTrade(
  tx: Tx,
  emit: Emit,
  ticketId: string,
  audit: AuditContext,
  reason: string,
  rejectedBy?: { orderId: string },
): Promise<OrderRow[]> {
  const changed: OrderRow[] = [];
  if (rejectedBy) {
    const [rejected] = await tx
      .update(orders)
      .set({ state: 'rejected', reportedOrderStatus: 'REJECTED', reason, ...bump, updatedAt: new Date() })
      .where(and(eq(orders.id, rejectedBy.orderId), eq(orders.state, 'reported')))
      .returning();
    if (rejected) {
      changed.push(rejected);
      await writeAudit(tx, audit, {
        action: 'order.rejected',
        entity: 'order',
        entityId: rejected.id,
        before: { state: 'reported' },
        after: { state: 'rejected', reported_order_status: 'REJECTED', reason },
      });
    }
  }
  const cancelled = await move(tx, ticketId, CANCELLABLE, { state: 'cancelled', reason, nextReportAt: null });
  await writeAudits(
    tx,
    audit,
    cancelled.map((row) => ({ action: 'order.cancelled', entity: 'order', entityId: row.id, after: { state: 'cancelled', reason } })),
  );
  changed.push(...cancelled);
  if (changed.length > 0) {
    await emitAndMoveTicket(tx, emit, ticketId, changed, 'order_cancelled', audit, { set: { reason }, reason });
  }
  return changed;
}
