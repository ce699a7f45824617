/**
 * The one way a ticket changes: `recordTicketTransition` checks the state machine (contracts
 * `TICKET_TRANSITIONS`), moves the state, bumps the version, appends the stamped history row (who, when, what
 * changed) and the audit row, and returns the live events for every participant firm. It runs inside the
 * caller's transaction; the caller appends the events to the outbox and publishes them after commit.
 * The tickets module uses it for users' actions, the orders module for the system's (reported, settled…).
 */
import { POST_TRADE_TOPICS, TICKET_MESSAGES, TICKET_TRANSITIONS, type TicketHistoryAction, type TicketState } from '@dart/contracts';
import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ticketEvents, tickets } from '../../db/schema';
import { auditsInsert, type AuditContext, type AuditEntry } from '../../lib/audit';
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
 * The ticket history and audit rows of a transaction, held to be written in ONE statement (`writeHeld`, data-
 * modifying CTEs) with the audit rows of what follows in the same transaction (the orders it books or moves),
 * where one by one they were a statement each. All of one actor.
 */
export interface HeldWrites {
  /** The insert of the history rows (one ticket's, one insert: each row's seq is counted from the history as it stood). */
  history: SQLWrapper | null;
  audits: AuditEntry[];
}
export const holdWrites = (): HeldWrites => ({ history: null, audits: [] });

/** Writes what `held` holds, in one statement (nothing when it holds nothing), and empties it. */
export async function writeHeld(tx: Tx, audit: AuditContext, held: HeldWrites): Promise<void> {
  const parts: SQL[] = [];
  if (held.history) parts.push(sql`history AS ${held.history}`);
  if (held.audits.length > 0) parts.push(sql`audit AS ${auditsInsert(tx, audit, held.audits)}`);
  held.history = null;
  held.audits = [];
  if (parts.length > 0) await tx.execute(sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`);
}

/** How a transition reaches the ticket's row and where its history and audit rows go. */
export interface TicketTransitionOptions {
  /**
   * The ticket as the caller read it (before its transaction, or locked in it): the update is made under its
   * version, so the row cannot have changed in between (every ticket write bumps the version), and no locking
   * read is taken again; a ticket changed meanwhile is 409 `staleVersion` (gone meanwhile: 404), as before.
   */
  read?: TicketRow;
  /**
   * Holds the history and audit rows for the caller to write with its own (`writeHeld`, same actor), in the
   * order they would have been written; without it they are written at once, in one statement.
   */
  held?: HeldWrites;
}

/**
 * Applies one transition to a ticket locked FOR UPDATE. Refuses (409) an action the machine does not allow in
 * the current state, and a stale `expectedVersion` (409 `staleVersion`).
 */
export async function recordTicketTransition(
  tx: Tx,
  ticketId: string,
  change: TicketTransition,
  options: TicketTransitionOptions = {},
): Promise<{ ticket: TicketRow; before: TicketRow; events: DomainEvent[] }> {
  return recordTicketTransitions(tx, ticketId, [change], options);
}

/**
 * Applies transitions that follow each other at once (the accept that confirms: `accept_consideration`, then
 * `confirmed`) as ONE update of the row (the version bumped once per transition, as if applied one by one),
 * one insert of their history rows and their audit rows in one insert: what one by one took a locking read,
 * an update, a history insert and an audit insert each. Every step is checked against the machine from the
 * state the step before left; the events are each step's, with the state that step left. All steps share the
 * first one's audit context and `expectedVersion`.
 */
export async function recordTicketTransitions(
  tx: Tx,
  ticketId: string,
  changes: readonly TicketTransition[],
  options: TicketTransitionOptions = {},
): Promise<{ ticket: TicketRow; before: TicketRow; events: DomainEvent[] }> {
  const first = changes[0]!;
  const before = options.read ?? (await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update'))[0];
  if (!before) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
  if (first.expectedVersion !== undefined && first.expectedVersion !== before.version)
    throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
  const states: TicketState[] = [];
  let set: TicketUpdate = {};
  for (const change of changes) {
    const from = states.at(-1) ?? (before.state as TicketState);
    states.push(change.toState ?? nextTicketState(from, change.action));
    set = { ...set, ...change.set };
  }
  const [ticket] = await tx
    .update(tickets)
    .set({ ...set, state: states.at(-1)!, version: sql`${tickets.version} + ${sql.raw(String(changes.length))}`, updatedAt: new Date() })
    .where(and(eq(tickets.id, ticketId), eq(tickets.version, before.version)))
    .returning();
  if (!ticket) {
    // Read before the update, not locked: gone meanwhile is "not found", changed meanwhile is stale.
    if (options.read) {
      const [still] = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, ticketId));
      if (!still) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
    }
    throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
  }
  await appendTicketHistories(
    tx,
    ticket,
    changes.map((change, i) => ({
      action: change.action,
      fromState: i === 0 ? (before.state as TicketState) : states[i - 1]!,
      toState: states[i]!,
      audit: first.audit,
      changes: change.changes ?? null,
      reason: change.reason ?? null,
    })),
    options.held,
  );
  const events = changes.flatMap((change, i) =>
    ticketEventsFor({ ...ticket, state: states[i]! }, change.action, change.considerationChanged ?? false),
  );
  return { ticket, before, events };
}

export interface TicketHistoryEntryInput {
  action: TicketHistoryAction;
  fromState: TicketState | null;
  toState: TicketState;
  audit: AuditContext;
  changes: Record<string, unknown> | null;
  reason: string | null;
}

/** The history row (next seq of the ticket) and its audit row; used for creation too (fromState null). */
export async function appendTicketHistory(tx: Tx, ticket: TicketRow, entry: TicketHistoryEntryInput): Promise<void> {
  await appendTicketHistories(tx, ticket, [entry]);
}

/**
 * History rows of one ticket in one insert (the next seqs, in order) and their audit rows (all with the first
 * entry's audit context): written at once in one statement, or held in `held` for the caller to write.
 */
async function appendTicketHistories(
  tx: Tx,
  ticket: TicketRow,
  entries: readonly TicketHistoryEntryInput[],
  held?: HeldWrites,
): Promise<void> {
  const into = held ?? holdWrites();
  // Two history inserts of one ticket in one statement would count their seqs from the same history.
  if (into.history) await tx.execute(sql`WITH history AS ${into.history} SELECT 1`);
  // The next seqs, taken in the insert itself: the caller holds the ticket's row (updated or created in this
  // transaction), so no other transaction appends to this ticket's history meanwhile. Every row's subquery sees
  // the history as it was before the statement, hence the offset of each.
  into.history = tx.insert(ticketEvents).values(
    entries.map((entry, i) => ({
      ticketId: ticket.id,
      seq: sql`(SELECT coalesce(max(${ticketEvents.seq}), 0) + ${sql.raw(String(i + 1))} FROM ${ticketEvents} WHERE ${ticketEvents.ticketId} = ${ticket.id})`,
      action: entry.action,
      fromState: entry.fromState,
      toState: entry.toState,
      actorUserId: entry.audit.actorUserId ?? null,
      actorClientId: entry.audit.actorClientId ?? null,
      changes: entry.changes,
      reason: entry.reason,
    })),
  );
  into.audits.push(
    ...entries.map((entry): AuditEntry => ({
      action: `ticket.${entry.action}`,
      entity: 'ticket',
      entityId: ticket.id,
      before: entry.fromState === null ? null : { state: entry.fromState },
      after: { state: entry.toState, ...entry.changes, ...(entry.reason ? { reason: entry.reason } : {}) },
    })),
  );
  if (!held) await writeHeld(tx, entries[0]!.audit, into);
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
