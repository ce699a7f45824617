/**
 * SQL of the chat module. Every function takes the connection or transaction to run on (PGlite has
 * one connection: never reach for the pool inside a transaction). Positions are gap-free per channel:
 * `nextPosition` is the only writer of `chat_channels.last_position`, and its row lock serialises the
 * message transactions of one channel.
 */
import type { Role } from '@dart/contracts';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { hasPgError, type Database, type DbOrTx } from '../../db/client';
import { chatBans, chatChannels, chatFiles, chatMembers, chatMessageEdits, chatMessages, chatSessions, users } from '../../db/schema';

export type ChannelRow = typeof chatChannels.$inferSelect;
export type MemberRow = typeof chatMembers.$inferSelect;
export type FileRow = typeof chatFiles.$inferSelect;

/** Who is acting: a user with the facts chat rules need. */
export interface ChatActor {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  clientId: string;
  brandName: string;
  isActive: boolean;
  isStaff: boolean;
  acceptedTerms: boolean;
  roles: Role[];
}

/** A user as chat shows them (members, search results). */
export interface UserCard {
  userId: string;
  name: string;
  clientId: string;
  brandName: string;
  isActive: boolean;
  isStaff: boolean;
  onboarded: boolean;
}

/** A member row joined with its user card and the inviter's name. */
export interface MemberWithUser extends UserCard {
  channelId: string;
  state: 'joined' | 'invited';
  role: 'operator' | 'none';
  hidden: boolean;
  inviterId: string | null;
  inviterName: string | null;
  invitedAt: Date | null;
  joinedPosition: number;
  readPosition: number;
  deliveredPosition: number;
}

/** A stored message with its sender card and file, ready to become a `ChatMessage`. */
export interface MessageRecord {
  id: string;
  channelUrl: string;
  position: number;
  senderId: string | null;
  senderName: string | null;
  senderIsStaff: boolean;
  reqId: string | null;
  messageType: 'user' | 'file' | 'admin';
  mimeType: string | null;
  message: string;
  data: Record<string, unknown>;
  customType: string | null;
  ogMetaData: Record<string, unknown> | null;
  fileId: string | null;
  fileName: string | null;
  fileSize: number | null;
  fileType: string | null;
  createdAt: Date;
  updatedAt: Date | null;
  deletedAt: Date | null;
  /** The channel's change sequence at this message's latest edit or delete (0 = never changed). */
  changeSeq: number;
}

type RawRow = Record<string, unknown>;
const isUniqueViolation = (error: unknown, constraint: string) =>
  hasPgError(error, '23505', (e) => e.constraint === constraint || (e.message ?? '').includes(constraint));
/**
 * Where hot-path SQL runs: a Drizzle handle (inside a transaction), or the raw `Database` outside one,
 * which skips Drizzle's per-call overhead (about 1 ms → 0.2 ms a statement on PGlite).
 */
export type Runner = DbOrTx | Database;
const dialect = new PgDialect();
async function rowsOf(db: Runner, query: SQL): Promise<RawRow[]> {
  if ('driver' in db) {
    const compiled = dialect.sqlToQuery(query);
    return db.query<RawRow>(compiled.sql, compiled.params);
  }
  // Both drivers answer `{ rows }` (node-postgres QueryResult, PGlite Results).
  return ((await db.execute(query)) as unknown as { rows: RawRow[] }).rows;
}
const num = (v: unknown) => Number(v ?? 0);
const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
const fullName = (first: unknown, last: unknown) => `${String(first ?? '')} ${String(last ?? '')}`.trim();

const MESSAGE_SELECT = sql`
  SELECT m.id, ch.url AS channel_url, m.position, m.sender_id, m.req_id, m.message_type, m.mime_type, m.message, m.data,
         m.custom_type, m.og_meta_data, m.file_id, m.created_at, m.updated_at, m.deleted_at, m.change_seq,
         u.first_name, u.last_name, (s.user_id IS NOT NULL) AS is_staff,
         f.name AS file_name, f.size AS file_size, f.mime_type AS file_type
    FROM chat_messages m
    JOIN chat_channels ch ON ch.id = m.channel_id
    LEFT JOIN users u ON u.id = m.sender_id
    LEFT JOIN chat_staff s ON s.user_id = m.sender_id
    LEFT JOIN chat_files f ON f.id = m.file_id`;

function toMessage(r: RawRow): MessageRecord {
  return {
    id: String(r.id),
    channelUrl: String(r.channel_url),
    position: num(r.position),
    senderId: (r.sender_id as string | null) ?? null,
    senderName: r.sender_id ? fullName(r.first_name, r.last_name) : null,
    senderIsStaff: r.is_staff === true,
    reqId: (r.req_id as string | null) ?? null,
    messageType: r.message_type as MessageRecord['messageType'],
    mimeType: (r.mime_type as string | null) ?? null,
    message: String(r.message),
    data: (r.data as Record<string, unknown>) ?? {},
    customType: (r.custom_type as string | null) ?? null,
    ogMetaData: (r.og_meta_data as Record<string, unknown> | null) ?? null,
    fileId: (r.file_id as string | null) ?? null,
    fileName: (r.file_name as string | null) ?? null,
    fileSize: r.file_size === null || r.file_size === undefined ? null : num(r.file_size),
    fileType: (r.file_type as string | null) ?? null,
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at),
    deletedAt: date(r.deleted_at),
    changeSeq: num(r.change_seq),
  };
}

const USER_CARD_SELECT = sql`
  SELECT u.id AS user_id, u.first_name, u.last_name, u.is_active, u.has_accepted_chat_terms, (s.user_id IS NOT NULL) AS is_staff,
         acct.client_id, acct.client_name
    FROM users u
    LEFT JOIN chat_staff s ON s.user_id = u.id
    LEFT JOIN LATERAL (
      SELECT a.client_id, c.name AS client_name FROM user_accounts a JOIN clients c ON c.id = a.client_id
       WHERE a.user_id = u.id ORDER BY a.is_default DESC, a.created_at LIMIT 1) acct ON true`;

function toCard(r: RawRow): UserCard {
  return {
    userId: String(r.user_id),
    name: fullName(r.first_name, r.last_name),
    clientId: String(r.client_id ?? ''),
    brandName: String(r.client_name ?? ''),
    isActive: r.is_active === true,
    isStaff: r.is_staff === true,
    onboarded: r.has_accepted_chat_terms === true,
  };
}

export function createChatRepository() {
  return {
    // ---- people ----------------------------------------------------------------------------
    async loadActor(db: Runner, userId: string): Promise<ChatActor | null> {
      const [r] = await rowsOf(
        db,
        sql`SELECT u.id, u.first_name, u.last_name, u.email, u.is_active, u.has_accepted_chat_terms,
                   (SELECT true FROM chat_staff s WHERE s.user_id = u.id) AS is_staff,
                   acct.client_id, acct.client_name, acct.status,
                   (SELECT array_agg(r.role ORDER BY r.role) FROM user_account_roles r WHERE r.user_account_id = acct.id) AS roles
              FROM users u
              LEFT JOIN LATERAL (
                SELECT a.id, a.client_id, a.status, c.name AS client_name FROM user_accounts a JOIN clients c ON c.id = a.client_id
                 WHERE a.user_id = u.id ORDER BY a.is_default DESC, a.created_at LIMIT 1) acct ON true
             WHERE u.id = ${userId}`,
      );
      if (!r) return null;
      return {
        userId: String(r.id),
        firstName: String(r.first_name),
        lastName: String(r.last_name),
        email: String(r.email),
        clientId: String(r.client_id ?? ''),
        brandName: String(r.client_name ?? ''),
        isActive: r.is_active === true && r.status === 'active',
        isStaff: r.is_staff === true,
        acceptedTerms: r.has_accepted_chat_terms === true,
        roles: ((r.roles as Role[] | null) ?? []).slice(),
      };
    },

    async userCards(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, UserCard>> {
      if (userIds.length === 0) return new Map();
      const list = sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = await rowsOf(db, sql`${USER_CARD_SELECT} WHERE u.id IN (${list})`);
      return new Map(rows.map((r) => [String(r.user_id), toCard(r)]));
    },

    async acceptTerms(db: DbOrTx, userId: string): Promise<boolean> {
      const [before] = await db.select({ accepted: users.hasAcceptedChatTerms }).from(users).where(eq(users.id, userId));
      await db.update(users).set({ hasAcceptedChatTerms: true, updatedAt: new Date() }).where(eq(users.id, userId));
      return before?.accepted ?? false;
    },

    /**
     * User search (spec §7): active users other than the caller, matched on name, e-mail or firm.
     * `connections` = users sharing a current channel with the caller; they come first.
     */
    async searchUsers(
      db: DbOrTx,
      callerId: string,
      callerClientId: string,
      input: { search: string; connectionsOnly: boolean; offset: number; limit: number },
    ): Promise<{ count: number; rows: Array<UserCard & { isConnection: boolean }> }> {
      const like = `%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const connections = sql`
        SELECT DISTINCT other.user_id FROM chat_members mine
          JOIN chat_members other ON other.channel_id = mine.channel_id AND other.user_id <> mine.user_id
                                 AND other.left_at IS NULL AND other.hidden = false
         WHERE mine.user_id = ${callerId} AND mine.left_at IS NULL AND mine.hidden = false`;
      const where = sql`u.id <> ${callerId} AND u.is_active
        AND (${input.search} = '' OR u.first_name || ' ' || u.last_name ILIKE ${like} OR u.email ILIKE ${like} OR acct.client_name ILIKE ${like})
        AND (${!input.connectionsOnly} OR u.id IN (${connections}))`;
      const rows = await rowsOf(
        db,
        sql`WITH conn AS (${connections})
            ${USER_CARD_SELECT}
             WHERE ${where}
             ORDER BY (u.id IN (SELECT user_id FROM conn)) DESC, (acct.client_id = ${callerClientId}) DESC, u.first_name, u.last_name, u.id
             LIMIT ${input.limit} OFFSET ${input.offset}`,
      );
      const [total] = await rowsOf(db, sql`SELECT count(*)::int AS n FROM (${USER_CARD_SELECT} WHERE ${where}) x`);
      const connected = new Set((await rowsOf(db, connections)).map((r) => String(r.user_id)));
      return { count: num(total?.n), rows: rows.map((r) => ({ ...toCard(r), isConnection: connected.has(String(r.user_id)) })) };
    },

    // ---- sessions --------------------------------------------------------------------------
    async insertSession(db: DbOrTx, values: typeof chatSessions.$inferInsert) {
      const [row] = await db.insert(chatSessions).values(values).returning();
      return row!;
    },
    async findSession(db: Runner, tokenHash: string) {
      const [r] = await rowsOf(
        db,
        sql`SELECT cs.id, cs.user_id, cs.auth_session_id, cs.expires_at, cs.revoked_at,
                   s.revoked_at AS auth_revoked_at, s.expires_at AS auth_expires_at
              FROM chat_sessions cs LEFT JOIN auth_sessions s ON s.id = cs.auth_session_id
             WHERE cs.token_hash = ${tokenHash}`,
      );
      if (!r) return null;
      return {
        id: String(r.id),
        userId: String(r.user_id),
        authSessionId: (r.auth_session_id as string | null) ?? null,
        expiresAt: date(r.expires_at)!,
        revokedAt: date(r.revoked_at),
        authRevokedAt: date(r.auth_revoked_at),
        authExpiresAt: date(r.auth_expires_at),
      };
    },
    async revokeSessions(db: DbOrTx, userId: string): Promise<number> {
      const rows = await db
        .update(chatSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(chatSessions.userId, userId), isNull(chatSessions.revokedAt)))
        .returning({ id: chatSessions.id });
      return rows.length;
    },

    // ---- channels and members ----------------------------------------------------------------
    async channelByUrl(db: DbOrTx, url: string): Promise<ChannelRow | undefined> {
      const [row] = await db.select().from(chatChannels).where(eq(chatChannels.url, url));
      return row;
    },
    async channelByDistinctKey(db: DbOrTx, key: string): Promise<ChannelRow | undefined> {
      const [row] = await db.select().from(chatChannels).where(eq(chatChannels.distinctKey, key));
      return row;
    },
    /** Locks the channel row (membership changes of one channel serialise on it, like positions). */
    async lockChannel(db: DbOrTx, id: string): Promise<ChannelRow | undefined> {
      const [r] = await rowsOf(db, sql`SELECT id FROM chat_channels WHERE id = ${id} FOR UPDATE`);
      if (!r) return undefined;
      const [row] = await db.select().from(chatChannels).where(eq(chatChannels.id, id));
      return row;
    },
    async insertChannel(db: DbOrTx, values: typeof chatChannels.$inferInsert): Promise<ChannelRow> {
      const [row] = await db.insert(chatChannels).values(values).returning();
      return row!;
    },
    /** Inserts the channel unless its distinct key exists; returns null on that conflict. */
    async insertDistinctChannel(db: DbOrTx, values: typeof chatChannels.$inferInsert): Promise<ChannelRow | null> {
      const [row] = await db.insert(chatChannels).values(values).onConflictDoNothing({ target: chatChannels.distinctKey }).returning();
      return row ?? null;
    },
    async member(db: DbOrTx, channelId: string, userId: string): Promise<MemberRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMembers)
        .where(and(eq(chatMembers.channelId, channelId), eq(chatMembers.userId, userId)));
      return row;
    },
    async upsertMember(db: DbOrTx, values: typeof chatMembers.$inferInsert): Promise<void> {
      await db
        .insert(chatMembers)
        .values(values)
        .onConflictDoUpdate({
          target: [chatMembers.channelId, chatMembers.userId],
          set: {
            state: values.state ?? 'joined',
            role: values.role ?? 'none',
            hidden: values.hidden ?? false,
            inviterId: values.inviterId ?? null,
            invitedAt: values.invitedAt ?? null,
            joinedAt: values.joinedAt ?? null,
            joinedPosition: values.joinedPosition ?? 0,
            readPosition: sql`GREATEST(${chatMembers.readPosition}, ${values.readPosition ?? 0})`,
            leftAt: null,
          },
        });
    },
    async updateMember(db: DbOrTx, channelId: string, userId: string, set: Partial<typeof chatMembers.$inferInsert>): Promise<void> {
      await db
        .update(chatMembers)
        .set(set)
        .where(and(eq(chatMembers.channelId, channelId), eq(chatMembers.userId, userId)));
    },
    async setRoles(db: DbOrTx, channelId: string, userIds: readonly string[], role: 'operator' | 'none'): Promise<void> {
      if (userIds.length === 0) return;
      await db
        .update(chatMembers)
        .set({ role })
        .where(and(eq(chatMembers.channelId, channelId), inArray(chatMembers.userId, [...userIds]), isNull(chatMembers.leftAt)));
    },
    /**
     * When no joined member of the channel is an operator any more, makes the longest-joined joined
     * member one (joined_at, then membership age); the caller holds the channel's row lock. Returns
     * the promoted user, or null when an operator remains or nobody has joined.
     */
    async promoteLongestJoined(db: DbOrTx, channelId: string): Promise<string | null> {
      const [r] = await rowsOf(
        db,
        sql`UPDATE chat_members SET role = 'operator'
             WHERE channel_id = ${channelId}
               AND NOT EXISTS (SELECT 1 FROM chat_members o WHERE o.channel_id = ${channelId} AND o.left_at IS NULL
                                 AND NOT o.hidden AND o.state = 'joined' AND o.role = 'operator')
               AND user_id = (SELECT j.user_id FROM chat_members j WHERE j.channel_id = ${channelId} AND j.left_at IS NULL
                                 AND NOT j.hidden AND j.state = 'joined'
                               ORDER BY j.joined_at ASC NULLS LAST, j.created_at ASC, j.user_id ASC LIMIT 1)
         RETURNING user_id`,
      );
      return r ? String(r.user_id) : null;
    },
    async isBanned(db: DbOrTx, channelId: string, userIds: readonly string[]): Promise<string[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .select({ userId: chatBans.userId })
        .from(chatBans)
        .where(and(eq(chatBans.channelId, channelId), inArray(chatBans.userId, [...userIds])));
      return rows.map((r) => r.userId);
    },
    async insertBan(db: DbOrTx, channelId: string, userId: string, bannedBy: string): Promise<void> {
      await db.insert(chatBans).values({ channelId, userId, bannedBy }).onConflictDoNothing();
    },
    /** Current members (not left), with user cards and inviter names, of several channels. */
    async membersOf(db: DbOrTx, channelIds: readonly string[]): Promise<MemberWithUser[]> {
      if (channelIds.length === 0) return [];
      const list = sql.join(
        channelIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = await rowsOf(
        db,
        sql`SELECT m.channel_id, m.state, m.role, m.hidden, m.inviter_id, m.invited_at, m.joined_position, m.read_position, m.delivered_position,
                   card.*, inv.first_name AS inviter_first, inv.last_name AS inviter_last
              FROM chat_members m
              JOIN LATERAL (${USER_CARD_SELECT} WHERE u.id = m.user_id) card ON true
              LEFT JOIN users inv ON inv.id = m.inviter_id
             WHERE m.channel_id IN (${list}) AND m.left_at IS NULL
             ORDER BY m.channel_id, m.created_at, m.user_id`,
      );
      return rows.map((r) => ({
        ...toCard(r),
        channelId: String(r.channel_id),
        state: r.state as MemberWithUser['state'],
        role: r.role as MemberWithUser['role'],
        hidden: r.hidden === true,
        inviterId: (r.inviter_id as string | null) ?? null,
        inviterName: r.inviter_id ? fullName(r.inviter_first, r.inviter_last) : null,
        invitedAt: date(r.invited_at),
        joinedPosition: num(r.joined_position),
        readPosition: num(r.read_position),
        deliveredPosition: num(r.delivered_position),
      }));
    },
    async channelsByIds(db: DbOrTx, ids: readonly string[]): Promise<ChannelRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(chatChannels)
        .where(inArray(chatChannels.id, [...ids]));
    },
    /**
     * The caller's visible channels (spec §5), one page in display order: newest activity first
     * (invited channels by invite time), direct channels the caller made from a broadcast last.
     * Hidden: left/banned channels, broadcast channels of others, direct channels whose other
     * user has not onboarded (accepted the chat terms).
     */
    async listChannelIds(
      db: DbOrTx,
      userId: string,
      input: { customType?: string; after?: { group: number; at: string; url: string }; limit: number },
    ): Promise<Array<{ id: string; group: number; at: string; url: string }>> {
      const after = input.after
        ? sql`AND (x.grp > ${input.after.group} OR (x.grp = ${input.after.group} AND (x.sort_at < ${input.after.at}::timestamptz
               OR (x.sort_at = ${input.after.at}::timestamptz AND x.url > ${input.after.url}))))`
        : sql``;
      const rows = await rowsOf(
        db,
        sql`SELECT x.id, x.grp, x.sort_at, x.url FROM (
              SELECT ch.id, ch.url,
                     CASE WHEN ch.custom_type = 'direct' AND ch.data->>'created_from' = 'broadcast' AND ch.creator_id = ${userId} THEN 1 ELSE 0 END AS grp,
                     CASE WHEN m.state = 'invited' THEN COALESCE(m.invited_at, ch.created_at) ELSE COALESCE(ch.last_message_at, ch.created_at) END AS sort_at
                FROM chat_members m JOIN chat_channels ch ON ch.id = m.channel_id
               WHERE m.user_id = ${userId} AND m.left_at IS NULL AND m.hidden = false
                 AND (ch.custom_type <> 'broadcast' OR ch.creator_id = ${userId})
                 AND (${input.customType ?? null}::text IS NULL OR ch.custom_type = ${input.customType ?? null}::text)
                 AND NOT EXISTS (
                   SELECT 1 FROM chat_members o JOIN users ou ON ou.id = o.user_id
                    WHERE ch.custom_type = 'direct' AND o.channel_id = ch.id AND o.user_id <> ${userId} AND o.left_at IS NULL
                      AND ou.has_accepted_chat_terms = false)
            ) x WHERE true ${after}
            ORDER BY x.grp ASC, x.sort_at DESC, x.url ASC
            LIMIT ${input.limit}`,
      );
      return rows.map((r) => ({ id: String(r.id), group: num(r.grp), at: date(r.sort_at)!.toISOString(), url: String(r.url) }));
    },
    /** Channels the user currently belongs to (not hidden), for the socket: id, url, last position, change sequence. */
    async membershipsOf(
      db: Runner,
      userId: string,
    ): Promise<Array<{ id: string; url: string; lastPosition: number; changeSeq: number; joinedPosition: number }>> {
      const rows = await rowsOf(
        db,
        sql`SELECT ch.id, ch.url, ch.last_position, ch.change_seq, m.joined_position
              FROM chat_members m JOIN chat_channels ch ON ch.id = m.channel_id
             WHERE m.user_id = ${userId} AND m.left_at IS NULL AND m.hidden = false`,
      );
      return rows.map((r) => ({
        id: String(r.id),
        url: String(r.url),
        lastPosition: num(r.last_position),
        changeSeq: num(r.change_seq),
        joinedPosition: num(r.joined_position),
      }));
    },
    /**
     * Who sees `userId` as a member of a channel they are both current in (presence changes): the
     * visible members of the user's channels, and the creator of a broadcast the user receives
     * (the creator lists the hidden recipients).
     */
    async presenceRecipients(db: Runner, userId: string): Promise<string[]> {
      const rows = await rowsOf(
        db,
        sql`SELECT DISTINCT v.user_id FROM chat_members me
              JOIN chat_channels ch ON ch.id = me.channel_id
              JOIN chat_members v ON v.channel_id = me.channel_id AND v.user_id <> me.user_id AND v.left_at IS NULL AND NOT v.hidden
             WHERE me.user_id = ${userId} AND me.left_at IS NULL
               AND (NOT me.hidden OR (ch.custom_type = 'broadcast' AND ch.creator_id = v.user_id))`,
      );
      return rows.map((r) => String(r.user_id));
    },
    /** Each channel's last position and change sequence (the socket sweep). */
    async channelHeads(db: Runner, channelIds: readonly string[]): Promise<Map<string, { lastPosition: number; changeSeq: number }>> {
      if (channelIds.length === 0) return new Map();
      const list = sql.join(
        channelIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = await rowsOf(db, sql`SELECT id, last_position, change_seq FROM chat_channels WHERE id IN (${list})`);
      return new Map(rows.map((r) => [String(r.id), { lastPosition: num(r.last_position), changeSeq: num(r.change_seq) }]));
    },
    /** Monotonic receipts: never moves back, never past the channel's last position; read implies delivered. */
    async raiseReceipts(
      db: DbOrTx,
      channelId: string,
      userId: string,
      read: number | null,
      delivered: number | null,
    ): Promise<{ readPosition: number; deliveredPosition: number; changed: boolean } | null> {
      const r = read ?? 0;
      const d = Math.max(delivered ?? 0, r);
      const [row] = await rowsOf(
        db,
        sql`WITH cap AS (SELECT last_position FROM chat_channels WHERE id = ${channelId}),
                 old AS (SELECT read_position, delivered_position FROM chat_members
                          WHERE channel_id = ${channelId} AND user_id = ${userId} AND left_at IS NULL)
            UPDATE chat_members m
               SET read_position = GREATEST(m.read_position, LEAST(${r}::bigint, (SELECT last_position FROM cap))),
                   delivered_position = GREATEST(m.delivered_position, m.read_position, LEAST(${d}::bigint, (SELECT last_position FROM cap)))
             WHERE m.channel_id = ${channelId} AND m.user_id = ${userId} AND m.left_at IS NULL
         RETURNING m.read_position, m.delivered_position, (SELECT read_position FROM old) AS old_read, (SELECT delivered_position FROM old) AS old_delivered`,
      );
      if (!row) return null;
      const readPosition = num(row.read_position);
      const deliveredPosition = num(row.delivered_position);
      return {
        readPosition,
        deliveredPosition,
        changed: readPosition !== num(row.old_read) || deliveredPosition !== num(row.old_delivered),
      };
    },

    // ---- messages ----------------------------------------------------------------------------
    async messageByReqId(db: DbOrTx, channelId: string, senderId: string, reqId: string): Promise<MessageRecord | undefined> {
      const [r] = await rowsOf(
        db,
        sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} AND m.sender_id = ${senderId} AND m.req_id = ${reqId}`,
      );
      return r ? toMessage(r) : undefined;
    },
    async messageById(db: DbOrTx, channelId: string, id: string): Promise<MessageRecord | undefined> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const [r] = await rowsOf(db, sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} AND m.id = ${id}`);
      return r ? toMessage(r) : undefined;
    },
    /** Inserts a message; null when (channel, sender, reqId) exists already (an idempotent retry). */
    async insertMessage(db: DbOrTx, values: typeof chatMessages.$inferInsert): Promise<string | null> {
      const [row] = await db.insert(chatMessages).values(values).onConflictDoNothing().returning({ id: chatMessages.id });
      return row?.id ?? null;
    },
    async messagesByIds(db: DbOrTx, ids: readonly string[]): Promise<MessageRecord[]> {
      if (ids.length === 0) return [];
      const list = sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      return (await rowsOf(db, sql`${MESSAGE_SELECT} WHERE m.id IN (${list}) ORDER BY m.position`)).map(toMessage);
    },
    /** Messages with after < position ≤ upTo, in order, at most `limit`. */
    async messagesAfter(db: Runner, channelId: string, after: number, limit: number, upTo?: number): Promise<MessageRecord[]> {
      const cap = upTo === undefined ? sql`` : sql`AND m.position <= ${upTo}`;
      return (
        await rowsOf(
          db,
          sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} AND m.position > ${after} ${cap} ORDER BY m.position LIMIT ${limit}`,
        )
      ).map(toMessage);
    },
    /** Messages before a position (or the latest), oldest first. */
    async messagesBefore(db: DbOrTx, channelId: string, before: number | null, limit: number): Promise<MessageRecord[]> {
      const cap = before === null ? sql`` : sql`AND m.position < ${before}`;
      const rows = await rowsOf(
        db,
        sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} ${cap} ORDER BY m.position DESC LIMIT ${limit}`,
      );
      return rows.map(toMessage).toReversed();
    },
    async lastMessages(db: DbOrTx, channels: ReadonlyArray<{ id: string; lastPosition: number }>): Promise<Map<string, MessageRecord>> {
      const withMessages = channels.filter((c) => c.lastPosition > 0);
      if (withMessages.length === 0) return new Map();
      const pairs = sql.join(
        withMessages.map((c) => sql`(m.channel_id = ${c.id}::uuid AND m.position = ${c.lastPosition})`),
        sql` OR `,
      );
      const rows = await rowsOf(db, sql`${MESSAGE_SELECT} WHERE ${pairs}`);
      const byUrl = new Map(rows.map((r) => [String(r.channel_url), toMessage(r)]));
      return byUrl;
    },
    async updateMessageText(db: DbOrTx, id: string, message: string, at: Date, og: Record<string, unknown> | null): Promise<void> {
      await db.update(chatMessages).set({ message, updatedAt: at, ogMetaData: og }).where(eq(chatMessages.id, id));
    },
    async insertEdit(db: DbOrTx, values: typeof chatMessageEdits.$inferInsert): Promise<void> {
      await db.insert(chatMessageEdits).values(values);
    },
    async softDelete(db: DbOrTx, id: string, at: Date): Promise<void> {
      await db.update(chatMessages).set({ deletedAt: at }).where(eq(chatMessages.id, id));
    },
    /**
     * An edit or delete: takes the channel's next change sequence and stamps it on the message. The
     * caller holds the channel's row lock, so when change n is visible every change below n is committed.
     */
    async stampChange(db: DbOrTx, channelId: string, messageId: string): Promise<number> {
      const [r] = await rowsOf(
        db,
        sql`WITH next AS (UPDATE chat_channels SET change_seq = change_seq + 1 WHERE id = ${channelId} RETURNING change_seq)
            UPDATE chat_messages SET change_seq = (SELECT change_seq FROM next) WHERE id = ${messageId} RETURNING change_seq`,
      );
      return num(r!.change_seq);
    },
    /**
     * Messages whose latest change has after < change sequence ≤ upTo (and position ≤ maxPosition when
     * given), in change order, at most `limit`: what a client holding the changes up to `after` lacks.
     */
    async messagesChangedAfter(
      db: Runner,
      channelId: string,
      input: { after: number; upTo: number; maxPosition?: number; limit: number },
    ): Promise<MessageRecord[]> {
      const cap = input.maxPosition === undefined ? sql`` : sql`AND m.position <= ${input.maxPosition}`;
      return (
        await rowsOf(
          db,
          sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} AND m.change_seq > 0 AND m.change_seq > ${input.after}
                 AND m.change_seq <= ${input.upTo} ${cap}
               ORDER BY m.change_seq LIMIT ${input.limit}`,
        )
      ).map(toMessage);
    },
    async editsOf(db: DbOrTx, messageIds: readonly string[]): Promise<Map<string, Array<{ previous: string; at: Date }>>> {
      const map = new Map<string, Array<{ previous: string; at: Date }>>();
      if (messageIds.length === 0) return map;
      const rows = await db
        .select()
        .from(chatMessageEdits)
        .where(inArray(chatMessageEdits.messageId, [...messageIds]))
        .orderBy(chatMessageEdits.id);
      for (const r of rows) {
        const list = map.get(r.messageId) ?? [];
        list.push({ previous: r.previousMessage, at: r.editedAt });
        map.set(r.messageId, list);
      }
      return map;
    },
    async messagesInRange(db: DbOrTx, channelId: string, from: Date, to: Date): Promise<MessageRecord[]> {
      return (
        await rowsOf(
          db,
          sql`${MESSAGE_SELECT} WHERE m.channel_id = ${channelId} AND m.created_at >= ${from.toISOString()}::timestamptz
                AND m.created_at <= ${to.toISOString()}::timestamptz ORDER BY m.position`,
        )
      ).map(toMessage);
    },
    /** Firms with anyone who was ever a member (export by their compliance officers). */
    async memberClientIds(db: DbOrTx, channelId: string): Promise<string[]> {
      const rows = await rowsOf(
        db,
        sql`SELECT DISTINCT a.client_id FROM chat_members m JOIN user_accounts a ON a.user_id = m.user_id WHERE m.channel_id = ${channelId}`,
      );
      return rows.map((r) => String(r.client_id));
    },

    // ---- files ----------------------------------------------------------------------------------
    async insertFile(db: DbOrTx, values: typeof chatFiles.$inferInsert): Promise<FileRow> {
      const [row] = await db.insert(chatFiles).values(values).returning();
      return row!;
    },
    async fileById(db: DbOrTx, id: string): Promise<FileRow | undefined> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const [row] = await db.select().from(chatFiles).where(eq(chatFiles.id, id));
      return row;
    },
  };
}
export type ChatRepository = ReturnType<typeof createChatRepository>;

/** Ids of the members who receive a channel's live traffic (current, not hidden broadcast recipients). */
export async function recipientIdsOf(db: Runner, channelId: string): Promise<string[]> {
  // Raw SQL on the hot path: the query builder costs several times more per call on PGlite.
  const rows = await rowsOf(
    db,
    sql`SELECT user_id FROM chat_members WHERE channel_id = ${channelId} AND left_at IS NULL AND hidden = false`,
  );
  return rows.map((r) => String(r.user_id));
}

/** What a send needs to know about the channel and the sender's membership, in one query. */
export async function sendTarget(
  db: Runner,
  url: string,
  userId: string,
): Promise<{ id: string; url: string; customType: string; creatorId: string | null; state: string | null; current: boolean } | null> {
  const [r] = await rowsOf(
    db,
    sql`SELECT ch.id, ch.url, ch.custom_type, ch.creator_id, m.state, (m.user_id IS NOT NULL AND m.left_at IS NULL AND NOT m.hidden) AS current
          FROM chat_channels ch LEFT JOIN chat_members m ON m.channel_id = ch.id AND m.user_id = ${userId}
         WHERE ch.url = ${url}`,
  );
  if (!r) return null;
  return {
    id: String(r.id),
    url: String(r.url),
    customType: String(r.custom_type),
    creatorId: (r.creator_id as string | null) ?? null,
    state: (r.state as string | null) ?? null,
    current: r.current === true,
  };
}

/**
 * The whole hot path of a plain message in one round trip (syscalls, not SQL, dominate the cost per
 * message): checks the sender's membership, takes the next position under the channel's row lock,
 * inserts the message, raises the sender's receipts and returns the channel's recipients. Nothing is
 * written unless the sender is a joined member and the channel is not a broadcast (`position` null then;
 * the caller looks at `target` to answer). The recipients come from the statement's snapshot: a member
 * added by a transaction that committed while this one waited for the row lock is not listed, and gets the
 * message from the database on their next message or sweep instead.
 */
export async function appendPlainMessage(
  db: Runner,
  url: string,
  m: {
    id: string;
    senderId: string;
    reqId: string;
    message: string;
    data: Record<string, unknown>;
    customType: string | null;
    createdAt: Date;
  },
): Promise<{
  target: { id: string; url: string; customType: string; creatorId: string | null; state: string | null; current: boolean } | null;
  position: number | null;
  recipients: string[];
}> {
  const at = m.createdAt.toISOString();
  let rows: RawRow[];
  try {
    rows = await rowsOf(
      db,
      sql`WITH target AS (
            SELECT ch.id, ch.url, ch.custom_type, ch.creator_id, mem.state,
                   (mem.user_id IS NOT NULL AND mem.left_at IS NULL AND NOT mem.hidden) AS current
              FROM chat_channels ch LEFT JOIN chat_members mem ON mem.channel_id = ch.id AND mem.user_id = ${m.senderId}::uuid
             WHERE ch.url = ${url}),
          pos AS (
            UPDATE chat_channels SET last_position = last_position + 1, last_message_at = ${at}::timestamptz
             WHERE id = (SELECT id FROM target WHERE current AND state = 'joined' AND custom_type <> 'broadcast')
         RETURNING id, last_position),
          ins AS (
            INSERT INTO chat_messages (id, channel_id, position, sender_id, req_id, message_type, message, data, custom_type, created_at)
            SELECT ${m.id}::uuid, pos.id, pos.last_position, ${m.senderId}::uuid, ${m.reqId}::text, 'user', ${m.message}::text,
                   ${JSON.stringify(m.data)}::jsonb, ${m.customType}::text, ${at}::timestamptz
              FROM pos
         RETURNING channel_id, position),
          receipt AS (
            UPDATE chat_members SET read_position = GREATEST(read_position, ins.position),
                                    delivered_position = GREATEST(delivered_position, ins.position)
              FROM ins
             WHERE chat_members.channel_id = ins.channel_id AND chat_members.user_id = ${m.senderId}::uuid)
          SELECT t.id, t.url, t.custom_type, t.creator_id, t.state, t.current, (SELECT position FROM ins) AS position,
                 CASE WHEN EXISTS (SELECT 1 FROM ins) THEN
                   (SELECT array_agg(r.user_id::text) FROM chat_members r WHERE r.channel_id = t.id AND r.left_at IS NULL AND NOT r.hidden)
                 END AS recipients
            FROM target t`,
    );
  } catch (error) {
    // A duplicate reqId fails the whole statement: nothing was written and no position was used.
    if (isUniqueViolation(error, 'chat_messages_req_key')) return { target: null, position: -1, recipients: [] };
    throw error;
  }
  const r = rows[0];
  if (!r) return { target: null, position: null, recipients: [] };
  const recipients = r.recipients;
  return {
    target: {
      id: String(r.id),
      url: String(r.url),
      customType: String(r.custom_type),
      creatorId: (r.creator_id as string | null) ?? null,
      state: (r.state as string | null) ?? null,
      current: r.current === true,
    },
    position: r.position === null || r.position === undefined ? null : num(r.position),
    // node-postgres parses text[]; PGlite may too; a literal '{a,b}' string is split as a fallback.
    recipients: Array.isArray(recipients)
      ? recipients.map(String)
      : typeof recipients === 'string'
        ? recipients
            .replace(/^\{|\}$/g, '')
            .split(',')
            .filter(Boolean)
        : [],
  };
}

/**
 * One statement for the hot path: takes the channel's next position (locking its row until the
 * transaction ends), inserts the message, and raises the sender's receipts to it. Null when
 * (channel, sender, reqId) exists already: the statement then fails as a whole, so no position is used
 * (it is atomic on its own; inside a transaction the caller rolls back).
 */
export async function appendMessageRow(
  db: Runner,
  m: {
    id: string;
    channelId: string;
    senderId: string | null;
    reqId: string | null;
    messageType: string;
    mimeType: string | null;
    message: string;
    data: Record<string, unknown>;
    customType: string | null;
    ogMetaData: Record<string, unknown> | null;
    fileId: string | null;
    createdAt: Date;
  },
): Promise<number | null> {
  const at = m.createdAt.toISOString();
  let rows: RawRow[];
  try {
    rows = await rowsOf(
      db,
      sql`WITH pos AS (
          UPDATE chat_channels SET last_position = last_position + 1, last_message_at = ${at}::timestamptz
           WHERE id = ${m.channelId}::uuid RETURNING last_position),
        ins AS (
          INSERT INTO chat_messages (id, channel_id, position, sender_id, req_id, message_type, mime_type, message, data, custom_type, og_meta_data, file_id, created_at)
          SELECT ${m.id}::uuid, ${m.channelId}::uuid, pos.last_position, ${m.senderId}::uuid, ${m.reqId}::text, ${m.messageType}::text,
                 ${m.mimeType}::text, ${m.message}::text, ${JSON.stringify(m.data)}::jsonb, ${m.customType}::text,
                 ${m.ogMetaData === null ? null : JSON.stringify(m.ogMetaData)}::jsonb, ${m.fileId}::uuid, ${at}::timestamptz
            FROM pos
          RETURNING position),
        receipt AS (
          UPDATE chat_members SET read_position = GREATEST(read_position, (SELECT position FROM ins)),
                                  delivered_position = GREATEST(delivered_position, (SELECT position FROM ins))
           WHERE channel_id = ${m.channelId}::uuid AND user_id = ${m.senderId}::uuid AND EXISTS (SELECT 1 FROM ins))
        SELECT (SELECT position FROM ins) AS position`,
    );
  } catch (error) {
    // The same (channel, sender, reqId) exists: the whole statement failed, so no position was used.
    if (isUniqueViolation(error, 'chat_messages_req_key')) return null;
    throw error;
  }
  return num(rows[0]!.position);
}

/** The caller's channel and membership in one query (the hot path of every send). */
export async function channelWithMember(
  db: DbOrTx,
  url: string,
  userId: string,
): Promise<{ channel: ChannelRow; member: MemberRow | null } | null> {
  const rows = await db
    .select({ channel: chatChannels, member: chatMembers })
    .from(chatChannels)
    .leftJoin(chatMembers, and(eq(chatMembers.channelId, chatChannels.id), eq(chatMembers.userId, userId)))
    .where(eq(chatChannels.url, url));
  const row = rows[0];
  return row ? { channel: row.channel, member: row.member } : null;
}

/** A file is visible to current members of any channel with a message carrying it (broadcast copies share one file). */
export async function canSeeFile(db: DbOrTx, fileId: string, userId: string): Promise<boolean> {
  const rows = await rowsOf(
    db,
    sql`SELECT 1 FROM chat_messages msg JOIN chat_members m ON m.channel_id = msg.channel_id
         WHERE msg.file_id = ${fileId} AND m.user_id = ${userId} AND m.left_at IS NULL AND m.hidden = false LIMIT 1`,
  );
  return rows.length > 0;
}
