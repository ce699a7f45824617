/**
 * The audit trail: one append-only, hash-chained row per state change, written in the same
 * transaction as the change. Rows are chained with SHA-256 over (previous hash, canonical row), so
 * a tampered or deleted row breaks the chain (`verifyAuditChain`).
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';
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
/** Serialises chain appends across connections and nodes. */
const AUDIT_CHAIN_LOCK = 727_002;

export function auditRowHash(prevHash: string, row: Record<string, unknown>): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(row)).digest('hex');
}

/** Appends one audit row; call inside the transaction that makes the change. */
export async function writeAudit(tx: DbOrTx, context: AuditContext, entry: AuditEntry): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  const at = new Date();
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
  await tx.insert(auditLog).values({ ...row, at, prevHash, hash: auditRowHash(prevHash, row) });
}

/**
 * Appends the row only if no row with the same action and entity id exists yet; returns whether it
 * wrote one. For facts that recur without news (a chat token re-issued on every page view under one
 * sign-in): the first is the compliance event, the rest would flood the trail. The check runs under
 * the chain lock, so two concurrent callers on any nodes write one row between them.
 */
export async function writeAuditOnce(tx: DbOrTx, context: AuditContext, entry: AuditEntry & { entityId: string }): Promise<boolean> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
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

/** Recomputes the chain over rows in id order; returns the id of the first broken row, or null. */
export function firstBrokenAuditRow(rows: readonly StoredAuditRow[]): number | null {
  let prev = GENESIS;
  for (const r of rows) {
    const { id, prevHash, hash, at, ...rest } = r;
    const expected = auditRowHash(prev, { at: at.toISOString(), ...rest });
    if (prevHash !== prev || hash !== expected) return id;
    prev = hash;
  }
  return null;
}

/** Verifies the whole stored chain. */
export async function verifyAuditChain(db: DbOrTx): Promise<number | null> {
  return firstBrokenAuditRow(await db.select().from(auditLog).orderBy(auditLog.id));
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
    prevHash: row.prev_hash as string,
    hash: row.hash as string,
  };
}
