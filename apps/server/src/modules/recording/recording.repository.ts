/** SQL of session recording. Every function takes the caller's transaction (or the database). */
import { and, asc, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recordingChunks, recordingSessions, users } from '../../db/schema';

export type RecordingSessionRow = typeof recordingSessions.$inferSelect;

/** Deletes recordings started before `cutoff` (their chunks go with them); returns how many. */
export async function purgeBefore(tx: DbOrTx, cutoff: Date): Promise<number> {
  const gone = await tx.delete(recordingSessions).where(lt(recordingSessions.startedAt, cutoff)).returning({ id: recordingSessions.id });
  return gone.length;
}

export async function insertSession(
  tx: DbOrTx,
  values: { clientId: string; userId: string; authSessionId: string; userAgent: string | null; startedAt: Date },
): Promise<RecordingSessionRow> {
  const [row] = await tx.insert(recordingSessions).values(values).returning();
  return row!;
}

/** The caller's own live recording, locked for the rest of the transaction (concurrent uploads take turns). */
export async function lockOwnSession(
  tx: DbOrTx,
  owner: { userId: string; clientId: string },
  id: string,
  cutoff: Date,
): Promise<RecordingSessionRow | null> {
  const rows = await tx
    .select()
    .from(recordingSessions)
    .where(
      and(
        eq(recordingSessions.id, id),
        eq(recordingSessions.userId, owner.userId),
        eq(recordingSessions.clientId, owner.clientId),
        gte(recordingSessions.startedAt, cutoff),
      ),
    )
    .for('update');
  return rows[0] ?? null;
}

/** Stores a chunk unless its seq is already stored (a retried upload); true when it was stored now. */
export async function insertChunk(
  tx: DbOrTx,
  values: { sessionId: string; seq: number; events: unknown[]; eventCount: number; bytes: number; createdAt: Date },
): Promise<boolean> {
  const rows = await tx.insert(recordingChunks).values(values).onConflictDoNothing().returning({ seq: recordingChunks.seq });
  return rows.length > 0;
}

export async function addToSession(tx: DbOrTx, id: string, added: { events: number; bytes: number; at: Date }): Promise<void> {
  await tx
    .update(recordingSessions)
    .set({
      chunkCount: sql`${recordingSessions.chunkCount} + 1`,
      eventCount: sql`${recordingSessions.eventCount} + ${added.events}`,
      bytes: sql`${recordingSessions.bytes} + ${added.bytes}`,
      lastEventAt: added.at,
    })
    .where(eq(recordingSessions.id, id));
}

const summaryColumns = {
  id: recordingSessions.id,
  userId: recordingSessions.userId,
  userEmail: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  userAgent: recordingSessions.userAgent,
  startedAt: recordingSessions.startedAt,
  lastEventAt: recordingSessions.lastEventAt,
  chunkCount: recordingSessions.chunkCount,
  eventCount: recordingSessions.eventCount,
  bytes: recordingSessions.bytes,
};
export type RecordingSummaryRow = {
  id: string;
  userId: string;
  userEmail: string;
  firstName: string;
  lastName: string;
  userAgent: string | null;
  startedAt: Date;
  lastEventAt: Date | null;
  chunkCount: number;
  eventCount: number;
  bytes: number;
};

/** One firm's recordings within retention, newest first (the tenant predicate is not optional). */
export async function listSessions(
  tx: DbOrTx,
  clientId: string,
  filter: { userId?: string | undefined; cutoff: Date; limit: number; offset: number },
): Promise<{ count: number; rows: RecordingSummaryRow[] }> {
  const where = and(
    eq(recordingSessions.clientId, clientId),
    gte(recordingSessions.startedAt, filter.cutoff),
    filter.userId ? eq(recordingSessions.userId, filter.userId) : undefined,
  );
  const [total] = await tx.select({ count: count() }).from(recordingSessions).where(where);
  const rows = await tx
    .select(summaryColumns)
    .from(recordingSessions)
    .innerJoin(users, eq(users.id, recordingSessions.userId))
    .where(where)
    .orderBy(desc(recordingSessions.startedAt), desc(recordingSessions.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { count: Number(total?.count ?? 0), rows };
}

/** One recording of the firm within retention, or null (another firm's is as absent as a missing one). */
export async function sessionOfFirm(tx: DbOrTx, clientId: string, id: string, cutoff: Date): Promise<RecordingSummaryRow | null> {
  const rows = await tx
    .select(summaryColumns)
    .from(recordingSessions)
    .innerJoin(users, eq(users.id, recordingSessions.userId))
    .where(and(eq(recordingSessions.id, id), eq(recordingSessions.clientId, clientId), gte(recordingSessions.startedAt, cutoff)));
  return rows[0] ?? null;
}

/** A recording's events in upload order. */
export async function eventsOf(tx: DbOrTx, id: string): Promise<unknown[]> {
  const chunks = await tx
    .select({ events: recordingChunks.events })
    .from(recordingChunks)
    .where(eq(recordingChunks.sessionId, id))
    .orderBy(asc(recordingChunks.seq));
  return chunks.flatMap((chunk) => chunk.events);
}
