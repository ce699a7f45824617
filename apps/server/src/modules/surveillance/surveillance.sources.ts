/**
 * What the scanner reads (README "How an alert is made"): the source tables after their keyset watermark (chat messages,
 * quotes, deals, tickets), the orders past the 15-minute rule, and the look-ups the rules need (bonds, firms, the
 * chat around a deal, the reverse deals, the audit rows). Read-only on business data; every function takes the pass's
 * transaction. Times in SQL are the database's; `now` (late reporting) is the app's clock.
 */
import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';

/** A keyset position in a source table: rows after (at, id) are new. */
export interface Watermark {
  at: Date;
  id: string;
}

export const SOURCES = ['chat', 'quotes', 'deals', 'tickets'] as const;
export type Source = (typeof SOURCES)[number];

const EPOCH: Watermark = { at: new Date(0), id: '' };

/** An array literal of the values for `::text[]` (each quoted and escaped), `::uuid[]`, `::int[]` or `::timestamptz[]`. */
const arrayLiteral = (values: readonly (string | number)[]) =>
  `{${values.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** Every watermark, locked for the pass (a second scanner on another node waits here). */
export async function lockWatermarks(tx: DbOrTx): Promise<Record<Source, Watermark>> {
  await tx.execute(sql`
    INSERT INTO surveillance_cursors (name, at, last_id)
    SELECT s, to_timestamp(0), '' FROM unnest(${sql.raw(`ARRAY[${SOURCES.map((s) => `'${s}'`).join(',')}]`)}::text[]) AS s
    ON CONFLICT (name) DO NOTHING`);
  const rows = await sqlRows<{ name: Source; at: Date | string; last_id: string }>(
    tx,
    sql`SELECT name, at, last_id FROM surveillance_cursors ORDER BY name FOR UPDATE`,
  );
  const out = Object.fromEntries(SOURCES.map((s) => [s, EPOCH])) as Record<Source, Watermark>;
  for (const row of rows) if ((SOURCES as readonly string[]).includes(row.name)) out[row.name] = { at: new Date(row.at), id: row.last_id };
  return out;
}

export async function saveWatermark(tx: DbOrTx, source: Source, mark: Watermark): Promise<void> {
  await tx.execute(
    sql`UPDATE surveillance_cursors SET at = ${mark.at.toISOString()}::timestamptz, last_id = ${mark.id}, updated_at = now() WHERE name = ${source}`,
  );
}

/**
 * Rows after the watermark; with `settleMs`, only those at least that old by the database's clock (a transaction still
 * open may commit an earlier time; some rows are timed by the app's clock). 0 = everything committed so far.
 */
function after(column: string, idColumn: string, mark: Watermark, settleMs: number): SQL {
  const keyset = sql`${sql.raw(column)} >= ${mark.at.toISOString()}::timestamptz
      AND (${sql.raw(column)}, ${sql.raw(idColumn)}::text) > (${mark.at.toISOString()}::timestamptz, ${mark.id})`;
  return settleMs > 0 ? sql`${keyset} AND ${sql.raw(column)} <= now() - make_interval(secs => ${settleMs / 1000})` : keyset;
}

/* ------------------------------------------------------------ sources ------------------------------------------------------------ */

export interface ChatRow {
  id: string;
  channel_id: string;
  channel_name: string;
  sender_id: string | null;
  sender_client_id: string | null;
  message: string;
  file_id: string | null;
  file_name: string | null;
  created_at: Date;
}

/** A batch of chat after the watermark: how many rows it spanned, where it ended, and its lexicon candidates. */
export interface ChatBatch {
  /** Messages in the batch (all of them, candidates or not). */
  read: number;
  /** The batch's last message: the next watermark (null when the batch is empty). */
  last: Watermark | null;
  /** The messages whose text or file name the database's lexicon pre-filter matched (the rule confirms each). */
  candidates: ChatRow[];
}

/**
 * The next `limit` messages after the watermark, filtered in the database by the lexicon's pre-filters (a phrase's
 * longest word by `LIKE`, then `LEXICON_SQL_PREFILTER`; both match a superset of the rule's phrases): only candidates
 * travel to the app, with their channel, sender firm and file; the batch's count and last position come back with them.
 */
export async function chatAfter(
  tx: DbOrTx,
  mark: Watermark,
  limit: number,
  settleMs: number,
  lexicon: { keywords: readonly string[]; prefilter: string },
): Promise<ChatBatch> {
  const { keywords, prefilter } = lexicon;
  const rows = await sqlRows<ChatRow & { batch_rows: number; last_at: Date | string; last_id: string; candidate: boolean }>(
    tx,
    sql`WITH batch AS MATERIALIZED (
          SELECT m.id, m.channel_id, m.sender_id, m.message, m.file_id, m.created_at
          FROM chat_messages m
          WHERE ${after('m.created_at', 'm.id', mark, settleMs)}
          ORDER BY m.created_at, m.id::text
          LIMIT ${limit}
        ),
        tail AS (
          SELECT count(*)::int AS batch_rows, max(created_at) AS last_at FROM batch
        ),
        last AS (
          SELECT t.batch_rows, t.last_at, (SELECT max(b.id::text) FROM batch b WHERE b.created_at = t.last_at) AS last_id FROM tail t
        ),
        hits AS (
          SELECT b.*, f.name AS file_name
          FROM batch b LEFT JOIN chat_files f ON f.id = b.file_id
          -- CASE: the cheap keyword test first, whatever order the planner would pick.
          WHERE CASE WHEN translate(lower(b.message), 'Kſ', 'ks') LIKE ANY(${arrayLiteral(keywords)}::text[]) THEN b.message ~* ${prefilter} ELSE false END
             OR CASE WHEN translate(lower(f.name), 'Kſ', 'ks') LIKE ANY(${arrayLiteral(keywords)}::text[]) THEN f.name ~* ${prefilter} ELSE false END
        )
        SELECT h.id, h.channel_id, c.name AS channel_name, h.sender_id, ua.client_id AS sender_client_id, h.message,
               h.file_id, h.file_name, h.created_at, l.batch_rows, l.last_at, l.last_id, true AS candidate
        FROM hits h
        CROSS JOIN last l
        JOIN chat_channels c ON c.id = h.channel_id
        LEFT JOIN LATERAL (
          SELECT client_id FROM user_accounts WHERE user_id = h.sender_id ORDER BY is_default DESC, created_at LIMIT 1
        ) ua ON true
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, l.batch_rows, l.last_at, l.last_id, false FROM last l`,
  );
  const tail = rows.find((r) => !r.candidate);
  return {
    read: tail?.batch_rows ?? 0,
    last: tail && tail.batch_rows > 0 ? { at: new Date(tail.last_at), id: tail.last_id } : null,
    candidates: rows
      .filter((r) => r.candidate)
      .map((r) => ({
        id: r.id,
        channel_id: r.channel_id,
        channel_name: r.channel_name,
        sender_id: r.sender_id,
        sender_client_id: r.sender_client_id,
        message: r.message,
        file_id: r.file_id,
        file_name: r.file_name,
        created_at: new Date(r.created_at),
      })),
  };
}

export interface QuoteRow {
  id: string;
  client_id: string;
  user_id: string;
  finstrument_id: number;
  quote_type: string;
  status: string;
  price: number;
  yield_fraction: number;
  quantum: number;
  remaining_quantum: number;
  created_at: Date;
  updated_at: Date;
}

const quoteColumns = sql.raw(`q.id, q.client_id, q.user_id, q.finstrument_id, q.quote_type, q.status, q.price, q.yield_fraction,
  q.quantum::float8 AS quantum, q.remaining_quantum::float8 AS remaining_quantum, q.created_at, q.updated_at`);
const quoteDates = (r: QuoteRow): QuoteRow => ({ ...r, created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) });

export async function quotesAfter(tx: DbOrTx, mark: Watermark, limit: number, settleMs: number): Promise<QuoteRow[]> {
  const rows = await sqlRows<QuoteRow>(
    tx,
    sql`SELECT ${quoteColumns} FROM quotes q
        WHERE ${after('q.updated_at', 'q.id', mark, settleMs)}
        ORDER BY q.updated_at, q.id::text LIMIT ${limit}`,
  );
  return rows.map(quoteDates);
}

/** Where to look for pulled quotes: one firm's quotes on one bond placed within [from, to]. */
export interface QuoteWindow {
  clientId: string;
  finstrumentId: number;
  from: Date;
  to: Date;
}

/**
 * The quotes closed or replaced (not expired) of each window, in one query: `[window index, its quotes by placement]`.
 */
export async function endedQuotesIn(tx: DbOrTx, windows: readonly QuoteWindow[]): Promise<Map<number, QuoteRow[]>> {
  const out = new Map<number, QuoteRow[]>();
  if (windows.length === 0) return out;
  const rows = await sqlRows<QuoteRow & { k: number }>(
    tx,
    sql`SELECT (w.k - 1)::int AS k, ${quoteColumns}
        FROM unnest(${arrayLiteral(windows.map((w) => w.clientId))}::uuid[], ${arrayLiteral(windows.map((w) => w.finstrumentId))}::int[],
                    ${arrayLiteral(windows.map((w) => w.from.toISOString()))}::timestamptz[],
                    ${arrayLiteral(windows.map((w) => w.to.toISOString()))}::timestamptz[])
             WITH ORDINALITY AS w(client_id, finstrument_id, from_at, to_at, k)
        JOIN quotes q ON q.client_id = w.client_id AND q.finstrument_id = w.finstrument_id AND q.status IN ('closed', 'replaced')
                     AND q.created_at BETWEEN w.from_at AND w.to_at
        ORDER BY w.k, q.created_at`,
  );
  for (const { k, ...row } of rows) out.set(k, [...(out.get(k) ?? []), quoteDates(row)]);
  return out;
}

export interface DealRow {
  id: string;
  finstrument_id: number;
  buyer_client_id: string;
  seller_client_id: string;
  bid_quote_id: string | null;
  ask_quote_id: string | null;
  price: number;
  yield_fraction: number;
  quantum: number;
  created_at: Date;
  /** The deal's ticket and each side's order, when booked. */
  ticket_id: string | null;
  buyer_order_id: string | null;
  seller_order_id: string | null;
}

const dealSelect = sql.raw(`SELECT d.id, d.finstrument_id, d.buyer_client_id, d.seller_client_id, d.bid_quote_id, d.ask_quote_id,
  d.price, d.yield_fraction, d.quantum::float8 AS quantum, d.created_at, t.id AS ticket_id,
  (SELECT o.id FROM orders o WHERE o.ticket_id = t.id AND o.kind = 'procurement') AS buyer_order_id,
  (SELECT o.id FROM orders o WHERE o.ticket_id = t.id AND o.kind = 'order') AS seller_order_id
  FROM deals d LEFT JOIN tickets t ON t.deal_id = d.id`);
const dealDates = (r: DealRow): DealRow => ({ ...r, created_at: new Date(r.created_at) });

export async function dealsAfter(tx: DbOrTx, mark: Watermark, limit: number, settleMs: number): Promise<DealRow[]> {
  const rows = await sqlRows<DealRow>(
    tx,
    sql`${dealSelect} WHERE ${after('d.created_at', 'd.id', mark, settleMs)} ORDER BY d.created_at, d.id::text LIMIT ${limit}`,
  );
  return rows.map(dealDates);
}

/** Deals by id (with their ticket and orders), in no order. */
export async function dealsById(tx: DbOrTx, ids: readonly string[]): Promise<Map<string, DealRow>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlRows<DealRow>(tx, sql`${dealSelect} WHERE d.id = ANY(${arrayLiteral([...new Set(ids)])}::uuid[])`);
  return new Map(rows.map((r) => [r.id, dealDates(r)]));
}

/**
 * For each of `deals`, the ids of the deals reversing it (buyer and seller swapped, same bond) within `windowMs`
 * either side, at most 20 each, in one query.
 */
export async function reverseDealIds(tx: DbOrTx, deals: readonly DealRow[], windowMs: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (deals.length === 0) return out;
  const rows = await sqlRows<{ for_id: string; id: string }>(
    tx,
    sql`SELECT x.for_id, r.id
        FROM unnest(${arrayLiteral(deals.map((d) => d.id))}::uuid[], ${arrayLiteral(deals.map((d) => d.finstrument_id))}::int[],
                    ${arrayLiteral(deals.map((d) => d.buyer_client_id))}::uuid[], ${arrayLiteral(deals.map((d) => d.seller_client_id))}::uuid[],
                    ${arrayLiteral(deals.map((d) => d.created_at.toISOString()))}::timestamptz[])
             AS x(for_id, finstrument_id, buyer, seller, at)
        CROSS JOIN LATERAL (
          SELECT d.id FROM deals d
          WHERE d.finstrument_id = x.finstrument_id AND d.buyer_client_id = x.seller AND d.seller_client_id = x.buyer AND d.id <> x.for_id
            AND d.created_at BETWEEN x.at - make_interval(secs => ${windowMs / 1000}) AND x.at + make_interval(secs => ${windowMs / 1000})
          ORDER BY d.created_at LIMIT 20
        ) r`,
  );
  for (const r of rows) out.set(r.for_id, [...(out.get(r.for_id) ?? []), r.id]);
  return out;
}

export interface TicketRow {
  id: string;
  number: number;
  finstrument_id: number;
  buyer_client_id: string;
  seller_client_id: string;
  price: number;
  yield_fraction: number;
  quantum: number;
  traded_at: Date;
  updated_at: Date;
}

/** Tickets changed after the watermark whose yield is their own: manual ones, or re-priced away from their deal. */
export async function ticketsAfter(
  tx: DbOrTx,
  mark: Watermark,
  limit: number,
  settleMs: number,
): Promise<Array<TicketRow & { own: boolean }>> {
  const rows = await sqlRows<TicketRow & { own: boolean }>(
    tx,
    sql`SELECT t.id, t.number::float8 AS number, t.finstrument_id, t.buyer_client_id, t.seller_client_id, t.price, t.yield_fraction,
               t.quantum::float8 AS quantum, t.traded_at, t.updated_at,
               (d.id IS NULL OR abs(d.yield_fraction - t.yield_fraction) > 1e-9) AS own
        FROM tickets t LEFT JOIN deals d ON d.id = t.deal_id
        WHERE ${after('t.updated_at', 't.id', mark, settleMs)}
        ORDER BY t.updated_at, t.id::text LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, traded_at: new Date(r.traded_at), updated_at: new Date(r.updated_at) }));
}

export interface LateOrderRow {
  id: string;
  kind: string;
  number: number;
  client_id: string;
  counterparty_client_id: string;
  ticket_id: string;
  finstrument_id: number;
  exchange: string;
  state: string;
  traded_at: Date;
  reported_at: Date | null;
}

/**
 * Orders past the 15-minute rule (unreported, or reported after it), traded within `lookbackMs` of `now`, not
 * cancelled, without their alert yet (the anti-join keeps each pass to the new ones).
 */
export async function lateOrders(tx: DbOrTx, now: Date, deadlineMs: number, lookbackMs: number, limit: number): Promise<LateOrderRow[]> {
  const due = new Date(now.getTime() - deadlineMs).toISOString();
  const rows = await sqlRows<LateOrderRow>(
    tx,
    sql`SELECT o.id, o.kind, o.number::float8 AS number, o.client_id, o.counterparty_client_id, o.ticket_id, o.finstrument_id,
               o.exchange, o.state, o.traded_at, o.reported_at
        FROM orders o
        WHERE o.traded_at <= ${due}::timestamptz
          AND o.traded_at >= ${new Date(now.getTime() - lookbackMs).toISOString()}::timestamptz
          AND o.state <> 'cancelled'
          AND (o.reported_at IS NULL OR o.reported_at > o.traded_at + make_interval(secs => ${deadlineMs / 1000}))
          AND NOT EXISTS (
            SELECT 1 FROM surveillance_alerts a WHERE a.client_id = o.client_id AND a.dedupe_key = 'late_report:order:' || o.id::text
          )
        ORDER BY o.traded_at LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, traded_at: new Date(r.traded_at), reported_at: r.reported_at ? new Date(r.reported_at) : null }));
}

/* ------------------------------------------------------------ look-ups ------------------------------------------------------------ */

export interface BondRow {
  id: number;
  isin: string;
  display_name: string;
  long_name: string | null;
  nse_symbol: string | null;
  bse_symbol: string | null;
  security_type: string;
  credit_rating: string | null;
  maturity_date: string | null;
  reference_yield: number | null;
}

export async function bonds(tx: DbOrTx, ids: readonly number[]): Promise<Map<number, BondRow>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlRows<BondRow>(
    tx,
    sql`SELECT id, isin, display_name, long_name, nse_symbol, bse_symbol, security_type, credit_rating,
               maturity_date::text AS maturity_date, reference_yield
        FROM finstruments WHERE id = ANY(${`{${[...new Set(ids)].join(',')}}`}::int[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function firmNames(tx: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlRows<{ id: string; name: string }>(
    tx,
    sql`SELECT id, name FROM clients WHERE id = ANY(${`{${[...new Set(ids)].join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The firms of each channel's members (by their default account), members who left included. */
export async function channelFirms(tx: DbOrTx, channelIds: readonly string[]): Promise<Map<string, string[]>> {
  if (channelIds.length === 0) return new Map();
  const rows = await sqlRows<{ channel_id: string; client_id: string }>(
    tx,
    sql`SELECT DISTINCT cm.channel_id, ua.client_id
        FROM chat_members cm
        JOIN LATERAL (
          SELECT client_id FROM user_accounts WHERE user_id = cm.user_id ORDER BY is_default DESC, created_at LIMIT 1
        ) ua ON true
        WHERE cm.channel_id = ANY(${`{${[...new Set(channelIds)].join(',')}}`}::uuid[])`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.channel_id, [...(out.get(r.channel_id) ?? []), r.client_id]);
  return out;
}

export interface ChatMentionRow {
  id: string;
  channel_name: string;
  sender_client_id: string | null;
  message: string;
  created_at: Date;
}

/** A deal's chat search: messages between its two firms in [from, to] containing one of `needles` (lower-case). */
export interface MentionSearch {
  dealId: string;
  firmA: string;
  firmB: string;
  from: Date;
  to: Date;
  needles: readonly string[];
}

/**
 * For each search, the first 50 messages (by time) in channels with members of both firms, sent in its window and
 * containing one of its needles (the rule confirms the match), in one query: the channels are found once per firm pair,
 * then each deal reads its pair's channels over its window (`chat_messages (channel_id, created_at)`).
 */
export async function chatMentions(tx: DbOrTx, searches: readonly MentionSearch[]): Promise<Map<string, ChatMentionRow[]>> {
  const out = new Map<string, ChatMentionRow[]>();
  const wanted = searches.filter((s) => s.needles.length > 0);
  if (wanted.length === 0) return out;
  const needles = wanted.flatMap((s) => s.needles.map((n) => [s.dealId, n] as const));
  const rows = await sqlRows<ChatMentionRow & { deal_id: string }>(
    tx,
    sql`WITH d AS (
          SELECT * FROM unnest(${arrayLiteral(wanted.map((s) => s.dealId))}::uuid[], ${arrayLiteral(wanted.map((s) => s.firmA))}::uuid[],
                               ${arrayLiteral(wanted.map((s) => s.firmB))}::uuid[], ${arrayLiteral(wanted.map((s) => s.from.toISOString()))}::timestamptz[],
                               ${arrayLiteral(wanted.map((s) => s.to.toISOString()))}::timestamptz[])
                 AS d(deal_id, firm_a, firm_b, from_at, to_at)
        ),
        n AS (
          SELECT * FROM unnest(${arrayLiteral(needles.map(([id]) => id))}::uuid[], ${arrayLiteral(needles.map(([, n]) => n))}::text[]) AS n(deal_id, needle)
        ),
        pairs AS (SELECT DISTINCT firm_a, firm_b FROM d),
        pair_channels AS (
          SELECT p.firm_a, p.firm_b, cm.channel_id
          FROM pairs p
          JOIN user_accounts ua ON ua.client_id IN (p.firm_a, p.firm_b)
          JOIN chat_members cm ON cm.user_id = ua.user_id
          GROUP BY p.firm_a, p.firm_b, cm.channel_id
          HAVING count(DISTINCT ua.client_id) = 2
        )
        SELECT d.deal_id, m.id, c.name AS channel_name, ua.client_id AS sender_client_id, m.message, m.created_at
        FROM d
        JOIN pair_channels pc ON pc.firm_a = d.firm_a AND pc.firm_b = d.firm_b
        JOIN chat_messages m ON m.channel_id = pc.channel_id AND m.created_at BETWEEN d.from_at AND d.to_at
        JOIN chat_channels c ON c.id = m.channel_id
        LEFT JOIN LATERAL (
          SELECT client_id FROM user_accounts WHERE user_id = m.sender_id ORDER BY is_default DESC, created_at LIMIT 1
        ) ua ON true
        WHERE EXISTS (SELECT 1 FROM n WHERE n.deal_id = d.deal_id AND strpos(lower(m.message), n.needle) > 0)
        ORDER BY d.deal_id, m.created_at`,
  );
  for (const { deal_id, ...row } of rows) {
    const list = out.get(deal_id) ?? [];
    if (list.length < 50) list.push({ ...row, created_at: new Date(row.created_at) });
    out.set(deal_id, list);
  }
  return out;
}

export interface AuditRefRow {
  id: number;
  at: Date;
  actor_client_id: string;
  actor_email: string | null;
  action: string;
  entity: string;
  entity_id: string;
}

/**
 * Audit rows written by the given firms' people about the given entities (each alert keeps its own firm's): the first
 * `perEntity` of each entity and firm (`audit_log (entity_id)`, migration 0027).
 */
export async function auditRows(
  tx: DbOrTx,
  firms: readonly string[],
  entityIds: readonly string[],
  perEntity: number,
): Promise<AuditRefRow[]> {
  if (firms.length === 0 || entityIds.length === 0) return [];
  const rows = await sqlRows<AuditRefRow>(
    tx,
    sql`SELECT id, at, actor_client_id, actor_email, action, entity, entity_id
        FROM (
          SELECT id::float8 AS id, at, actor_client_id, actor_email, action, entity, entity_id,
                 row_number() OVER (PARTITION BY entity_id, actor_client_id ORDER BY id) AS nth
          FROM audit_log
          WHERE entity_id = ANY(${arrayLiteral([...new Set(entityIds)])}::text[])
            AND actor_client_id = ANY(${arrayLiteral([...new Set(firms)])}::uuid[])
        ) a
        WHERE nth <= ${perEntity}
        ORDER BY id`,
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at) }));
}
