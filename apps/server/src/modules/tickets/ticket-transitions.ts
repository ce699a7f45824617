/**
 * The one way a ticket changes: `recordTicketTransition` checks the state machine (contracts
 * `TICKET_TRANSITIONS`), moves the state, bumps the version, appends the stamped history row (who, when, what
 * changed) and the audit row, and returns the live events for every participant firm. It runs inside the
 * caller's transaction; the caller appends the events to the outbox and publishes them after commit.
 * The orders module uses it for the system's actions (reported, settled…). A user's action on a ticket it has read
 * takes `writeTicketTransitions`: the same checks, rows and events written as one statement, no transaction.
 */
import { POST_TRADE_TOPICS, TICKET_MESSAGES, TICKET_TRANSITIONS, type TicketHistoryAction, type TicketState } from '@dart/contracts';
import { eq, getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { hasPgError, sqlRows, type Db, type DbOrTx, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import { tickets } from '../../db/schema';
import { auditsInsert, type AuditContext, type AuditEntry } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { BusMessage } from '../../lib/bus';
import { eventsInsert, messagesOf, type DomainEvent } from '../../lib/events';

export type TicketRow = typeof tickets.$inferSelect;
/**
 * A raw `tickets` row (snake_case, driver values) as the query builder would return it, each column by its own
 * decoder: the reads every ticket action starts with are raw (the query builder's mapping of 40 columns, per
 * row and call, cost more of the server's CPU than building the statement; issue 13's profile).
 */
export const TICKET_ROW = rowDecoder<TicketRow>(getTableColumns(tickets));

/** A ticket's row, raw (`TICKET_ROW`); `lock`: FOR UPDATE, for the rest of the caller's transaction. */
export async function readTicketRow(executor: DbOrTx, ticketId: string, lock = false): Promise<TicketRow | undefined> {
  const [row] = await sqlRows(
    executor,
    sql`SELECT ${TICKET_ROW.select('t')} FROM tickets t WHERE t.id = ${ticketId}${lock ? sql` FOR UPDATE` : sql``}`,
  );
  return row ? TICKET_ROW.decode(row) : undefined;
}
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
  /**
   * Each ticket's insert of its history rows, by ticket id (one insert a ticket: each row's seq is counted from
   * the ticket's history as it stood; the reporter's batch holds several tickets').
   */
  history: Map<string, SQL>;
  audits: AuditEntry[];
  /**
   * Ticket updates held with them (`TicketTransitionOptions.holdUpdate`: rows the caller holds locked, so the
   * update cannot miss).
   */
  updates: SQL[];
}
export const holdWrites = (): HeldWrites => ({ history: new Map(), audits: [], updates: [] });

/** Writes what `held` holds, in one statement (nothing when it holds nothing), and empties it. */
export async function writeHeld(tx: Tx, audit: AuditContext, held: HeldWrites): Promise<void> {
  const parts: SQL[] = [
    ...held.updates.map((update, i) => sql`${sql.raw(`ticket${i}`)} AS (${update})`),
    ...[...held.history.values()].map((insert, i) => sql`${sql.raw(`history${i}`)} AS (${insert})`),
  ];
  if (held.audits.length > 0) parts.push(sql`audit AS (${auditsInsert(audit, held.audits)})`);
  held.updates = [];
  held.history = new Map();
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
  /**
   * With `held` and a `read` the caller locked FOR UPDATE in this transaction: the row's update is held too, and
   * written with the history in the caller's one statement (the lock means it cannot miss: no version check to
   * answer). The reporter's batch of tickets.
   */
  holdUpdate?: boolean;
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
  const before = options.read ?? (await readTicketRow(tx, ticketId, true));
  if (!before) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
  const plan = planTransitions(before, changes);
  const { states } = plan;
  if (options.holdUpdate && options.held && options.read) options.held.updates.push(ticketUpdate(ticketId, before.version, plan, false));
  else {
    const [updated] = await sqlRows<{ id: string }>(tx, ticketUpdate(ticketId, before.version, plan, true));
    if (!updated) {
      // Read before the update, not locked: gone meanwhile is "not found", changed meanwhile is stale.
      if (options.read) {
        const [still] = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, ticketId));
        if (!still) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
      }
      throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
    }
  }
  const ticket = rowAfter(before, plan, changes.length);
  await appendTicketHistories(tx, ticket, historyEntries(before, changes, states), options.held);
  return { ticket, before, events: transitionEvents(ticket, changes, states) };
}

/**
 * Checks each step against the machine from the state the step before left (409 otherwise) and the first
 * step's `expectedVersion` (409 `staleVersion`); the states each step leaves and the one update of the row.
 */
function planTransitions(before: TicketRow, changes: readonly TicketTransition[]) {
  const first = changes[0]!;
  if (first.expectedVersion !== undefined && first.expectedVersion !== before.version)
    throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
  const states: TicketState[] = [];
  let set: TicketUpdate = {};
  for (const change of changes) {
    const from = states.at(-1) ?? (before.state as TicketState);
    states.push(change.toState ?? nextTicketState(from, change.action));
    set = { ...set, ...change.set };
  }
  // Values only: the row after is computed from them (`rowAfter`), which an SQL expression would break.
  for (const value of Object.values(set))
    if (typeof value === 'object' && value !== null && 'getSQL' in value) throw new Error('A ticket transition sets values, not SQL.');
  return { states, set, updatedAt: new Date(), steps: changes.length };
}

/** Each column of `tickets` by its field name: the quoted SQL name and the column (its encoder), found once. */
const TICKET_COLUMNS = new Map(
  Object.entries(getTableColumns(tickets)).map(([key, column]) => [key, { name: `"${column.name}"`, column }]),
);

/**
 * The plan's update of the ticket's row under the version read (`RETURNING id` when `returning`): the state, the
 * version bumped once per step, the time, and the columns set, each value through its column's own encoder as the
 * query builder would; `guard`, further conditions of the update (`tickets.cache.ts`). Assembled directly: the query
 * builder's update cost ~150 µs of CPU a call, five times this, and it is on every user action (issue 13).
 */
function ticketUpdate(id: string, version: number, plan: ReturnType<typeof planTransitions>, returning: boolean, guard?: SQL): SQL {
  const pieces: SQL[] = [
    sql`UPDATE tickets SET state = ${plan.states.at(-1)!}, version = version + ${sql.raw(String(plan.steps))}, updated_at = ${plan.updatedAt.toISOString()}::timestamptz`,
  ];
  for (const [key, value] of Object.entries(plan.set)) {
    if (value === undefined) continue;
    const target = TICKET_COLUMNS.get(key);
    if (!target || key === 'state' || key === 'version' || key === 'updatedAt') throw new Error(`A ticket transition cannot set ${key}.`);
    pieces.push(sql`, ${sql.raw(target.name)} = ${value === null ? null : target.column.mapToDriverValue(value)}`);
  }
  pieces.push(
    sql` WHERE id = ${id} AND version = ${version}${guard ? sql` AND ${guard}` : sql``}${returning ? sql` RETURNING id` : sql``}`,
  );
  return sql.join(pieces);
}

/**
 * The row after the update, not read back: the update is under the version read and every write of a ticket
 * bumps its version, so it is the row read with the changes applied (no trigger writes tickets; the tickets test
 * "writes a transition as one statement" compares it with the stored row).
 */
function rowAfter(read: TicketRow, plan: ReturnType<typeof planTransitions>, steps: number): TicketRow {
  return {
    ...read,
    ...(plan.set as Partial<TicketRow>),
    state: plan.states.at(-1)!,
    version: read.version + steps,
    updatedAt: plan.updatedAt,
  };
}

/** The history entries of `changes` (all with the first step's audit context). */
const historyEntries = (before: TicketRow, changes: readonly TicketTransition[], states: readonly TicketState[]) =>
  changes.map((change, i): TicketHistoryEntryInput => ({
    action: change.action,
    fromState: i === 0 ? (before.state as TicketState) : states[i - 1]!,
    toState: states[i]!,
    audit: changes[0]!.audit,
    changes: change.changes ?? null,
    reason: change.reason ?? null,
  }));

/** Each step's live events, with the state that step left (all with the first step's actor, as the history). */
function transitionEvents(ticket: TicketRow, changes: readonly TicketTransition[], states: readonly TicketState[]) {
  const actorClientId = changes[0]!.audit.actorClientId ?? null;
  return changes.flatMap((change, i) =>
    ticketEventsFor({ ...ticket, state: states[i]! }, change.action, change.considerationChanged ?? false, actorClientId),
  );
}

/** In `TicketStatementExtras.columns`: the history rows the statement appends (its `history` CTE). */
export const APPENDED_HISTORY: SQL = sql`history`;

/**
 * What else the one statement of `writeTicketTransitions` writes with the transitions, from the ticket as it is
 * after them; `ticketId` is the update's id as SQL (NULL when it updated nothing: write it to a NOT NULL column).
 */
export type TicketStatementExtras = (
  ticket: TicketRow,
  ticketId: SQL,
) => {
  /** Audit rows after the transitions' own (same actor), e.g. the orders a confirmation books. */
  audits?: AuditEntry[];
  /**
   * Inserts (query builders: the statement puts them in parentheses) run as further CTEs of the statement, each
   * under its `name` (which `columns` may read, e.g. the rows an insert returns).
   */
  inserts?: Array<{ name: string; insert: SQLWrapper }>;
  /** Live events after the transitions' own. */
  events?: DomainEvent[];
  /**
   * Further columns of the statement's answer (`writeTicketTransitions` returns them as `answer`), e.g. the
   * caller's view of the ticket. They may read the `history` CTE: the history rows the statement appends, with
   * ticket_events' columns (the statement's own reads of the tables do not see its writes).
   */
  columns?: SQL;
};

/**
 * `recordTicketTransitions` as ONE statement outside any transaction, for a ticket the caller has read: the
 * update under the version read, the history rows, the audit rows, `extras.inserts` and the outbox events are
 * data-modifying CTEs of one statement, so all commit or none does, in one round trip where a transaction took
 * five (the hot path of a user's action, issue 13).
 * - A ticket changed since it was read (or gone) updates nothing. The history rows take their ticket id from
 *   the update (`(SELECT id FROM t)`, NULL when it updated nothing), so they violate NOT NULL and the whole
 *   statement fails, writing nothing: 409 `staleVersion`, or 404 when the ticket is gone, as the transaction.
 *   With a `guard` (further conditions of the update, for a row the node kept rather than read) it throws
 *   `TicketWriteMissed` instead, for the caller to read and decide.
 * - The row after is not read back (`rowAfter`).
 * - The history seqs are counted in the insert as `appendTicketHistories` counts them; the update holds the
 *   ticket's row, so no other writer appends to its history meanwhile.
 * Not for a request under an Idempotency-Key: its fence must commit with the change (the transactional path).
 */
export async function writeTicketTransitions(
  db: Db,
  read: TicketRow,
  changes: readonly TicketTransition[],
  extras?: TicketStatementExtras,
  guard?: SQL,
): Promise<{ ticket: TicketRow; messages: BusMessage[]; answer: Record<string, unknown> }> {
  const plan = planTransitions(read, changes);
  const { states } = plan;
  const ticket = rowAfter(read, plan, changes.length);
  const entries = historyEntries(read, changes, states);
  const ticketId = sql`(SELECT id FROM t)`;
  const also = extras?.(ticket, ticketId) ?? {};
  const audits = auditsInsert(changes[0]!.audit, [...entries.map((entry) => historyAudit(ticket.id, entry)), ...(also.audits ?? [])]);
  const events = [...transitionEvents(ticket, changes, states), ...(also.events ?? [])];
  const parts: SQL[] = [
    sql`t AS (${ticketUpdate(read.id, read.version, plan, true, guard)})`,
    sql`history AS (${historyInsert(ticket.id, entries, ticketId)}
      RETURNING seq, action, from_state, to_state, actor_user_id, actor_client_id, at, changes, reason)`,
    sql`audit AS (${audits})`,
    ...(also.inserts ?? []).map(({ name, insert }) => sql`${sql.identifier(name)} AS ${insert}`),
  ];
  if (events.length > 0) parts.push(sql`ev AS (${eventsInsert(events)})`);
  const positions = events.length > 0 ? sql`(SELECT array_agg(position) FROM ev)` : sql`NULL::bigint[]`;
  let rows: Array<{ positions: Array<string | number> | string | null }>;
  try {
    rows = await sqlRows(
      db,
      sql`WITH ${sql.join(parts, sql`, `)} SELECT ${positions} AS positions${also.columns ? sql`, ${also.columns}` : sql``}`,
    );
  } catch (error) {
    if (!isNullTicketId(error)) throw error;
    if (guard) throw new TicketWriteMissed();
    const [still] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, read.id));
    throw new AppError(still ? 'CONFLICT' : 'NOT_FOUND', still ? TICKET_MESSAGES.staleVersion : TICKET_MESSAGES.notFound);
  }
  return { ticket, messages: messagesOf(events, bigintArray(rows[0]?.positions ?? null)), answer: rows[0] ?? {} };
}

/**
 * A guarded `writeTicketTransitions` (a row kept by `tickets.cache.ts`) matched nothing: the version moved or a
 * condition failed. Nothing was written; the caller goes the ordinary way, which names the refusal.
 */
export class TicketWriteMissed extends Error {
  constructor() {
    super('The ticket write under a kept row matched nothing.');
  }
}

/** A bigint[] as the drivers answer it: an array (node-postgres, PGlite) or its literal `{1,2}`. */
function bigintArray(value: Array<string | number> | string | null): Array<string | number> {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  return value.replace(/[{}]/g, '').split(',').filter(Boolean);
}

/** The history rows' NOT NULL ticket id violated: the update of `writeTicketTransitions` matched nothing. */
const isNullTicketId = (error: unknown) =>
  hasPgError(error, '23502', (e) => e.column === 'ticket_id' || (e.message ?? '').includes('"ticket_id"'));

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
  const earlier = into.history.get(ticket.id);
  if (earlier) await tx.execute(sql`WITH history AS (${earlier}) SELECT 1`);
  // The next seqs, taken in the insert itself: the caller holds the ticket's row (updated or created in this
  // transaction), so no other transaction appends to this ticket's history meanwhile. Every row's subquery sees
  // the history as it was before the statement, hence the offset of each.
  into.history.set(ticket.id, historyInsert(ticket.id, entries));
  into.audits.push(...entries.map((entry) => historyAudit(ticket.id, entry)));
  if (!held) await writeHeld(tx, entries[0]!.audit, into);
}

/**
 * The insert of a ticket's history rows, not run (parenthesise it in a CTE): the next seqs counted from the
 * history as it was before the statement, in the given order; the columns as arrays through unnest (no query
 * builder work per column). `ticketIdValue`: what is written as the ticket id (the id itself, or the one
 * statement's update, which makes the rows fail NOT NULL when it updated nothing).
 */
function historyInsert(ticketId: string, entries: readonly TicketHistoryEntryInput[], ticketIdValue: SQL | string = ticketId): SQL {
  const column = <T>(pick: (entry: TicketHistoryEntryInput) => T) => pgArray(entries.map((entry) => pick(entry) as string | null));
  return sql`INSERT INTO ticket_events (ticket_id, seq, action, from_state, to_state, actor_user_id, actor_client_id, changes, reason)
      SELECT ${ticketIdValue}::uuid,
        (SELECT coalesce(max(e.seq), 0) FROM ticket_events e WHERE e.ticket_id = ${ticketId}::uuid) + h.n,
        h.action, h.from_state, h.to_state, h.actor_user_id, h.actor_client_id, h.changes, h.reason
      FROM unnest(${column((e) => e.action)}::text[], ${column((e) => e.fromState)}::text[], ${column((e) => e.toState)}::text[],
        ${column((e) => e.audit.actorUserId ?? null)}::uuid[], ${column((e) => e.audit.actorClientId ?? null)}::uuid[],
        ${column((e) => (e.changes === null ? null : JSON.stringify(e.changes)))}::jsonb[], ${column((e) => e.reason)}::text[])
        WITH ORDINALITY AS h(action, from_state, to_state, actor_user_id, actor_client_id, changes, reason, n)
      ORDER BY h.n`;
}

/** The audit row of one history entry. */
const historyAudit = (ticketId: string, entry: TicketHistoryEntryInput): AuditEntry => ({
  action: `ticket.${entry.action}`,
  entity: 'ticket',
  entityId: ticketId,
  before: entry.fromState === null ? null : { state: entry.fromState },
  after: { state: entry.toState, ...entry.changes, ...(entry.reason ? { reason: entry.reason } : {}) },
});

/**
 * `trade.refresh_tickets` (and `trade.consideration_update`) to each participant firm of the ticket. `actorClientId`:
 * the firm whose user acted (null for the system's steps: reporting, settlement, deadlines, a ticket made from a
 * deal), carried as `actor_client_id` so the bell can spare the firm that acted (notifications README).
 */
export function ticketEventsFor(
  ticket: TicketRow,
  action: TicketHistoryAction,
  considerationChanged: boolean,
  actorClientId: string | null = null,
): DomainEvent[] {
  const out: DomainEvent[] = [];
  for (const clientId of ticketParticipants(ticket)) {
    out.push({
      topic: POST_TRADE_TOPICS.refreshTickets,
      clientId,
      payload: { ticket_id: ticket.id, number: ticket.number, state: ticket.state, action, actor_client_id: actorClientId },
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
          actor_client_id: actorClientId,
        },
      });
  }
  return out;
}
