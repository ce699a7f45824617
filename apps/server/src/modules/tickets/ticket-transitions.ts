/**
 * The one way a ticket changes: `recordTicketTransition` checks the state machine (contracts
 * `TICKET_TRANSITIONS`), moves the state, bumps the version, appends the stamped history row (who, when, what
 * changed) and the audit row, and returns the live events for every participant firm. It runs inside the
 * caller's transaction; the caller appends the events to the outbox and publishes them after commit.
 * The tickets module uses it for users' actions, the orders module for the system's (reported, settled…).
 */
import { POST_TRADE_TOPICS, TICKET_MESSAGES, TICKET_TRANSITIONS, type TicketHistoryAction, type TicketState } from '@dart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ticketEvents, tickets } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { DomainEvent } from '../../lib/events';

export type TicketRow = typeof tickets.$inferSelect;
export type TicketUpdate = Partial<Omit<typeof tickets.$inferInsert, 'id' | 'number' | 'state' | 'version' | 'createdAt'>>;

/** Every firm on the ticket: buyer, seller and their brokers (the audience of its live events). */
export function ticketParticipants(t: TicketRow): string[] {
  return [
    ...new Set([t.buyerClientId, t.sellerClientId, t.buyerBrokerClientId, t.sellerBrokerClientId].filter((id): id is string => !!id)),
  ];
}

/** The target state of `action` from `state`, or a 409 naming the state when the machine has no such edge. */
export function nextTicketState(state: TicketState, action: TicketHistoryAction): TicketState {
  const edge = TICKET_TRANSITIONS[state]?.[action];
  if (!edge) throw new AppError('CONFLICT', TICKET_MESSAGES.notAllowed(state, action.replace(/_/g, ' ')));
  return edge.to;
}

export interface TicketTransition {
  action: TicketHistoryAction;
  /** Who acted; a system action has no user (actorEmail `system:post-trade`). */
  audit: AuditContext;
  /** The version the caller read (optimistic concurrency); omitted by system actions. */
  expectedVersion?: number;
  /** Columns to set together with the state (price, acceptances, reason…). */
  set?: TicketUpdate;
  /** What changed, as shown in the history ({ price: [old, new] } or values). */
  changes?: Record<string, unknown> | null;
  reason?: string | null;
  /** Also send `trade.consideration_update` (price, size or settlement date changed). */
  considerationChanged?: boolean;
  /** Overrides the machine's target (the confirming accept goes to `reporting` through `confirmed`). */
  toState?: TicketState;
}

/**
 * Applies one transition to a ticket locked FOR UPDATE. Refuses (409) an action the machine does not allow in
 * the current state, and a stale `expectedVersion` (409 `staleVersion`).
 */
export async function recordTicketTransition(
  tx: Tx,
  ticketId: string,
  change: TicketTransition,
): Promise<{ ticket: TicketRow; before: TicketRow; events: DomainEvent[] }> {
  const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
  if (!before) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
  if (change.expectedVersion !== undefined && change.expectedVersion !== before.version)
    throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
  const from = before.state as TicketState;
  const to = change.toState ?? nextTicketState(from, change.action);
  const [ticket] = await tx
    .update(tickets)
    .set({ ...change.set, state: to, version: sql`${tickets.version} + 1`, updatedAt: new Date() })
    .where(and(eq(tickets.id, ticketId), eq(tickets.version, before.version)))
    .returning();
  if (!ticket) throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
  await appendTicketHistory(tx, ticket, {
    action: change.action,
    fromState: from,
    toState: to,
    audit: change.audit,
    changes: change.changes ?? null,
    reason: change.reason ?? null,
  });
  return { ticket, before, events: ticketEventsFor(ticket, change.action, change.considerationChanged ?? false) };
}

/** The history row (next seq of the ticket) and its audit row; used for creation too (fromState null). */
export async function appendTicketHistory(
  tx: Tx,
  ticket: TicketRow,
  entry: {
    action: TicketHistoryAction;
    fromState: TicketState | null;
    toState: TicketState;
    audit: AuditContext;
    changes: Record<string, unknown> | null;
    reason: string | null;
  },
): Promise<void> {
  // The next seq, taken in the insert itself: the caller holds the ticket's row (updated or created in this
  // transaction), so no other transaction appends to this ticket's history meanwhile.
  await tx.insert(ticketEvents).values({
    ticketId: ticket.id,
    seq: sql`(SELECT coalesce(max(${ticketEvents.seq}), 0) + 1 FROM ${ticketEvents} WHERE ${ticketEvents.ticketId} = ${ticket.id})`,
    action: entry.action,
    fromState: entry.fromState,
    toState: entry.toState,
    actorUserId: entry.audit.actorUserId ?? null,
    actorClientId: entry.audit.actorClientId ?? null,
    changes: entry.changes,
    reason: entry.reason,
  });
  await writeAudit(tx, entry.audit, {
    action: `ticket.${entry.action}`,
    entity: 'ticket',
    entityId: ticket.id,
    before: entry.fromState === null ? null : { state: entry.fromState },
    after: { state: entry.toState, ...entry.changes, ...(entry.reason ? { reason: entry.reason } : {}) },
  });
}

/** `trade.refresh_tickets` (and `trade.consideration_update`) to each participant firm of the ticket. */
export function ticketEventsFor(ticket: TicketRow, action: TicketHistoryAction, considerationChanged: boolean): DomainEvent[] {
  const out: DomainEvent[] = [];
  for (const clientId of ticketParticipants(ticket)) {
    out.push({
      topic: POST_TRADE_TOPICS.refreshTickets,
      clientId,
      payload: { ticket_id: ticket.id, number: ticket.number, state: ticket.state, action },
    });
    if (considerationChanged)
      out.push({
        topic: POST_TRADE_TOPICS.considerationUpdate,
        clientId,
        payload: {
          ticket_id: ticket.id,
          price: ticket.price,
          yield: ticket.yieldFraction,
          quantum: ticket.quantum,
          settlement_date: ticket.settlementDate,
          consideration: ticket.considerationPaise / 100,
          stamp_duty: ticket.stampDutyPaise / 100,
        },
      });
  }
  return out;
}
