/** SQL of the WhatsApp link. Every function takes the caller's transaction (or the database). */
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import {
  chatChannels,
  chatMembers,
  chatMessages,
  finstruments,
  quotes,
  userAccountPermissions,
  userAccounts,
  users,
  whatsappChannelLinks,
  whatsappConsents,
  whatsappMessages,
} from '../../db/schema';

export type WhatsAppMessageRow = typeof whatsappMessages.$inferSelect;
export type WhatsAppMessageInsert = typeof whatsappMessages.$inferInsert;
export type ConsentRow = typeof whatsappConsents.$inferSelect;
export type StatusEntry = { status: string; at: string; reason: string | null };

export const PRODUCER_CURSOR = 'whatsapp';

export async function quotesByIds(tx: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: quotes.id,
      clientId: quotes.clientId,
      userId: quotes.userId,
      whatsappConsent: quotes.whatsappConsent,
      createdAt: quotes.createdAt,
      quoteType: quotes.quoteType,
      finstrumentId: quotes.finstrumentId,
      isin: finstruments.isin,
      displayName: finstruments.displayName,
    })
    .from(quotes)
    .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
    .where(inArray(quotes.id, [...ids]));
}

export interface Recipient {
  userId: string;
  clientId: string;
  mobile: string | null;
}

/** The active members of these firms who can act on a trade (`client.can_trade`): a quote alert's recipients. */
export async function tradingUsers(tx: DbOrTx, clientIds: readonly string[]): Promise<Recipient[]> {
  if (clientIds.length === 0) return [];
  return tx
    .select({ userId: users.id, clientId: userAccounts.clientId, mobile: users.mobile })
    .from(userAccounts)
    .innerJoin(users, eq(users.id, userAccounts.userId))
    .innerJoin(
      userAccountPermissions,
      and(eq(userAccountPermissions.userAccountId, userAccounts.id), eq(userAccountPermissions.permission, 'client.can_trade')),
    )
    .where(and(inArray(userAccounts.clientId, [...clientIds]), eq(userAccounts.status, 'active'), eq(users.isActive, true)));
}

// ---- consent ----

export interface StandingConsent {
  consented: boolean;
  source: string | null;
  at: Date | null;
}

/**
 * The standing answer of each user: the newest history row (by `at`, then id), else the registration flag
 * (`users.whatsapp_consent`, given at `users.created_at`). Inactive users have none.
 */
export async function standingConsents(tx: DbOrTx, userIds: readonly string[]): Promise<Map<string, StandingConsent>> {
  const result = new Map<string, StandingConsent>();
  if (userIds.length === 0) return result;
  const rows = await sqlRows<{
    id: string;
    active: boolean;
    flag: boolean;
    created_at: Date;
    consented: boolean | null;
    source: string | null;
    at: Date | null;
  }>(
    tx,
    sql`SELECT u.id, u.is_active AS active, u.whatsapp_consent AS flag, u.created_at, c.consented, c.source, c.at
          FROM ${users} u
          LEFT JOIN LATERAL (SELECT consented, source, at FROM ${whatsappConsents} w WHERE w.user_id = u.id
                              ORDER BY w.at DESC, w.id DESC LIMIT 1) c ON true
         WHERE u.id IN (${sql.join(
           userIds.map((id) => sql`${id}`),
           sql`, `,
         )})`,
  );
  for (const row of rows) {
    const consented = row.active && (row.consented ?? row.flag);
    result.set(
      row.id,
      row.consented !== null
        ? { consented, source: row.source, at: new Date(row.at!) }
        : { consented, source: row.flag ? 'registration' : null, at: row.flag ? new Date(row.created_at) : null },
    );
  }
  return result;
}

export async function consentHistory(db: DbOrTx, userId: string): Promise<ConsentRow[]> {
  return db
    .select()
    .from(whatsappConsents)
    .where(eq(whatsappConsents.userId, userId))
    .orderBy(desc(whatsappConsents.at), desc(whatsappConsents.id))
    .limit(100);
}

export async function insertConsent(
  tx: DbOrTx,
  row: { userId: string; consented: boolean; source: string; sourceRef: string | null; at: Date },
) {
  await tx.insert(whatsappConsents).values(row);
}

/** Keeps the cached flag on the user equal to the standing answer. */
export async function setConsentFlag(tx: DbOrTx, userId: string, consented: boolean): Promise<void> {
  await tx.update(users).set({ whatsappConsent: consented }).where(eq(users.id, userId));
}

export async function userContact(db: DbOrTx, userId: string) {
  const [row] = await db.select({ mobile: users.mobile, isActive: users.isActive }).from(users).where(eq(users.id, userId));
  return row;
}

/** The user whose mobile is this WhatsApp number (an Indian 10-digit mobile, with or without 91), if any. */
export async function userByMobile(db: DbOrTx, whatsAppNumber: string) {
  const local = whatsAppNumber.length === 12 && whatsAppNumber.startsWith('91') ? whatsAppNumber.slice(2) : whatsAppNumber;
  const [row] = await db
    .select({ userId: users.id, clientId: userAccounts.clientId })
    .from(users)
    .innerJoin(userAccounts, and(eq(userAccounts.userId, users.id), eq(userAccounts.status, 'active')))
    .where(and(eq(users.mobile, local), eq(users.isActive, true)))
    .orderBy(desc(userAccounts.isDefault))
    .limit(1);
  return row;
}

/** Each user's firm for a bridged message: their default active membership. */
export async function firmsOf(tx: DbOrTx, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx
    .select({ userId: userAccounts.userId, clientId: userAccounts.clientId, isDefault: userAccounts.isDefault })
    .from(userAccounts)
    .where(and(inArray(userAccounts.userId, [...userIds]), eq(userAccounts.status, 'active')));
  const result = new Map<string, string>();
  for (const row of rows.sort((a, b) => Number(a.isDefault) - Number(b.isDefault))) result.set(row.userId, row.clientId);
  return result;
}

// ---- bridged messages ----

/** Inserts, skipping any (direction, number, source ref) already there; returns the rows actually inserted. */
export async function insertMessages(tx: DbOrTx, rows: readonly WhatsAppMessageInsert[]): Promise<WhatsAppMessageRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(whatsappMessages)
    .values([...rows])
    .onConflictDoNothing({ target: [whatsappMessages.direction, whatsappMessages.phone, whatsappMessages.sourceRef] })
    .returning();
}

/** Queued outbound messages due now, locked (another node's dispatcher skips them). */
export async function dueMessages(tx: DbOrTx, now: Date, limit: number): Promise<WhatsAppMessageRow[]> {
  return tx
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.status, 'queued'), lte(whatsappMessages.nextAttemptAt, now)))
    .orderBy(asc(whatsappMessages.nextAttemptAt), asc(whatsappMessages.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function messageByProviderId(tx: DbOrTx, providerMessageId: string): Promise<WhatsAppMessageRow | undefined> {
  const [row] = await tx.select().from(whatsappMessages).where(eq(whatsappMessages.providerMessageId, providerMessageId)).for('update');
  return row;
}

/** Changes a message and appends `entry` to its status history (when given). */
export async function updateMessage(
  tx: DbOrTx,
  id: string,
  patch: Partial<
    Pick<
      WhatsAppMessageInsert,
      'status' | 'providerMessageId' | 'failureReason' | 'attempts' | 'nextAttemptAt' | 'chatMessageId' | 'channelId'
    >
  >,
  entry: StatusEntry | null,
  now: Date,
): Promise<void> {
  await tx
    .update(whatsappMessages)
    .set({
      ...patch,
      updatedAt: now,
      ...(entry ? { statusHistory: sql`${whatsappMessages.statusHistory} || ${JSON.stringify([entry])}::jsonb` } : {}),
    })
    .where(eq(whatsappMessages.id, id));
}

/** The newest outbound message to this number that came from a linked chat channel: where a bare reply goes. */
export async function lastChannelMessageTo(db: DbOrTx, phone: string): Promise<WhatsAppMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsappMessages)
    .where(
      and(eq(whatsappMessages.direction, 'outbound'), eq(whatsappMessages.phone, phone), sql`${whatsappMessages.channelId} IS NOT NULL`),
    )
    .orderBy(desc(whatsappMessages.createdAt))
    .limit(1);
  return row;
}

export async function outboundByProviderId(db: DbOrTx, providerMessageId: string): Promise<WhatsAppMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.providerMessageId, providerMessageId), eq(whatsappMessages.direction, 'outbound')));
  return row;
}

/** Whether the user wrote to us within the window (free text may be sent; otherwise a template). */
export async function lastInboundAt(tx: DbOrTx, phones: readonly string[]): Promise<Map<string, Date>> {
  if (phones.length === 0) return new Map();
  const rows = await tx
    .select({ phone: whatsappMessages.phone, at: sql<Date>`max(${whatsappMessages.createdAt})` })
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.direction, 'inbound'), inArray(whatsappMessages.phone, [...phones])))
    .groupBy(whatsappMessages.phone);
  return new Map(rows.map((r) => [r.phone, new Date(r.at)]));
}

export async function listMessages(db: DbOrTx, clientId: string, options: { direction?: string; limit: number; offset: number }) {
  const where = options.direction
    ? and(eq(whatsappMessages.clientId, clientId), eq(whatsappMessages.direction, options.direction))
    : eq(whatsappMessages.clientId, clientId);
  const [total] = await db.select({ n: count() }).from(whatsappMessages).where(where);
  const rows = await db
    .select({
      message: whatsappMessages,
      firstName: users.firstName,
      lastName: users.lastName,
      channelUrl: chatChannels.url,
    })
    .from(whatsappMessages)
    .leftJoin(users, eq(users.id, whatsappMessages.userId))
    .leftJoin(chatChannels, eq(chatChannels.id, whatsappMessages.channelId))
    .where(where)
    .orderBy(desc(whatsappMessages.createdAt), desc(whatsappMessages.id))
    .limit(options.limit)
    .offset(options.offset);
  return { count: Number(total?.n ?? 0), rows };
}

// ---- linked chat channels ----

export async function channelByUrl(db: DbOrTx, url: string) {
  const [row] = await db.select().from(chatChannels).where(eq(chatChannels.url, url)).for('update');
  return row;
}

export async function channelById(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ url: chatChannels.url, isWhatsappLinked: chatChannels.isWhatsappLinked })
    .from(chatChannels)
    .where(eq(chatChannels.id, id));
  return row;
}

export async function membership(db: DbOrTx, channelId: string, userId: string) {
  const [row] = await db
    .select({ state: chatMembers.state, role: chatMembers.role, hidden: chatMembers.hidden })
    .from(chatMembers)
    .where(and(eq(chatMembers.channelId, channelId), eq(chatMembers.userId, userId), isNull(chatMembers.leftAt)));
  return row;
}

export async function setLinked(tx: DbOrTx, channelId: string, linked: boolean, relayFrom: number, by: string, now: Date): Promise<void> {
  await tx.update(chatChannels).set({ isWhatsappLinked: linked }).where(eq(chatChannels.id, channelId));
  if (linked)
    await tx
      .insert(whatsappChannelLinks)
      .values({ channelId, relayedPosition: relayFrom, linkedBy: by, linkedAt: now })
      .onConflictDoNothing({ target: whatsappChannelLinks.channelId });
  else await tx.delete(whatsappChannelLinks).where(eq(whatsappChannelLinks.channelId, channelId));
}

/** Linked channels with messages their relay has not handled, locked (one relay at a time per channel). */
export async function linksBehind(tx: DbOrTx, limit: number) {
  return sqlRows<{ channel_id: string; url: string; name: string; relayed_position: number; last_position: number }>(
    tx,
    sql`SELECT l.channel_id, c.url, c.name, l.relayed_position::float8 AS relayed_position, c.last_position::float8 AS last_position
          FROM ${whatsappChannelLinks} l JOIN ${chatChannels} c ON c.id = l.channel_id
         WHERE c.last_position > l.relayed_position AND c.is_whatsapp_linked
         ORDER BY l.channel_id LIMIT ${limit} FOR UPDATE OF l SKIP LOCKED`,
  );
}

export async function channelMessagesAfter(tx: DbOrTx, channelId: string, position: number, limit: number) {
  return tx
    .select({
      id: chatMessages.id,
      position: chatMessages.position,
      senderId: chatMessages.senderId,
      messageType: chatMessages.messageType,
      message: chatMessages.message,
      data: chatMessages.data,
      deletedAt: chatMessages.deletedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(and(eq(chatMessages.channelId, channelId), gt(chatMessages.position, position)))
    .orderBy(asc(chatMessages.position))
    .limit(limit);
}

/** The current, visible, joined members of a channel with their mobiles. */
export async function channelMembers(tx: DbOrTx, channelId: string) {
  return tx
    .select({ userId: users.id, mobile: users.mobile })
    .from(chatMembers)
    .innerJoin(users, eq(users.id, chatMembers.userId))
    .where(
      and(
        eq(chatMembers.channelId, channelId),
        isNull(chatMembers.leftAt),
        eq(chatMembers.state, 'joined'),
        eq(chatMembers.hidden, false),
        eq(users.isActive, true),
      ),
    );
}

export async function setRelayed(tx: DbOrTx, channelId: string, position: number): Promise<void> {
  await tx.update(whatsappChannelLinks).set({ relayedPosition: position }).where(eq(whatsappChannelLinks.channelId, channelId));
}
