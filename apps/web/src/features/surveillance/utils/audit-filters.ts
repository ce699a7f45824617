/** The surveillance page's filters as the form holds them, and as the API takes them. */
import { AuditExportQuerySchema, type AuditCategory, type AuditExportQuery } from '@dart/contracts';

export interface AuditFilters {
  /** yyyy-mm-dd or '' (IST calendar days on the server). */
  from: string;
  to: string;
  /** A user id of the caller's firm, or null for everyone. */
  userId: string | null;
  category: AuditCategory | null;
  /** Free text; trimmed before it is sent. */
  search: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = { from: '', to: '', userId: null, category: null, search: '' };

/** The query string the list and the export share; empty fields are left out. */
export function toAuditQuery(filters: AuditFilters): AuditExportQuery {
  const search = filters.search.trim();
  return {
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.userId ? { user_id: filters.userId } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(search ? { q: search } : {}),
  };
}

/** Field errors by form field, from the same schema the server validates with (empty when valid). */
export function auditFilterErrors(filters: AuditFilters): Partial<Record<keyof AuditFilters, string>> {
  const parsed = AuditExportQuerySchema.safeParse(toAuditQuery(filters));
  if (parsed.success) return {};
  const field: Record<string, keyof AuditFilters> = { from: 'from', to: 'to', user_id: 'userId', category: 'category', q: 'search' };
  const errors: Partial<Record<keyof AuditFilters, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = field[String(issue.path[0])];
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export function countActiveAuditFilters(filters: AuditFilters): number {
  return Object.keys(toAuditQuery(filters)).length;
}
