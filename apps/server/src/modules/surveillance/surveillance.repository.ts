/**
 * SQL of the alerts and their triage history. Every read takes the firm (`clientId`): an alert of another firm is
 * never found (the tenant predicate is in each query, not left to the caller).
 */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { SurveillanceAlertKind, SurveillanceAlertStatus, SurveillanceTriageAction } from '@dart/contracts';
import type { DbOrTx } from '../../db/client';
import { surveillanceAlertEvents, surveillanceAlerts, userAccountRoles, userAccounts, users } from '../../db/schema';

export type AlertRow = typeof surveillanceAlerts.$inferSelect;
export type AlertEventRow = typeof surveillanceAlertEvents.$inferSelect;

/** What the scanner writes: one alert for one firm. */
export interface AlertDraft {
  clientId: string;
  kind: SurveillanceAlertKind;
  score: number;
  title: string;
  summary: string;
  evidence: StoredEvidence;
  dedupeKey: string;
  groupKey: string | null;
  occurredAt: Date;
}

export interface StoredEvidence {
  items: Array<{ type: string; id: string; at: string | null; excerpt: string }>;
  facts: Record<string, string | number | boolean | null>;
  [key: string]: unknown;
}

/** Rows per INSERT: PostgreSQL allows 65,535 parameters in one statement. */
const INSERT_CHUNK = 1_000;

/** Inserts the drafts; a (firm, dedupe key) already there is skipped. Returns how many were new. */
export async function insertAlerts(tx: DbOrTx, drafts: readonly AlertDraft[], now: Date): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < drafts.length; i += INSERT_CHUNK) {
    const rows = await tx
      .insert(surveillanceAlerts)
      .values(drafts.slice(i, i + INSERT_CHUNK).map((d) => ({ ...d, status: 'open', createdAt: now, updatedAt: now })))
      .onConflictDoNothing({ target: [surveillanceAlerts.clientId, surveillanceAlerts.dedupeKey] })
      .returning({ id: surveillanceAlerts.id });
    inserted += rows.length;
  }
  return inserted;
}

export interface AlertFilter {
  kind?: SurveillanceAlertKind | undefined;
  status?: SurveillanceAlertStatus | undefined;
  assignee?: string | undefined;
  /** Creation time bounds: [from, to). */
  from?: Date | undefined;
  to?: Date | undefined;
}

function where(clientId: string, f: AlertFilter): SQL {
  return and(
    eq(surveillanceAlerts.clientId, clientId),
    f.kind ? eq(surveillanceAlerts.kind, f.kind) : undefined,
    f.status ? eq(surveillanceAlerts.status, f.status) : undefined,
    f.assignee ? eq(surveillanceAlerts.assigneeUserId, f.assignee) : undefined,
    f.from ? gte(surveillanceAlerts.createdAt, f.from) : undefined,
    f.to ? lt(surveillanceAlerts.createdAt, f.to) : undefined,
  )!;
}

export type ListedAlert = AlertRow & { assigneeFirstName: string | null; assigneeLastName: string | null };

const listColumns = {
  alert: surveillanceAlerts,
  assigneeFirstName: users.firstName,
  assigneeLastName: users.lastName,
};

export async function listAlerts(tx: DbOrTx, clientId: string, f: AlertFilter, limit: number, offset: number): Promise<ListedAlert[]> {
  const rows = await tx
    .select(listColumns)
    .from(surveillanceAlerts)
    .leftJoin(users, eq(users.id, surveillanceAlerts.assigneeUserId))
    .where(where(clientId, f))
    .orderBy(desc(surveillanceAlerts.createdAt), desc(surveillanceAlerts.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r.alert, assigneeFirstName: r.assigneeFirstName, assigneeLastName: r.assigneeLastName }));
}

export async function countAlerts(tx: DbOrTx, clientId: string, f: AlertFilter): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(surveillanceAlerts).where(where(clientId, f));
  return Number(row?.n ?? 0);
}

/** The firm's alert, or null (another firm's id is not found). `forUpdate` locks it for a triage step. */
export async function findAlert(tx: DbOrTx, clientId: string, id: string, forUpdate = false): Promise<ListedAlert | null> {
  const query = tx
    .select(listColumns)
    .from(surveillanceAlerts)
    .leftJoin(users, eq(users.id, surveillanceAlerts.assigneeUserId))
    .where(and(eq(surveillanceAlerts.clientId, clientId), eq(surveillanceAlerts.id, id)));
  const [row] = forUpdate ? await query.for('update', { of: surveillanceAlerts }) : await query;
  return row ? { ...row.alert, assigneeFirstName: row.assigneeFirstName, assigneeLastName: row.assigneeLastName } : null;
}

/** Other alerts of the firm with the same group key raised within `windowMs` of this one. */
export async function linkedAlertIds(tx: DbOrTx, alert: AlertRow, windowMs: number): Promise<string[]> {
  if (!alert.groupKey) return [];
  const rows = await tx
    .select({ id: surveillanceAlerts.id })
    .from(surveillanceAlerts)
    .where(
      and(
        eq(surveillanceAlerts.clientId, alert.clientId),
        isNotNull(surveillanceAlerts.groupKey),
        eq(surveillanceAlerts.groupKey, alert.groupKey),
        ne(surveillanceAlerts.id, alert.id),
        sql`abs(extract(epoch FROM ${surveillanceAlerts.occurredAt} - ${alert.occurredAt.toISOString()}::timestamptz)) <= ${windowMs / 1000}`,
      ),
    )
    .orderBy(asc(surveillanceAlerts.occurredAt))
    .limit(50);
  return rows.map((r) => r.id);
}

/** The titles of the firm's alerts with these ids, in the given order (the evidence pack names linked alerts). */
export async function alertTitles(tx: DbOrTx, clientId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: surveillanceAlerts.id, title: surveillanceAlerts.title })
    .from(surveillanceAlerts)
    .where(and(eq(surveillanceAlerts.clientId, clientId), inArray(surveillanceAlerts.id, [...ids])));
  const byId = new Map(rows.map((row) => [row.id, row.title]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export async function updateAlert(
  tx: DbOrTx,
  id: string,
  change: { status?: SurveillanceAlertStatus; assigneeUserId?: string },
  now: Date,
): Promise<void> {
  await tx
    .update(surveillanceAlerts)
    .set({ ...change, updatedAt: now })
    .where(eq(surveillanceAlerts.id, id));
}

export async function insertEvent(
  tx: DbOrTx,
  event: {
    alertId: string;
    action: SurveillanceTriageAction;
    actorUserId: string;
    assigneeUserId?: string | null;
    comment?: string | null;
    fromStatus: SurveillanceAlertStatus;
    toStatus: SurveillanceAlertStatus;
    at: Date;
  },
): Promise<void> {
  await tx.insert(surveillanceAlertEvents).values(event);
}

export type HistoryRow = AlertEventRow & { actorName: string; assigneeName: string | null };

export async function history(tx: DbOrTx, alertId: string): Promise<HistoryRow[]> {
  const rows = await tx
    .select({ event: surveillanceAlertEvents, first: users.firstName, last: users.lastName })
    .from(surveillanceAlertEvents)
    .innerJoin(users, eq(users.id, surveillanceAlertEvents.actorUserId))
    .where(eq(surveillanceAlertEvents.alertId, alertId))
    .orderBy(asc(surveillanceAlertEvents.id));
  const assignees = await userNames(tx, [...new Set(rows.map((r) => r.event.assigneeUserId).filter((id): id is string => Boolean(id)))]);
  return rows.map((r) => ({
    ...r.event,
    actorName: `${r.first} ${r.last}`.trim(),
    assigneeName: r.event.assigneeUserId ? (assignees.get(r.event.assigneeUserId) ?? null) : null,
  }));
}

export async function userNames(tx: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, first: users.firstName, last: users.lastName })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, `${r.first} ${r.last}`.trim()]));
}

/** Whether the user is an active compliance officer of the firm (the only people an alert may be assigned to). */
export async function isComplianceOfficerOf(tx: DbOrTx, userId: string, clientId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: userAccounts.id })
    .from(userAccounts)
    .innerJoin(userAccountRoles, eq(userAccountRoles.userAccountId, userAccounts.id))
    .innerJoin(users, eq(users.id, userAccounts.userId))
    .where(
      and(
        eq(userAccounts.userId, userId),
        eq(userAccounts.clientId, clientId),
        eq(userAccounts.status, 'active'),
        eq(userAccountRoles.role, 'complianceofficer'),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return Boolean(row);
}
