/**
 * A producer's durable reading of the outbox (the events table), as the notification and WhatsApp producers on the
 * elected node tail it: a named cursor row in `event_cursors`, locked for the reading transaction (a second node's
 * producer waits, so passes take turns), and only the contiguous run of positions after it.
 *
 * Positions are taken at insert but transactions commit in any order, so a hole in the positions may be a
 * transaction still open: it holds the cursor until it fills or has been open `gapWaitMs` (a rolled-back position
 * never fills). The embedded database runs one transaction at a time, so a hole there is always a rollback (0).
 */
import { eq, sql } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../db/client';
import { pgArray } from '../db/pg-array';
import { eventCursors } from '../db/schema';

export interface TailRow {
  position: number;
  topic: string;
  clientId: string | null;
  /** Null for events whose payload the producer does not need (user-scoped ones, other topics). */
  payload: unknown;
}

export interface EventTail {
  /** Locks the cursor for the rest of the transaction and reads up to `limit` usable events after it, in order. */
  next(tx: DbOrTx, limit: number): Promise<{ cursor: number; rows: TailRow[] }>;
  /** Moves the cursor (in the same transaction as what the producer wrote for the events read). */
  advance(tx: DbOrTx, position: number, now: Date): Promise<void>;
}

/**
 * @param name - the cursor's row in `event_cursors` (its migration starts it at the present).
 * @param topics - the topics whose payloads the producer reads; other events only move the cursor.
 */
export function createEventTail(name: string, topics: readonly string[], gapWaitMs: number): EventTail {
  /** First time each hole (the missing position) was seen, by wall clock. */
  const holes = new Map<number, number>();

  // Both reads are written as SQL, not built by the query builder on every pass (2.7 % of the server's CPU went to
  // building such selects in the post-trade pipeline).
  const topicList = pgArray(topics);

  async function lockCursor(tx: DbOrTx): Promise<number> {
    const rows = await sqlRows<{ position: string | number }>(tx, sql`SELECT position FROM event_cursors WHERE name = ${name} FOR UPDATE`);
    if (rows[0]) return Number(rows[0].position);
    await tx.insert(eventCursors).values({ name, position: 0 }).onConflictDoNothing();
    return lockCursor(tx);
  }

  function contiguous(cursor: number, rows: readonly TailRow[]): TailRow[] {
    const usable: TailRow[] = [];
    let expected = cursor + 1;
    for (const row of rows) {
      if (row.position !== expected) {
        const since = holes.get(expected) ?? Date.now();
        holes.set(expected, since);
        if (Date.now() - since < gapWaitMs) break;
        holes.delete(expected);
      }
      usable.push(row);
      expected = row.position + 1;
    }
    return usable;
  }

  return {
    async next(tx, limit) {
      const cursor = await lockCursor(tx);
      const found = await sqlRows<{ position: string | number; topic: string; client_id: string | null; payload: unknown }>(
        tx,
        sql`SELECT position, topic, client_id, CASE WHEN user_id IS NULL AND topic = ANY (${topicList}::text[]) THEN payload END AS payload
              FROM events WHERE position > ${cursor} ORDER BY position LIMIT ${limit}`,
      );
      const rows = found.map((row): TailRow => ({
        position: Number(row.position),
        topic: row.topic,
        clientId: row.client_id,
        payload: row.payload,
      }));
      return { cursor, rows: contiguous(cursor, rows) };
    },
    async advance(tx, position, now) {
      await tx.update(eventCursors).set({ position, updatedAt: now }).where(eq(eventCursors.name, name));
    },
  };
}
