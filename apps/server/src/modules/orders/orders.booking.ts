/**
 * Booking a confirmed ticket: the seller's **order** and the buyer's **procurement order**, written in the
 * confirming transaction (so a confirmed ticket always has both, and never one without the other). They start
 * `reporting` with a report due now; the reporter (orders.reporting.ts) takes them from there.
 */
import type { OrderKind } from '@dart/contracts';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { orders } from '../../db/schema';
import type { AuditContext, AuditEntry } from '../../lib/audit';
import type { DomainEvent } from '../../lib/events';
import { holdWrites, writeHeld, type HeldWrites, type TicketRow, type TicketStatementExtras } from '../tickets/ticket-transitions';
import { ORDER_ROW } from './orders.repository';
import { openOrdersEvents } from './orders.views';

export type OrderRow = typeof orders.$inferSelect;

/** IST calendar day of an instant (the trade date of a contract note). */
export const istDate = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** The seller's order and the buyer's procurement order of a confirmed ticket, as inserted (report due `now`). */
function orderValuesOf(ticket: TicketRow, now: Date) {
  const side = (kind: OrderKind) =>
    kind === 'order'
      ? {
          clientId: ticket.sellerClientId,
          userId: ticket.sellerUserId,
          counterpartyClientId: ticket.buyerClientId,
          custodianId: ticket.sellerCustodianId,
        }
      : {
          clientId: ticket.buyerClientId,
          userId: ticket.buyerUserId,
          counterpartyClientId: ticket.sellerClientId,
          custodianId: ticket.buyerCustodianId,
        };
  return (['order', 'procurement'] as const).map((kind) => ({
    kind,
    ticketId: ticket.id,
    ...side(kind),
    state: 'reporting',
    finstrumentId: ticket.finstrumentId,
    exchange: ticket.exchange,
    clearingCorporation: ticket.clearingCorporation,
    price: ticket.price,
    yieldFraction: ticket.yieldFraction,
    quantum: ticket.quantum,
    settlementDate: ticket.settlementDate,
    tradeDate: istDate(ticket.tradedAt),
    accruedDays: ticket.accruedDays,
    principalPaise: ticket.principalPaise,
    accruedInterestPaise: ticket.accruedInterestPaise,
    considerationPaise: ticket.considerationPaise,
    stampDutyPaise: ticket.stampDutyPaise,
    tradedAt: ticket.tradedAt,
    nextReportAt: now,
  }));
}

type Booked = Pick<OrderRow, 'id' | 'kind' | 'state' | 'quantum' | 'price' | 'clientId'>;

const bookedAudits = (ticket: TicketRow, rows: readonly Booked[]): AuditEntry[] =>
  rows.map((row) => ({
    action: 'order.created',
    entity: 'order',
    entityId: row.id,
    after: { kind: row.kind, ticket_id: ticket.id, state: row.state, quantum: row.quantum, price: row.price },
  }));

/**
 * `held`: the confirming ticket's history and audit rows (same actor), written with the orders' audit rows in
 * one statement, theirs first.
 */
export async function createOrdersForTicket(
  tx: Tx,
  ticket: TicketRow,
  audit: AuditContext,
  held: HeldWrites = holdWrites(),
): Promise<{ orders: OrderRow[]; events: DomainEvent[] }> {
  const rows = await tx.insert(orders).values(orderValuesOf(ticket, new Date())).onConflictDoNothing().returning();
  held.audits.push(...bookedAudits(ticket, rows));
  await writeHeld(tx, audit, held);
  return { orders: rows, events: openOrdersEvents(ticket, rows) };
}

/**
 * The booking as part of the confirming accept's one statement (`writeTicketTransitions`): the two orders
 * inserted with ids chosen here (their events and audit rows name them before the insert runs) and the ticket
 * id of the statement's update. A ticket is confirmed once (the update is under the version read), so there is
 * no earlier booking to skip as `createOrdersForTicket`'s ON CONFLICT does: one would fail the statement.
 */
export function ordersBooking(db: DbOrTx): TicketStatementExtras {
  return (ticket, ticketId) => {
    const rows = orderValuesOf(ticket, new Date()).map((values) => ({ ...values, id: randomUUID() }));
    return {
      inserts: [
        {
          name: BOOKED,
          insert: db
            .insert(orders)
            .values(rows.map((row) => ({ ...row, ticketId })))
            .returning(),
        },
      ],
      audits: bookedAudits(ticket, rows),
      events: openOrdersEvents(ticket, rows),
      // The booked rows as the insert returned them (numbers and defaults included), for the confirming call's answer.
      columns: sql`(SELECT json_agg(b) FROM ${sql.identifier(BOOKED)} b) AS ${sql.identifier(BOOKED)}`,
    };
  };
}

const BOOKED = 'booked_orders';

/**
 * The orders `ordersBooking` booked, from the statement's answer (`writeTicketTransitions`' `answer`): each row's
 * JSON decoded by its columns' own decoders, as a read of the table would give it; undefined without a booking.
 */
export function bookedOrdersOf(answer: Record<string, unknown>): OrderRow[] | undefined {
  const booked = answer[BOOKED] as Array<Record<string, unknown>> | null | undefined;
  return booked ? booked.map((row) => ORDER_ROW.decode(row)) : undefined;
}
