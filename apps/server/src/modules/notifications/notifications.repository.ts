/**
 * SQL of the notification centre. Every function takes the caller's transaction (or the database). Notifications fan
 * out on read (README "Fan-out on read"): one row per source event and audience, read marks per user; what a user
 * sees is `visibleTo` below, the one place that says it.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import {
  chatChannels,
  finstruments,
  negotiations,
  notificationPreferences,
  notificationReads,
  notifications,
  quotes,
  supportMessages,
  userAccountPermissions,
  userAccounts,
  users,
} from '../../db/schema';

export type PreferenceRow = typeof notificationPreferences.$inferSelect;

export const PRODUCER_CURSOR = 'notifications';
/** Rows per INSERT (each column is one array parameter; the chunk bounds the statement's size). */
const INSERT_CHUNK = 5_000;

/** A notification as one user sees it: the shared row with that user's read mark. */
export interface InboxRow {
  id: string;
  category: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  createdAt: Date;
  readAt: Date | null;
}
const INBOX_ROW = rowDecoder<Omit<InboxRow, 'readAt'>>({
  id: notifications.id,
  category: notifications.category,
  kind: notifications.kind,
  title: notifications.title,
  body: notifications.body,
  link: notifications.link,
  createdAt: notifications.createdAt,
});
const READ_AT = rowDecoder<{ readAt: Date | null }>({ readAt: notificationReads.readAt });
const decodeInbox = (raw: Record<string, unknown>): InboxRow => ({ ...INBOX_ROW.decode(raw), ...READ_AT.decode(raw) });

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

/** Chat channels by url: name and type (a chat invitation names its group). */
export async function chatChannelNames(tx: DbOrTx, urls: readonly string[]) {
  if (urls.length === 0) return [];
  return tx
    .select({ url: chatChannels.url, name: chatChannels.name, customType: chatChannels.customType })
    .from(chatChannels)
    .where(inArray(chatChannels.url, [...urls]));
}

/** Users by id with their firm's name (who sent a chat invitation). */
export async function peopleNames(tx: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return sqlRows<{ id: string; name: string; firm: string }>(
    tx,
    sql`SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name, coalesce(c.name, '') AS firm
          FROM users u
          LEFT JOIN user_accounts a ON a.user_id = u.id
          LEFT JOIN clients c ON c.id = a.client_id
         WHERE u.id = ANY (${pgArray(ids)}::uuid[])`,
  );
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

export type Reader = { userId: string; clientId: string };

/**
 * The notifications (alias `n`) a user sees: their firm's, not hidden for them (in-app off when it was made), and
 * either addressed to them or firm-wide while they are an active member with `client.can_trade` who joined before it
 * was made (a newcomer does not inherit the firm's history, as on a Bloomberg terminal).
 */
export function visibleTo(reader: Reader): SQL {
  return sql`n.client_id = ${reader.clientId}::uuid
    AND NOT (${reader.userId}::uuid = ANY (n.hidden_for))
    AND (n.user_id = ${reader.userId}::uuid OR (n.user_id IS NULL AND n.created_at >= (
      SELECT a.created_at FROM user_accounts a
       WHERE a.user_id = ${reader.userId}::uuid AND a.client_id = ${reader.clientId}::uuid AND a.status = 'active'
         AND EXISTS (SELECT 1 FROM user_account_permissions p WHERE p.user_account_id = a.id AND p.permission = 'client.can_trade'))))`;
}

const unreadBy = (reader: Reader) =>
  sql`NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = ${reader.userId}::uuid AND r.notification_id = n.id)`;

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

/**
 * The trading users of these firms who have set any preference (or snoozed): with every channel at its default
 * (in-app on, e-mail and SMS off) the others need nothing from the producer but their share of the one row.
 */
export async function tradingUsersWithPreferences(tx: DbOrTx, clientIds: readonly string[]): Promise<Recipient[]> {
  if (clientIds.length === 0) return [];
  return sqlRows<Recipient>(
    tx,
    sql`SELECT u.id AS "userId", a.client_id AS "clientId", u.email, u.mobile
          FROM user_accounts a
          JOIN users u ON u.id = a.user_id
         WHERE a.client_id = ANY (${pgArray(clientIds)}::uuid[]) AND a.status = 'active' AND u.is_active
           AND EXISTS (SELECT 1 FROM user_account_permissions p WHERE p.user_account_id = a.id AND p.permission = 'client.can_trade')
           AND EXISTS (SELECT 1 FROM notification_preferences np WHERE np.user_id = a.user_id)`,
  );
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

export interface NotificationInsert {
  id: string;
  clientId: string;
  /** Null: the firm's trading users. */
  userId: string | null;
  category: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  sourcePosition: number;
  sourceRef: string;
  hiddenFor: readonly string[];
  createdAt: Date;
  /** The payload of its `notify.created` event. */
  livePayload: unknown;
}

/**
 * Writes each notification with its `notify.created` event in ONE statement per chunk (a pass's round trips are its
 * latency): the events are appended in the given order for the audiences that have no row yet (a replayed source
 * event's audience has one), then the rows are inserted with their event's position as `live_position`. The columns
 * travel as arrays through `unnest` (one parameter each); `hidden_for` as one array literal per row. The check for a row
 * already made is a lateral lookup the planner cannot turn into a join (`LIMIT 1`), so it is always the unique index's
 * lookup: as `NOT EXISTS`, a pool connection's generic plan, costed while the table was small, hashed the whole table
 * on every pass once it had grown (apps/server/README.md "Runtime"). Returns the rows
 * written, with their event's position, in position order. The first chunk's statement also moves the producer's
 * cursor (`event_cursors`, locked by the caller's `EventTail.next` in this transaction): the same UPDATE as
 * `EventTail.advance`, without a round trip of its own.
 */
export async function insertNotificationsWithEvents(
  tx: DbOrTx,
  topic: string,
  cursor: { name: string; position: number; at: Date },
  rows: readonly NotificationInsert[],
): Promise<Array<{ id: string; position: number }>> {
  const written: Array<{ id: string; position: number }> = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const advance =
      i === 0
        ? sql`, moved AS (
          UPDATE event_cursors SET position = ${cursor.position}, updated_at = ${cursor.at.toISOString()}::timestamptz
           WHERE name = ${cursor.name} RETURNING 1
        )`
        : sql``;
    const column = (pick: (row: NotificationInsert) => string | number | null) => pgArray(chunk.map(pick));
    const result = await sqlRows<{ id: string; position: string | number }>(
      tx,
      sql`WITH x AS (
          SELECT * FROM unnest(
            ${column((r) => r.id)}::uuid[], ${column((r) => r.userId)}::uuid[], ${column((r) => r.clientId)}::uuid[],
            ${column((r) => r.category)}::text[], ${column((r) => r.kind)}::text[], ${column((r) => r.title)}::text[],
            ${column((r) => r.body)}::text[], ${column((r) => r.link)}::text[], ${column((r) => r.sourcePosition)}::bigint[],
            ${column((r) => r.sourceRef)}::text[], ${column((r) => pgArray(r.hiddenFor))}::text[],
            ${column((r) => r.createdAt.toISOString())}::timestamptz[], ${column((r) => JSON.stringify(r.livePayload))}::jsonb[])
            WITH ORDINALITY AS x(id, user_id, client_id, category, kind, title, body, link, source_position, source_ref, hidden,
              created_at, payload, n)
        ), fresh AS (
          SELECT x.* FROM x
            LEFT JOIN LATERAL (SELECT 1 AS made FROM notifications n
                                WHERE n.source_ref = x.source_ref AND n.client_id = x.client_id
                                  AND n.user_id IS NOT DISTINCT FROM x.user_id LIMIT 1) had ON true
           WHERE had.made IS NULL
        ), ev AS (
          INSERT INTO events (topic, client_id, user_id, payload)
          SELECT ${topic}, client_id, user_id, payload FROM fresh ORDER BY n
          RETURNING position, (payload->'notification'->>'id')::uuid AS id
        )${advance}
        INSERT INTO notifications (id, user_id, client_id, category, kind, title, body, link, source_position, source_ref,
            hidden_for, live_position, created_at)
        SELECT fresh.id, user_id, client_id, category, kind, title, body, link, source_position, source_ref, hidden::uuid[],
            ev.position, created_at
          FROM fresh JOIN ev ON ev.id = fresh.id
        RETURNING id, live_position AS position`,
    );
    for (const row of result) written.push({ id: row.id, position: Number(row.position) });
  }
  return written.sort((a, b) => a.position - b.position);
}

/** How many of the notifications the user sees are unread (the bell). */
export async function unreadCount(db: DbOrTx, reader: Reader): Promise<number> {
  const [row] = await sqlRows<{ unread: string | number }>(
    db,
    sql`SELECT count(*) AS unread FROM notifications n WHERE ${visibleTo(reader)} AND ${unreadBy(reader)}`,
  );
  return Number(row?.unread ?? 0);
}

export async function listNotifications(db: DbOrTx, reader: Reader, options: { unreadOnly: boolean; limit: number; offset: number }) {
  const where = options.unreadOnly ? sql`${visibleTo(reader)} AND ${unreadBy(reader)}` : visibleTo(reader);
  const [total] = await sqlRows<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM notifications n WHERE ${where}`);
  const raw = await sqlRows(
    db,
    sql`SELECT ${INBOX_ROW.select('n')}, ${READ_AT.select('r')}
          FROM notifications n
          LEFT JOIN notification_reads r ON r.user_id = ${reader.userId}::uuid AND r.notification_id = n.id
         WHERE ${where}
         ORDER BY n.created_at DESC, n.source_position DESC NULLS LAST, n.id DESC
         LIMIT ${options.limit} OFFSET ${options.offset}`,
  );
  return { count: Number(total?.n ?? 0), rows: raw.map(decodeInbox) };
}

/** One notification as the user sees it, or undefined if they do not see it (someone else's is as absent as none). */
export async function notificationOf(db: DbOrTx, reader: Reader, id: string): Promise<InboxRow | undefined> {
  const [raw] = await sqlRows(
    db,
    sql`SELECT ${INBOX_ROW.select('n')}, ${READ_AT.select('r')}
          FROM notifications n
          LEFT JOIN notification_reads r ON r.user_id = ${reader.userId}::uuid AND r.notification_id = n.id
         WHERE n.id = ${id}::uuid AND ${visibleTo(reader)}`,
  );
  return raw ? decodeInbox(raw) : undefined;
}

/** Marks one read if the user sees it and has not read it; true if this call marked it. */
export async function markRead(tx: DbOrTx, reader: Reader, id: string, at: Date): Promise<boolean> {
  const rows = await sqlRows(
    tx,
    sql`INSERT INTO notification_reads (user_id, notification_id, read_at)
        SELECT ${reader.userId}::uuid, n.id, ${at.toISOString()}::timestamptz FROM notifications n
         WHERE n.id = ${id}::uuid AND ${visibleTo(reader)}
        ON CONFLICT DO NOTHING
        RETURNING notification_id`,
  );
  return rows.length > 0;
}

/** Marks every notification the user sees and has not read; returns how many. */
export async function markAllRead(tx: DbOrTx, reader: Reader, at: Date): Promise<number> {
  const rows = await sqlRows(
    tx,
    sql`INSERT INTO notification_reads (user_id, notification_id, read_at)
        SELECT ${reader.userId}::uuid, n.id, ${at.toISOString()}::timestamptz FROM notifications n
         WHERE ${visibleTo(reader)} AND ${unreadBy(reader)}
        ON CONFLICT DO NOTHING
        RETURNING notification_id`,
  );
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

/**
 * What a socket starting at position `from` (an SQL expression: its resume point, or the latest position) needs, as one
 * `json` value the live gateway reads in the socket's start statement: `unread`, the user's unread notifications whose
 * live event is at or before `from`, and `joined`, when the user joined the firm in epoch ms rounded up (firm-wide
 * notifications made before are not theirs; `created_at` is whole milliseconds, so `created_at >= joined` in ms is
 * the inbox's rule exactly), or null when the user is no active member.
 */
export function socketStartSql(reader: Reader, from: SQL): SQL {
  return sql`json_build_object(
    'unread', (SELECT count(*) FROM notifications n
                WHERE ${visibleTo(reader)} AND ${unreadBy(reader)}
                  -- rows from before migration 0030 have no live event of their own: the socket has had them
                  AND coalesce(n.live_position, 0) <= ${from}),
    'joined', (SELECT ceil(extract(epoch FROM a.created_at) * 1000) FROM user_accounts a
                WHERE a.user_id = ${reader.userId}::uuid AND a.client_id = ${reader.clientId}::uuid AND a.status = 'active'))`;
}

/** `socketStartSql`'s value as read back (json numbers; a count may arrive as a string from some drivers). */
export function decodeSocketStart(value: unknown): { unread: number; joinedAt: number | null } {
  const start = (typeof value === 'string' ? JSON.parse(value) : value) as { unread?: number | string; joined?: number | string | null };
  return {
    unread: Number(start?.unread ?? 0),
    joinedAt: start?.joined === null || start?.joined === undefined ? null : Number(start.joined),
  };
}
