/**
 * The firm's chats as its compliance officers read them (README "Chats"): every channel with at least one member, past
 * or present, of the caller's firm, and the messages of such a channel in a period, oldest first. Chat's tables are
 * read here through SQL only (the chat module stays untouched); read-only on business data. A channel without a member
 * of the firm is not found (404), in the list as on the messages call. Reading messages is audited once per call.
 */
import {
  SURVEILLANCE_CHAT_MESSAGES,
  type SurveillanceChat,
  type SurveillanceChatList,
  type SurveillanceChatListQuery,
  type SurveillanceChatMember,
  type SurveillanceChatMessage,
  type SurveillanceChatMessageList,
  type SurveillanceChatMessagesQuery,
} from '@dart/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { istDayStart } from './surveillance.documents';

const notFound = () => new AppError('NOT_FOUND', SURVEILLANCE_CHAT_MESSAGES.notFound);

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();
const fullName = (first: unknown, last: unknown) => `${String(first ?? '')} ${String(last ?? '')}`.trim();

/** `LIKE` pattern of a literal text: its wildcards escaped (the default escape character is the backslash). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The channels with a member (any membership, left or not) holding an account at the firm. */
const firmChannels = (clientId: string): SQL => sql`
  SELECT DISTINCT m.channel_id FROM chat_members m JOIN user_accounts a ON a.user_id = m.user_id WHERE a.client_id = ${clientId}::uuid`;

/** A user's firm as chat shows it: the default account's firm (else the oldest). */
const USER_FIRM = sql`
  LEFT JOIN LATERAL (
    SELECT a.client_id, c.name AS client_name FROM user_accounts a JOIN clients c ON c.id = a.client_id
     WHERE a.user_id = u.id ORDER BY a.is_default DESC, a.created_at LIMIT 1) acct ON true`;

interface ChannelRow {
  id: string;
  url: string;
  name: string;
  custom_type: string;
  is_whatsapp_linked: boolean;
  last_message_at: Date | string | null;
  created_at: Date | string;
  message_count: number | string;
  total?: number | string;
}

async function membersOf(db: DbOrTx, clientId: string, channelIds: readonly string[]): Promise<Map<string, SurveillanceChatMember[]>> {
  const out = new Map<string, SurveillanceChatMember[]>(channelIds.map((id) => [id, []]));
  if (channelIds.length === 0) return out;
  const rows = await sqlRows<{
    channel_id: string;
    first_name: string;
    last_name: string;
    client_name: string | null;
    own_firm: boolean;
    staff: boolean;
    left_at: Date | string | null;
  }>(
    db,
    sql`SELECT m.channel_id, u.first_name, u.last_name, acct.client_name, (s.user_id IS NOT NULL) AS staff, m.left_at,
               EXISTS (SELECT 1 FROM user_accounts o WHERE o.user_id = u.id AND o.client_id = ${clientId}::uuid) AS own_firm
          FROM chat_members m
          JOIN users u ON u.id = m.user_id
          LEFT JOIN chat_staff s ON s.user_id = u.id
          ${USER_FIRM}
         WHERE m.channel_id IN (${sql.join(
           channelIds.map((id) => sql`${id}::uuid`),
           sql`, `,
         )})
         ORDER BY m.channel_id, m.left_at IS NOT NULL, m.created_at, m.user_id`,
  );
  for (const row of rows)
    out.get(String(row.channel_id))?.push({
      name: fullName(row.first_name, row.last_name),
      firm: row.client_name ?? '',
      own_firm: row.own_firm === true,
      staff: row.staff === true,
      left: row.left_at !== null,
    });
  return out;
}

function chatView(row: ChannelRow, members: SurveillanceChatMember[]): SurveillanceChat {
  return {
    id: String(row.id),
    url: row.url,
    name: row.name,
    type: row.custom_type,
    whatsapp_linked: row.is_whatsapp_linked === true,
    members,
    message_count: Number(row.message_count),
    last_message_at: iso(row.last_message_at),
    created_at: iso(row.created_at)!,
  };
}

const CHANNEL_COLUMNS = sql`c.id, c.url, c.name, c.custom_type, c.is_whatsapp_linked, c.last_message_at, c.created_at,
  (SELECT count(*) FROM chat_messages x WHERE x.channel_id = c.id) AS message_count`;

export interface SurveillanceChats {
  list(p: Principal, query: SurveillanceChatListQuery): Promise<SurveillanceChatList>;
  messages(p: Principal, id: string, query: SurveillanceChatMessagesQuery, audit: AuditContext): Promise<SurveillanceChatMessageList>;
}

export function createSurveillanceChats(deps: Pick<AppDeps, 'database'>): SurveillanceChats {
  const db = deps.database.db;

  return {
    async list(p, query) {
      const search = query.search ? containing(query.search) : null;
      const matches = search
        ? sql`AND (c.name ILIKE ${search} OR EXISTS (
              SELECT 1 FROM chat_members sm JOIN users u ON u.id = sm.user_id ${USER_FIRM}
               WHERE sm.channel_id = c.id
                 AND ((u.first_name || ' ' || u.last_name) ILIKE ${search} OR acct.client_name ILIKE ${search})))`
        : sql``;
      const rows = await sqlRows<ChannelRow>(
        db,
        sql`SELECT ${CHANNEL_COLUMNS}, count(*) OVER () AS total
              FROM chat_channels c
             WHERE c.id IN (${firmChannels(p.clientId)}) ${matches}
             ORDER BY c.last_message_at DESC NULLS LAST, c.created_at DESC, c.id
             LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`,
      );
      let count = rows.length > 0 ? Number(rows[0]!.total) : 0;
      if (rows.length === 0 && query.page > 1) {
        // Past the last page: the count still tells the caller how many there are.
        const [total] = await sqlRows<{ n: number | string }>(
          db,
          sql`SELECT count(*) AS n FROM chat_channels c WHERE c.id IN (${firmChannels(p.clientId)}) ${matches}`,
        );
        count = Number(total?.n ?? 0);
      }
      const members = await membersOf(
        db,
        p.clientId,
        rows.map((r) => String(r.id)),
      );
      return { results: rows.map((r) => chatView(r, members.get(String(r.id)) ?? [])), count };
    },

    async messages(p, id, query, audit) {
      const [channel] = await sqlRows<ChannelRow>(
        db,
        sql`SELECT ${CHANNEL_COLUMNS} FROM chat_channels c WHERE c.id = ${id}::uuid AND c.id IN (${firmChannels(p.clientId)})`,
      );
      if (!channel) throw notFound();
      const from = query.from ? istDayStart(query.from) : null;
      const to = query.to ? istDayStart(query.to, 1) : null;
      const period = sql`${from ? sql`AND m.created_at >= ${from.toISOString()}::timestamptz` : sql``}
        ${to ? sql`AND m.created_at < ${to.toISOString()}::timestamptz` : sql``}`;
      const rows = await sqlRows<{
        id: string;
        position: number | string;
        message_type: string;
        message: string;
        created_at: Date | string;
        deleted_at: Date | string | null;
        file_name: string | null;
        file_size: number | null;
        sender_id: string | null;
        first_name: string | null;
        last_name: string | null;
        client_name: string | null;
        staff: boolean;
        total: number | string;
      }>(
        db,
        sql`SELECT m.id, m.position, m.message_type, m.message, m.created_at, m.deleted_at, f.name AS file_name, f.size AS file_size,
                   m.sender_id, u.first_name, u.last_name, acct.client_name, (s.user_id IS NOT NULL) AS staff, count(*) OVER () AS total
              FROM chat_messages m
              LEFT JOIN chat_files f ON f.id = m.file_id
              LEFT JOIN users u ON u.id = m.sender_id
              LEFT JOIN chat_staff s ON s.user_id = u.id
              ${USER_FIRM}
             WHERE m.channel_id = ${id}::uuid ${period}
             ORDER BY m.position
             LIMIT ${query.page_size} OFFSET ${(query.page - 1) * query.page_size}`,
      );
      let count = rows.length > 0 ? Number(rows[0]!.total) : 0;
      if (rows.length === 0 && query.page > 1) {
        const [total] = await sqlRows<{ n: number | string }>(
          db,
          sql`SELECT count(*) AS n FROM chat_messages m WHERE m.channel_id = ${id}::uuid ${period}`,
        );
        count = Number(total?.n ?? 0);
      }
      const edits = new Map<string, SurveillanceChatMessage['edits']>();
      if (rows.length > 0) {
        const editRows = await sqlRows<{ message_id: string; previous_message: string; edited_at: Date | string }>(
          db,
          sql`SELECT message_id, previous_message, edited_at FROM chat_message_edits
               WHERE message_id IN (${sql.join(
                 rows.map((r) => sql`${r.id}::uuid`),
                 sql`, `,
               )})
               ORDER BY message_id, id`,
        );
        for (const e of editRows) {
          const list = edits.get(String(e.message_id)) ?? [];
          list.push({ previous_text: e.previous_message, edited_at: iso(e.edited_at)! });
          edits.set(String(e.message_id), list);
        }
      }
      const members = await membersOf(db, p.clientId, [String(channel.id)]);
      await db.transaction(async (tx) => {
        await writeAudit(tx, audit, {
          action: 'surveillance.chat_read',
          entity: 'chat_channel',
          entityId: channel.url,
          after: { from: query.from ?? null, to: query.to ?? null, page: query.page, messages: rows.length },
        });
      });
      return {
        chat: chatView(channel, members.get(String(channel.id)) ?? []),
        count,
        results: rows.map((r) => ({
          id: String(r.id),
          position: Number(r.position),
          type: r.message_type,
          sender_name: r.sender_id ? fullName(r.first_name, r.last_name) : null,
          sender_firm: r.sender_id ? (r.client_name ?? '') : null,
          sender_staff: r.staff === true,
          text: r.message,
          file_name: r.file_name,
          file_size: r.file_size === null ? null : Number(r.file_size),
          created_at: iso(r.created_at)!,
          edits: edits.get(String(r.id)) ?? [],
          deleted_at: iso(r.deleted_at),
        })),
      };
    },
  };
}
