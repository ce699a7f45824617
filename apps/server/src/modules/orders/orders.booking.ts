/**
 * Booking a confirmed ticket: the seller's **order** and the buyer's **procurement order**, written in the
 * confirming transaction (so a confirmed ticket always has both, and never one without the other). They start
 * `reporting` with a report due now; the reporter (orders.reporting.ts) takes them from there.
 */
import { POST_TRADE_TOPICS, type OrderKind } from '@dart/contracts';
import type { Tx } from '../../db/client';
import { orders } from '../../db/schema';
import type { AuditContext } from '../../lib/audit';
import type { DomainEvent } from '../../lib/events';
import { holdWrites, ticketParticipants, writeHeld, type HeldWrites, type TicketRow } from '../tickets/ticket-transitions';

export type OrderRow = typeof orders.$inferSelect;

/** IST calendar day of an instant (the trade date of a contract note). */
export const istDate = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);

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
  const now = new Date();
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
  const rows = await tx
    .insert(orders)
    .values(
      (['order', 'procurement'] as const).map((kind) => ({
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
      })),
    )
    .onConflictDoNothing()
    .returning();
  const events: DomainEvent[] = [];
  held.audits.push(
    ...rows.map((row) => ({
      action: 'order.created',
      entity: 'order',
      entityId: row.id,
      after: { kind: row.kind, ticket_id: ticket.id, state: row.state, quantum: row.quantum, price: row.price },
    })),
  );
  await writeHeld(tx, audit, held);
  for (const row of rows) {
    for (const clientId of ticketParticipants(ticket))
      events.push({
        topic: POST_TRADE_TOPICS.openOrders,
        clientId,
        payload: { order_id: row.id, ticket_id: ticket.id, kind: row.kind, state: row.state },
      });
  }
  return { orders: rows, events };
}
