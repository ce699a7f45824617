/**
 * The outbox: a domain event is written in the same transaction as the change it describes and gets
 * the next stream position; after commit it is published on the bus for every node's sockets. If the
 * publish is lost (Redis pub/sub is at-most-once), clients still catch up from the table.
 */
import { and, asc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../db/client';
import { pgArray } from '../db/pg-array';
import { events } from '../db/schema';
import type { BusMessage, EventBus } from './bus';

export interface DomainEvent {
  topic: string;
  /** The tenant that may see it; null = every signed-in user. */
  clientId: string | null;
  /** Narrows it to one user of that tenant (a notification); absent or null = the whole tenant. */
  userId?: string | null;
  payload: unknown;
}

const rowOf = (event: DomainEvent) => ({
  topic: event.topic,
  clientId: event.clientId,
  userId: event.userId ?? null,
  payload: event.payload,
});
const messageOf = (event: DomainEvent, position: number): BusMessage => ({
  topic: event.topic,
  clientId: event.clientId,
  ...(event.userId ? { userId: event.userId } : {}),
  payload: event.payload,
  position,
});

/** Appends inside the caller's transaction; returns the message to publish after commit. */
export async function appendEvent(tx: DbOrTx, event: DomainEvent): Promise<BusMessage> {
  const [row] = await tx.insert(events).values(rowOf(event)).returning({ position: events.position });
  return messageOf(event, row!.position);
}

/**
 * Appends several in one statement (their positions follow the given order); returns the messages to publish
 * after commit, in that order.
 */
export async function appendEvents(tx: DbOrTx, list: readonly DomainEvent[]): Promise<BusMessage[]> {
  if (list.length === 0) return [];
  if (list.length === 1) return [await appendEvent(tx, list[0]!)];
  const rows = await sqlRows<{ position: string | number }>(tx, eventsInsert(list));
  return messagesOf(
    list,
    rows.map((row) => row.position),
  );
}

/**
 * The insert `appendEvents` runs, built but not run, for a statement that writes the events together with the
 * change they describe (a data-modifying CTE): it returns `position`, one row per event; `messagesOf` pairs them.
 */
export function eventsInsert(list: readonly DomainEvent[]): SQL {
  // The columns as arrays through unnest, in the given order (a producer appends thousands at once).
  return sql`INSERT INTO events (topic, client_id, user_id, payload)
      SELECT topic, client_id, user_id, payload
      FROM unnest(${pgArray(list.map((e) => e.topic))}::text[], ${pgArray(list.map((e) => e.clientId))}::uuid[],
        ${pgArray(list.map((e) => e.userId ?? null))}::uuid[], ${pgArray(list.map((e) => JSON.stringify(e.payload)))}::jsonb[])
        WITH ORDINALITY AS x(topic, client_id, user_id, payload, n)
      ORDER BY n
      RETURNING position`;
}

/** The messages to publish of events appended by one `eventsInsert`, from the positions it returned (any order). */
export function messagesOf(list: readonly DomainEvent[], positions: readonly (string | number)[]): BusMessage[] {
  // One statement takes its positions in the order of its rows; another transaction may take some in between.
  const sorted = positions.map(Number).sort((a, b) => a - b);
  return list.map((event, i) => messageOf(event, sorted[i]!));
}

export async function publishAll(bus: EventBus, messages: readonly BusMessage[]): Promise<void> {
  for (const message of messages) await bus.publish(message).catch(() => undefined);
}

/** Events after `position` visible to a user of a tenant (the tenant's, everyone's and the user's own), in order. */
export async function eventsSince(db: DbOrTx, reader: { clientId: string; userId: string }, position: number, limit: number) {
  return db
    .select()
    .from(events)
    .where(
      and(
        gt(events.position, position),
        or(eq(events.clientId, reader.clientId), isNull(events.clientId)),
        or(isNull(events.userId), eq(events.userId, reader.userId)),
      ),
    )
    .orderBy(asc(events.position))
    .limit(limit);
}

export async function latestPosition(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ position: sql<number>`coalesce(max(${events.position}), 0)::bigint` }).from(events);
  return Number(row?.position ?? 0);
}
