/**
 * The outbox: a domain event is written in the same transaction as the change it describes and gets
 * the next stream position; after commit it is published on the bus for every node's sockets. If the
 * publish is lost (Redis pub/sub is at-most-once), clients still catch up from the table.
 */
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { events } from '../db/schema';
import type { BusMessage, EventBus } from './bus';

export interface DomainEvent {
  topic: string;
  /** The tenant that may see it; null = every signed-in user. */
  clientId: string | null;
  payload: unknown;
}

/** Appends inside the caller's transaction; returns the message to publish after commit. */
export async function appendEvent(tx: DbOrTx, event: DomainEvent): Promise<BusMessage> {
  const [row] = await tx
    .insert(events)
    .values({ topic: event.topic, clientId: event.clientId, payload: event.payload })
    .returning({ position: events.position });
  return { topic: event.topic, clientId: event.clientId, payload: event.payload, position: row!.position };
}

export async function publishAll(bus: EventBus, messages: readonly BusMessage[]): Promise<void> {
  for (const message of messages) await bus.publish(message).catch(() => undefined);
}

/** Events after `position` visible to a tenant, in order. */
export async function eventsSince(db: DbOrTx, clientId: string, position: number, limit: number) {
  return db
    .select()
    .from(events)
    .where(and(gt(events.position, position), or(eq(events.clientId, clientId), isNull(events.clientId))))
    .orderBy(asc(events.position))
    .limit(limit);
}

export async function latestPosition(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ position: sql<number>`coalesce(max(${events.position}), 0)::bigint` }).from(events);
  return Number(row?.position ?? 0);
}
