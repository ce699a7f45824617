/**
 * The audit trail: one append-only row per state change, written in the same transaction as the change, and
 * made tamper-evident in two layers:
 *
 * - **Row.** Each row stores the SHA-256 of its own canonical content (`hash`) and the id of the transaction
 *   that wrote it (`xid`, set by the database). No lock is taken: audited writes of every node run in parallel.
 * - **Seal.** The sealer (`sealAudit`, on the elected node about once a second, and before every verification)
 *   appends to `audit_seals` the SHA-256 of the previous seal's hash and of every row written by transactions
 *   `fromXid <= xid < toXid`, in id order, where `toXid` is the oldest transaction still running: every such
 *   transaction has finished, so no row can join a sealed range later, and the ranges follow each other.
 *
 * A changed row fails its own hash; a deleted, added or re-ordered row fails its seal (`verifyAuditChain`).
 * Rows written before migration 0022 keep the former per-row chain (`prevHash`), and the first seal starts
 * from the last of them. Until the next seal (≤ about a second) a new row is protected by its hash and by the
 * append-only triggers only: that is what the global chain lock cost every write, and it is written down.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { sqlRows, type Db, type DbOrTx } from '../db/client';
import { pgArray } from '../db/pg-array';
import { auditLog, auditSeals } from '../db/schema';
import { canonicalJson } from './canonical-json';

/** Who did it and from where: taken from the request. */
export interface AuditContext {
  actorUserId?: string | null;
  actorClientId?: string | null;
  actorEmail?: string | null;
  actorRoles?: readonly string[] | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

const GENESIS = '0'.repeat(64);
/** One sealer at a time across nodes (try-lock: a node that does not get it leaves the round to the other). */
const AUDIT_SEAL_LOCK = 727_003;

/** Rows before migration 0022: the SHA-256 of the previous row's hash and the row's canonical content. */
export function auditRowHash(prevHash: string, row: Record<string, unknown>): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(row)).digest('hex');
}

/** Rows from migration 0022 on: the SHA-256 of the row's canonical content alone. */
export const auditContentHash = (row: Record<string, unknown>): string => createHash('sha256').update(canonicalJson(row)).digest('hex');

/** Appends one audit row; call inside the transaction that makes the change. */
function auditRowOf(context: AuditContext, entry: AuditEntry, at: Date) {
  const row = {
    at: at.toISOString(),
    actorUserId: context.actorUserId ?? null,
    actorClientId: context.actorClientId ?? null,
    actorEmail: context.actorEmail ?? null,
    actorRoles: context.actorRoles ? [...context.actorRoles] : null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: context.ip ?? null,
    userAgent: context.userAgent ?? null,
    requestId: context.requestId ?? null,
  };
  return { ...row, at, hash: auditContentHash(row) };
}

export async function writeAudit(tx: DbOrTx, context: AuditContext, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values(auditRowOf(context, entry, new Date()));
}

/** Several entries of one actor in one statement (one row each, in the given order): a change of both orders of a trade. */
export async function writeAudits(tx: DbOrTx, context: AuditContext, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = new Date();
  await tx.insert(auditLog).values(entries.map((entry) => auditRowOf(context, entry, at)));
}

/**
 * `writeAudits`'s rows as an insert built but not run, for a statement that writes them together with the change
 * they record (a data-modifying CTE; parenthesise it there): the same rows and hashes, one `at` for all, in the
 * given order. The per-row columns go as arrays through unnest, the actor's once: a few parameters whatever the
 * rows, and none of the query builder's per-column work (issue 13: the hot path of every ticket action).
 */
export function auditsInsert(context: AuditContext, entries: readonly AuditEntry[]): SQL {
  const at = new Date();
  const rows = entries.map((entry) => auditRowOf(context, entry, at));
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return sql`INSERT INTO audit_log (at, actor_user_id, actor_client_id, actor_email, actor_roles, action, entity, entity_id,
        before, after, ip, user_agent, request_id, hash)
      SELECT ${at.toISOString()}::timestamptz, ${context.actorUserId ?? null}::uuid, ${context.actorClientId ?? null}::uuid,
        ${context.actorEmail ?? null}::text, ${context.actorRoles ? pgArray([...context.actorRoles]) : null}::text[],
        a.action, a.entity, a.entity_id, a.before, a.after, ${context.ip ?? null}::text, ${context.userAgent ?? null}::text,
        ${context.requestId ?? null}::text, a.hash
      FROM unnest(${pgArray(rows.map((r) => r.action))}::text[], ${pgArray(rows.map((r) => r.entity))}::text[],
        ${pgArray(rows.map((r) => r.entityId))}::text[], ${pgArray(rows.map((r) => json(r.before)))}::jsonb[],
        ${pgArray(rows.map((r) => json(r.after)))}::jsonb[], ${pgArray(rows.map((r) => r.hash))}::text[])
        WITH ORDINALITY AS a(action, entity, entity_id, before, after, hash, n)
      ORDER BY a.n`;
}

export async function writeAuditOnce(tx: DbOrTx, context: AuditContext, entry: AuditEntry & { entityId: string }): Promise<boolean> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit:${entry.action}:${entry.entityId}`}, 0))`);
  const [seen] = await tx
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, entry.action), eq(auditLog.entityId, entry.entityId)))
    .limit(1);
  if (seen) return false;
  await writeAudit(tx, context, entry);
  return true;
}

type StoredAuditRow = typeof auditLog.$inferSelect;

/** The row's content as it was hashed (everything but the id, the hashes and the transaction id). */
function contentOf(row: StoredAuditRow): Record<string, unknown> {
  const { id: _id, prevHash: _prev, hash: _hash, xid: _xid, at, ...rest } = row;
  return { at: at.toISOString(), ...rest };
}

/**
 * Checks each row in id order: a row of the former chain against the previous chained row, a later row against
 * its own content hash. Returns the id of the first broken row, or null.
 */
export function firstBrokenAuditRow(rows: readonly StoredAuditRow[]): number | null {
  let prev = GENESIS;
  for (const r of rows) {
    if (r.prevHash !== null) {
      if (r.prevHash !== prev || r.hash !== auditRowHash(prev, contentOf(r))) return r.id;
      prev = r.hash;
    } else if (r.hash !== auditContentHash(contentOf(r))) return r.id;
  }
  return null;
}

/** A seal's hash: the previous seal's hash, then each row's content hash, in id order. */
export function auditSealHash(prevHash: string, rows: readonly StoredAuditRow[]): string {
  const hash = createHash('sha256').update(prevHash);
  for (const r of rows) hash.update(auditContentHash(contentOf(r)));
  return hash.digest('hex');
}

async function lastChainedHash(db: DbOrTx): Promise<string> {
  const [last] = await db
    .select({ hash: auditLog.hash })
    .from(auditLog)
    .where(isNotNull(auditLog.prevHash))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return last?.hash ?? GENESIS;
}

/**
 * Seals the rows of every transaction finished since the last seal; returns how many rows it sealed (0 when
 * there were none, or another node holds the sealer's lock right now).
 */
export async function sealAudit(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const [locked] = await sqlRows<{ got: boolean }>(tx, sql`SELECT pg_try_advisory_xact_lock(${AUDIT_SEAL_LOCK}) AS got`);
    if (!locked?.got) return 0;
    const [horizon] = await sqlRows<{ h: string }>(tx, sql`SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS h`);
    const toXid = Number(horizon!.h);
    const [last] = await tx.select().from(auditSeals).orderBy(desc(auditSeals.id)).limit(1);
    const fromXid = last?.toXid ?? 0;
    if (toXid <= fromXid) return 0;
    const rows = await tx
      .select()
      .from(auditLog)
      .where(and(gte(auditLog.xid, fromXid), lt(auditLog.xid, toXid)))
      .orderBy(asc(auditLog.id));
    if (rows.length === 0) return 0;
    const prevHash = last?.hash ?? (await lastChainedHash(tx));
    await tx.insert(auditSeals).values({
      fromXid,
      toXid,
      rowCount: rows.length,
      firstId: rows[0]!.id,
      lastId: rows.at(-1)!.id,
      prevHash,
      hash: auditSealHash(prevHash, rows),
    });
    return rows.length;
  });
}

type StoredAuditSeal = typeof auditSeals.$inferSelect;

/**
 * Verifies a whole trail as read: every row's hash (`firstBrokenAuditRow`), then every seal against the rows of
 * its range (count, first and last id, hash) and against the seal before it. Returns the id of the first broken
 * row (for a seal that fails: the first row of its range), or null. Rows after the last seal (transactions
 * still running when it was taken) are checked by their own hash alone.
 */
export function firstBrokenAuditTrail(rows: readonly StoredAuditRow[], seals: readonly StoredAuditSeal[]): number | null {
  const broken = firstBrokenAuditRow(rows);
  if (broken !== null) return broken;
  let prevHash = rows.findLast((r) => r.prevHash !== null)?.hash ?? GENESIS;
  // The sealed rows by transaction id (ties in their given order), so each seal's rows are one binary-searched
  // slice, put back in the given order: a filter over every row for every seal was rows × seals.
  const byXid = rows.map((row, at) => ({ row, at })).filter((e) => e.row.xid !== null);
  byXid.sort((a, b) => a.row.xid! - b.row.xid! || a.at - b.at);
  const firstAtOrAfter = (xid: number) => {
    let lo = 0;
    let hi = byXid.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byXid[mid]!.row.xid! < xid) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const rowsOfSeal = (from: number, to: number) =>
    from >= to
      ? []
      : byXid
          .slice(firstAtOrAfter(from), firstAtOrAfter(to))
          .sort((a, b) => a.at - b.at)
          .map((e) => e.row);
  let fromXid = 0;
  for (const seal of seals) {
    const covered = rowsOfSeal(seal.fromXid, seal.toXid);
    const intact =
      seal.fromXid === fromXid &&
      seal.prevHash === prevHash &&
      covered.length === seal.rowCount &&
      covered[0]?.id === seal.firstId &&
      covered.at(-1)?.id === seal.lastId &&
      auditSealHash(prevHash, covered) === seal.hash;
    if (!intact) return covered[0]?.id ?? seal.firstId;
    prevHash = seal.hash;
    fromXid = seal.toXid;
  }
  return null;
}

/** Seals what has finished, then verifies the whole stored trail (`firstBrokenAuditTrail`). */
export async function verifyAuditChain(db: Db): Promise<number | null> {
  await sealAudit(db);
  const rows = await db.select().from(auditLog).orderBy(asc(auditLog.id));
  const seals = await db.select().from(auditSeals).orderBy(asc(auditSeals.id));
  return firstBrokenAuditTrail(rows, seals);
}

/** Seals the trail about once a second on the node `isLeader` says is the elected one. */
export function startAuditSealer(db: Db, isLeader: () => boolean, onError: (error: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running || !isLeader()) return;
    running = sealAudit(db)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, 1_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Maps a raw `SELECT * FROM audit_seals` row (snake_case) to the Drizzle row shape. */
export function auditSealFromSql(row: Record<string, unknown>): StoredAuditSeal {
  return {
    id: Number(row.id),
    sealedAt: new Date(row.sealed_at as string | Date),
    fromXid: Number(row.from_xid),
    toXid: Number(row.to_xid),
    rowCount: Number(row.row_count),
    firstId: Number(row.first_id),
    lastId: Number(row.last_id),
    prevHash: row.prev_hash as string,
    hash: row.hash as string,
  };
}

/** Maps a raw `SELECT * FROM audit_log` row (snake_case) to the Drizzle row shape. */
export function auditRowFromSql(row: Record<string, unknown>): StoredAuditRow {
  return {
    id: Number(row.id),
    at: new Date(row.at as string | Date),
    actorUserId: row.actor_user_id as string | null,
    actorClientId: row.actor_client_id as string | null,
    actorEmail: row.actor_email as string | null,
    actorRoles: row.actor_roles as string[] | null,
    action: row.action as string,
    entity: row.entity as string,
    entityId: row.entity_id as string | null,
    before: row.before,
    after: row.after,
    ip: row.ip as string | null,
    userAgent: row.user_agent as string | null,
    requestId: row.request_id as string | null,
    prevHash: (row.prev_hash as string | null) ?? null,
    hash: row.hash as string,
    xid: row.xid === null || row.xid === undefined ? null : Number(row.xid),
  };
}
