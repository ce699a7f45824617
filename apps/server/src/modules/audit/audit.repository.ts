/**
 * SQL of the audit read model: the trail of one firm with the names joined in the same statement
 * (acting user and firm; the entity's human name per kind of entity), filtered and paged in SQL.
 * Read-only: rows are written by `lib/audit.ts` and never changed.
 */
import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';

/** What the trail is narrowed by. `clientId` is the caller's firm: a firm sees only its own people's rows. */
export interface AuditFilter {
  clientId: string;
  /** Inclusive lower bound (instant). */
  fromAt?: Date | undefined;
  /** Exclusive upper bound (instant). */
  toAt?: Date | undefined;
  userId?: string | undefined;
  /** An action prefix (`chat`), matched as `chat.%`. */
  category?: string | undefined;
  action?: string | undefined;
  /** Free text, matched as a substring of names, e-mail and the entity's name. */
  search?: string | undefined;
  /** Action codes whose readable label matches `search` (labels live in contracts, not in SQL). */
  searchActions?: readonly string[] | undefined;
}

export interface AuditRow {
  id: number;
  at: Date;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  actorEmail: string | null;
  actorName: string | null;
  actorClientName: string | null;
  entityName: string | null;
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The trail with names. Each entity kind looks its name up by primary key (or the chat's url) only for
 * rows of that kind, so a page costs a handful of index lookups, all in this one statement (no N+1).
 * `source` is `audit_log` itself, or (without a text search) the page already cut from it: then the
 * lookups run for the rows shown only, whatever plan the table's statistics would suggest.
 */
const namedRows = (source: SQL): SQL => sql`
  SELECT a.id, a.at, a.action, a.entity, a.entity_id, a.before, a.after, a.ip, a.actor_email,
         NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS actor_name,
         c.name AS actor_client_name,
         n.name AS entity_name
  FROM ${source} a
  LEFT JOIN users u ON u.id = a.actor_user_id
  LEFT JOIN clients c ON c.id = a.actor_client_id
  LEFT JOIN LATERAL (SELECT CASE WHEN a.entity_id ~* ${UUID_PATTERN} THEN a.entity_id::uuid END AS uid) k ON true
  LEFT JOIN LATERAL (
    SELECT CASE a.entity
      WHEN 'quote' THEN (
        SELECT initcap(q.quote_type) || ' · ' || f.display_name
        FROM quotes q JOIN finstruments f ON f.id = q.finstrument_id WHERE q.id = k.uid)
      WHEN 'negotiation' THEN (
        SELECT initcap(q.quote_type) || ' · ' || f.display_name
        FROM negotiations g JOIN quotes q ON q.id = g.quote_id JOIN finstruments f ON f.id = q.finstrument_id WHERE g.id = k.uid)
      WHEN 'cluster' THEN (
        SELECT f.display_name FROM clusters m JOIN finstruments f ON f.id = m.finstrument_id WHERE m.id = k.uid)
      WHEN 'deal' THEN (
        SELECT f.display_name || ' · ' || cb.name || ' bought from ' || cs.name
        FROM deals d
        JOIN finstruments f ON f.id = d.finstrument_id
        JOIN clients cb ON cb.id = d.buyer_client_id
        JOIN clients cs ON cs.id = d.seller_client_id
        WHERE d.id = k.uid)
      WHEN 'chat_channel' THEN (SELECT COALESCE(NULLIF(ch.name, ''), 'Direct chat') FROM chat_channels ch WHERE ch.url = a.entity_id)
      WHEN 'chat_message' THEN (
        SELECT COALESCE(NULLIF(ch.name, ''), 'Direct chat')
        FROM chat_messages cm JOIN chat_channels ch ON ch.id = cm.channel_id WHERE cm.id = k.uid)
      WHEN 'user' THEN COALESCE(
        (SELECT concat_ws(' ', eu.first_name, eu.last_name) FROM users eu WHERE eu.id = k.uid),
        CASE WHEN k.uid IS NULL THEN a.entity_id END)
      WHEN 'client' THEN (SELECT ec.name FROM clients ec WHERE ec.id = k.uid)
      WHEN 'invite' THEN (SELECT i.email FROM invites i WHERE i.id = k.uid)
      WHEN 'exchange_ref' THEN CASE WHEN k.uid IS NULL THEN a.entity_id END
    END AS name
  ) n ON true`;

/** Conditions on audit_log's own columns (usable without the joins). */
function baseConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [sql`a.actor_client_id = ${filter.clientId}::uuid`];
  if (filter.fromAt) conditions.push(sql`a.at >= ${filter.fromAt.toISOString()}::timestamptz`);
  if (filter.toAt) conditions.push(sql`a.at < ${filter.toAt.toISOString()}::timestamptz`);
  if (filter.userId) conditions.push(sql`a.actor_user_id = ${filter.userId}::uuid`);
  if (filter.category) conditions.push(sql`a.action LIKE ${`${escapeLike(filter.category)}.%`}`);
  if (filter.action) conditions.push(sql`a.action = ${filter.action}`);
  return conditions;
}

/** The free-text condition on the named rows (null without a search). */
function searchCondition(filter: AuditFilter): SQL | null {
  if (!filter.search) return null;
  const pattern = `%${escapeLike(filter.search)}%`;
  const matches = [
    sql`concat_ws(' ', u.first_name, u.last_name) ILIKE ${pattern}`,
    sql`a.actor_email ILIKE ${pattern}`,
    sql`c.name ILIKE ${pattern}`,
    sql`n.name ILIKE ${pattern}`,
  ];
  // Codes are [a-z._] (contracts), so the array literal needs no quoting.
  if (filter.searchActions?.length) matches.push(sql`a.action = ANY(${`{${filter.searchActions.join(',')}}`}::text[])`);
  return sql`(${sql.join(matches, sql` OR `)})`;
}

const whereOf = (conditions: SQL[]): SQL => sql.join(conditions, sql` AND `);

const toRow = (r: Record<string, unknown>): AuditRow => ({
  id: Number(r.id),
  at: new Date(r.at as string | Date),
  action: r.action as string,
  entity: r.entity as string,
  entityId: (r.entity_id as string | null) ?? null,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: (r.ip as string | null) ?? null,
  actorEmail: (r.actor_email as string | null) ?? null,
  actorName: (r.actor_name as string | null) ?? null,
  actorClientName: (r.actor_client_name as string | null) ?? null,
  entityName: (r.entity_name as string | null) ?? null,
});

export function createAuditRepository(db: DbOrTx) {
  return {
    /** One page, newest first. */
    async page(filter: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> {
      const search = searchCondition(filter);
      const query = search
        ? sql`${namedRows(sql`audit_log`)} WHERE ${whereOf([...baseConditions(filter), search])} ORDER BY a.id DESC LIMIT ${limit} OFFSET ${offset}`
        : sql`${namedRows(sql`(SELECT * FROM audit_log a WHERE ${whereOf(baseConditions(filter))} ORDER BY a.id DESC LIMIT ${limit} OFFSET ${offset})`)} ORDER BY a.id DESC`;
      return (await sqlRows(db, query)).map(toRow);
    },

    /** How many rows the filter keeps. Without a search the names are not needed, so neither are the joins. */
    async count(filter: AuditFilter): Promise<number> {
      const search = searchCondition(filter);
      const rows = search
        ? await sqlRows(
            db,
            sql`SELECT count(*)::int AS n FROM (${namedRows(sql`audit_log`)} WHERE ${whereOf([...baseConditions(filter), search])}) s`,
          )
        : await sqlRows(db, sql`SELECT count(*)::int AS n FROM audit_log a WHERE ${whereOf(baseConditions(filter))}`);
      return Number(rows[0]?.n ?? 0);
    },

    /** The rows older than `beforeId` (keyset, newest first): the export reads the trail in batches. */
    async batchBefore(filter: AuditFilter, beforeId: number | null, limit: number): Promise<AuditRow[]> {
      const search = searchCondition(filter);
      const conditions = [...baseConditions(filter), ...(beforeId !== null ? [sql`a.id < ${beforeId}`] : [])];
      const query = search
        ? sql`${namedRows(sql`audit_log`)} WHERE ${whereOf([...conditions, search])} ORDER BY a.id DESC LIMIT ${limit}`
        : sql`${namedRows(sql`(SELECT * FROM audit_log a WHERE ${whereOf(conditions)} ORDER BY a.id DESC LIMIT ${limit})`)} ORDER BY a.id DESC`;
      return (await sqlRows(db, query)).map(toRow);
    },

    /** The people of a firm (every membership, active or not: a departed user's rows stay in the trail). */
    async usersOf(clientId: string): Promise<Array<{ id: string; name: string; email: string }>> {
      const rows = await sqlRows(
        db,
        sql`SELECT u.id, btrim(concat_ws(' ', u.first_name, u.last_name)) AS name, u.email
            FROM users u JOIN user_accounts ua ON ua.user_id = u.id
            WHERE ua.client_id = ${clientId}::uuid
            ORDER BY lower(u.first_name), lower(u.last_name), u.email`,
      );
      return rows.map((r) => ({ id: String(r.id), name: String(r.name), email: String(r.email) }));
    },

    /** When the last seal of the trail was made (null before the first). */
    async lastSealAt(): Promise<Date | null> {
      const [row] = await sqlRows<{ sealed_at: Date | string }>(db, sql`SELECT sealed_at FROM audit_seals ORDER BY id DESC LIMIT 1`);
      return row ? new Date(row.sealed_at) : null;
    },
  };
}
