/**
 * The surveillance read model: the caller's firm's audit trail as readable entries (labels from
 * contracts, names joined in SQL, details in words), a page at a time or as a CSV export.
 */
import {
  AUDIT_ACTION_LABELS,
  AUDIT_EXPORT_COLUMNS,
  AUDIT_EXPORT_MAX_ROWS,
  auditActionLabel,
  auditCategoryOf,
  type AuditEntry,
  type AuditExportQuery,
  type AuditIntegrity,
  type AuditList,
  type AuditListQuery,
  type AuditUserList,
} from '@dart/contracts';
import { verifyAuditChain } from '../../lib/audit';
import type { AppDeps } from '../../types';
import { CSV_BOM, csvRow, formatIstDateTime, istDay, istDayStart } from './audit.csv';
import { describeAuditDetails, entityLabel } from './audit.details';
import { createAuditRepository, type AuditFilter, type AuditRow } from './audit.repository';

/** Rows the export reads per statement. */
const EXPORT_BATCH = 500;

function filterOf(clientId: string, query: AuditExportQuery): AuditFilter {
  const search = query.q?.trim() || undefined;
  const needle = search?.toLowerCase();
  return {
    clientId,
    fromAt: query.from ? istDayStart(query.from) : undefined,
    toAt: query.to ? istDayStart(query.to, 1) : undefined,
    userId: query.user_id,
    category: query.category,
    action: query.action,
    search,
    searchActions: needle
      ? Object.entries(AUDIT_ACTION_LABELS)
          .filter(([, label]) => label.toLowerCase().includes(needle))
          .map(([code]) => code)
      : undefined,
  };
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    // A row with an actor that is not a person (the demo seed writes 'seed') reads as the system.
    actor_name: row.actorName ?? (row.actorEmail && !row.actorEmail.includes('@') ? 'System' : null),
    actor_email: row.actorEmail,
    actor_client_name: row.actorClientName,
    action: row.action,
    action_label: auditActionLabel(row.action),
    category: auditCategoryOf(row.action),
    entity_label: entityLabel(row.entity),
    entity_name: row.entityName,
    details: describeAuditDetails(row.before, row.after),
    ip: row.ip,
  };
}

function csvLine(entry: AuditEntry, at: Date): string {
  return csvRow([
    formatIstDateTime(at),
    entry.actor_name ?? (entry.actor_email ? null : 'System'),
    entry.actor_email,
    entry.actor_client_name,
    entry.action_label,
    entry.entity_label,
    entry.entity_name,
    entry.details,
    entry.ip,
  ]);
}

export function createAuditService(deps: Pick<AppDeps, 'database' | 'now'>) {
  const repo = createAuditRepository(deps.database.db);

  return {
    async list(clientId: string, query: AuditListQuery): Promise<AuditList> {
      const filter = filterOf(clientId, query);
      const [rows, count] = await Promise.all([repo.page(filter, query.page_size, (query.page - 1) * query.page_size), repo.count(filter)]);
      return { count, results: rows.map(toAuditEntry) };
    },

    async users(clientId: string): Promise<AuditUserList> {
      return { results: await repo.usersOf(clientId) };
    },

    /**
     * The whole trail's tamper evidence checked now: seals what has finished, then every row's hash and every seal
     * (`verifyAuditChain`). Reads the whole trail, every firm's (the chain is one): the answer says only intact or not.
     */
    async integrity(): Promise<AuditIntegrity> {
      const broken = await verifyAuditChain(deps.database.db);
      const sealedThrough = await repo.lastSealAt();
      return { intact: broken === null, checked_at: deps.now().toISOString(), sealed_through: sealedThrough?.toISOString() ?? null };
    },

    /** How many rows an export of `query` would hold (the route refuses one above the cap). */
    async exportCount(clientId: string, query: AuditExportQuery): Promise<number> {
      return repo.count(filterOf(clientId, query));
    },

    /** The file name of an export made now: `dart-audit-trail-2025-08-21.csv` (IST day). */
    exportFileName(): string {
      return `dart-audit-trail-${istDay(deps.now())}.csv`;
    },

    /**
     * The CSV text, newest first, read in keyset batches so a long trail never sits in memory at once.
     * A row appended meanwhile has a higher id and is not in this export.
     */
    async *exportCsv(clientId: string, query: AuditExportQuery): AsyncGenerator<string> {
      const filter = filterOf(clientId, query);
      yield CSV_BOM + csvRow(AUDIT_EXPORT_COLUMNS);
      let beforeId: number | null = null;
      let written = 0;
      while (written < AUDIT_EXPORT_MAX_ROWS) {
        const rows = await repo.batchBefore(filter, beforeId, Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - written));
        if (rows.length === 0) return;
        yield rows.map((row) => csvLine(toAuditEntry(row), row.at)).join('');
        written += rows.length;
        beforeId = rows.at(-1)!.id;
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
