/** SQL of the notification centre. Every function takes the caller's transaction (or the database). */
import { and, count, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import {
  finstruments,
  negotiations,
  notificationPreferences,
  notifications,
  quotes,
  supportMessages,
  userAccountPermissions,
  userAccounts,
  users,
} from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationInsert = typeof notifications.$inferInsert;
export type PreferenceRow = typeof notificationPreferences.$inferSelect;

export const PRODUCER_CURSOR = 'notifications';
/** Rows per INSERT (each column is one array parameter; the chunk bounds the statement's size). */
const INSERT_CHUNK = 5_000;
const NOTIFICATION_ROW = rowDecoder<NotificationRow>(getTableColumns(notifications));

export async function negotiationFirms(tx: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: negotiations.id, quoterClientId: negotiations.quoterClientId, responderClientId: negotiations.responderClientId })
    .from(negotiations)
    .where(inArray(negotiations.id, [...ids]));
}

export async function quoteOwners(tx: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: quotes.id, clientId: quotes.clientId, finstrumentId: quotes.finstrumentId })
    .from(quotes)
    .where(inArray(quotes.id, [...ids]));
}

export async function bondNames(tx: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: finstruments.id, isin: finstruments.isin, displayName: finstruments.displayName })
    .from(finstruments)
    .where(inArray(finstruments.id, [...ids]));
}

/** Per support ticket: is its latest message Dart Support's? */
export async function supportLastByStaff(tx: DbOrTx, ticketIds: readonly string[]) {
  if (ticketIds.length === 0) return [];
  return sqlRows<{ ticket_id: string; is_staff: boolean }>(
    tx,
    sql`SELECT DISTINCT ON (ticket_id) ticket_id, is_staff FROM ${supportMessages}
         WHERE ticket_id IN (${sql.join(
           ticketIds.map((id) => sql`${id}`),
           sql`, `,
         )})
         ORDER BY ticket_id, created_at DESC, id DESC`,
  );
}

export interface Recipient {
  userId: string;
  clientId: string;
  email: string;
  mobile: string | null;
}

/** The active members of these firms who can act on a trade (`client.can_trade`). */
export async function tradingUsers(tx: DbOrTx, clientIds: readonly string[]): Promise<Recipient[]> {
  if (clientIds.length === 0) return [];
  return tx
    .select({ userId: users.id, clientId: userAccounts.clientId, email: users.email, mobile: users.mobile })
    .from(userAccounts)
    .innerJoin(users, eq(users.id, userAccounts.userId))
    .innerJoin(
      userAccountPermissions,
      and(eq(userAccountPermissions.userAccountId, userAccounts.id), eq(userAccountPermissions.permission, 'client.can_trade')),
    )
    .where(and(inArray(userAccounts.clientId, [...clientIds]), eq(userAccounts.status, 'active'), eq(users.isActive, true)));
}

/** Named users, if still active members of the given firm. */
export async function activeMembers(tx: DbOrTx, pairs: ReadonlyArray<{ userId: string; clientId: string }>): Promise<Recipient[]> {
  if (pairs.length === 0) return [];
  const rows = await tx
    .select({ userId: users.id, clientId: userAccounts.clientId, email: users.email, mobile: users.mobile })
    .from(userAccounts)
    .innerJoin(users, eq(users.id, userAccounts.userId))
    .where(and(inArray(users.id, [...new Set(pairs.map((p) => p.userId))]), eq(userAccounts.status, 'active'), eq(users.isActive, true)));
  const wanted = new Set(pairs.map((p) => `${p.userId}/${p.clientId}`));
  return rows.filter((r) => wanted.has(`${r.userId}/${r.clientId}`));
}

export async function preferencesOf(tx: DbOrTx, userIds: readonly string[]): Promise<PreferenceRow[]> {
  if (userIds.length === 0) return [];
  return tx
    .select()
    .from(notificationPreferences)
    .where(inArray(notificationPreferences.userId, [...userIds]));
}

/** Inserts, skipping any (user, source ref) already there; returns the rows actually inserted. */
/**
 * One statement per chunk: the columns as arrays through `unnest` (one parameter each), so thousands of rows cost
 * neither a parameter nor the query builder's work per value; rows already there (same user and source) are skipped.
 */
export async function insertNotifications(tx: DbOrTx, rows: readonly NotificationInsert[]): Promise<NotificationRow[]> {
  const inserted: NotificationRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const column = (pick: (row: NotificationInsert) => string | number | null | undefined) =>
      pgArray(chunk.map((row) => pick(row) ?? null));
    const raw = await sqlRows(
      tx,
      sql`INSERT INTO notifications AS n (user_id, client_id, category, kind, title, body, link, source_position, source_ref, created_at)
        SELECT * FROM unnest(
          ${column((r) => r.userId)}::uuid[], ${column((r) => r.clientId)}::uuid[], ${column((r) => r.category)}::text[],
          ${column((r) => r.kind)}::text[], ${column((r) => r.title)}::text[], ${column((r) => r.body)}::text[],
          ${column((r) => r.link)}::text[], ${column((r) => r.sourcePosition)}::bigint[], ${column((r) => r.sourceRef)}::text[],
          ${column((r) => (r.createdAt ?? new Date()).toISOString())}::timestamptz[])
        ON CONFLICT (user_id, source_ref) DO NOTHING
        RETURNING ${NOTIFICATION_ROW.select('n')}`,
    );
    for (const row of raw) inserted.push(NOTIFICATION_ROW.decode(row));
  }
  return inserted;
}

export async function unreadCounts(tx: DbOrTx, userIds: readonly string[]): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (userIds.length === 0) return result;
  const rows = await tx
    .select({ userId: notifications.userId, unread: count() })
    .from(notifications)
    .where(and(inArray(notifications.userId, [...userIds]), isNull(notifications.readAt)))
    .groupBy(notifications.userId);
  for (const row of rows) result.set(row.userId, Number(row.unread));
  return result;
}

export async function unreadCount(db: DbOrTx, userId: string): Promise<number> {
  return (await unreadCounts(db, [userId])).get(userId) ?? 0;
}

export async function listNotifications(db: DbOrTx, userId: string, options: { unreadOnly: boolean; limit: number; offset: number }) {
  const where = options.unreadOnly ? and(eq(notifications.userId, userId), isNull(notifications.readAt)) : eq(notifications.userId, userId);
  const [total] = await db.select({ n: count() }).from(notifications).where(where);
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.sourcePosition), desc(notifications.id))
    .limit(options.limit)
    .offset(options.offset);
  return { count: Number(total?.n ?? 0), rows };
}

export async function notificationOf(db: DbOrTx, userId: string, id: string): Promise<NotificationRow | undefined> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .for('update');
  return row;
}

/** Marks one read if unread; returns the row as it now is. */
export async function markRead(tx: DbOrTx, userId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
  const [row] = await tx
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning();
  return row;
}

export async function markAllRead(tx: DbOrTx, userId: string, at: Date): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function upsertPreferences(
  tx: DbOrTx,
  rows: ReadonlyArray<{ userId: string; category: string; channel: string; enabled: boolean }>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(notificationPreferences)
    .values(rows.map((r) => ({ ...r, updatedAt: now })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.category, notificationPreferences.channel],
      set: { enabled: sql`excluded.enabled`, updatedAt: now },
    });
}

/** Stamps `snoozed_until` on every (category, channel) row of the user, creating the missing ones with their defaults. */
export async function snooze(
  tx: DbOrTx,
  rows: ReadonlyArray<{ userId: string; category: string; channel: string; enabled: boolean }>,
  until: Date,
  now: Date,
): Promise<void> {
  await tx
    .insert(notificationPreferences)
    .values(rows.map((r) => ({ ...r, snoozedUntil: until, updatedAt: now })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.category, notificationPreferences.channel],
      set: { snoozedUntil: until, updatedAt: now },
    });
}
