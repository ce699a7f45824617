/** The alert list's filters as the form holds them, and as the API takes them (`GET api/surveillance/alerts/`). */
import {
  SurveillanceAlertListQuerySchema,
  type SurveillanceAlertKind,
  type SurveillanceAlertListQuery,
  type SurveillanceAlertStatus,
} from '@dart/contracts';

export interface AlertFilters {
  kind: SurveillanceAlertKind | null;
  status: SurveillanceAlertStatus | null;
  /** A user id of the caller's firm, or null for anyone (and no one). */
  assignee: string | null;
  /** yyyy-mm-dd or '' (IST days of the alert's creation, both included). */
  from: string;
  to: string;
}

export type AlertQuery = Pick<SurveillanceAlertListQuery, 'kind' | 'status' | 'assignee' | 'from' | 'to'>;

export const EMPTY_ALERT_FILTERS: AlertFilters = { kind: null, status: null, assignee: null, from: '', to: '' };

/** The query string the list and the CSV export share; empty fields are left out. */
export function toAlertQuery(filters: AlertFilters): Partial<AlertQuery> {
  return {
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.assignee ? { assignee: filters.assignee } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
}

/** The query as URL search parameters (the CSV export adds `format=csv`). */
export function alertSearchParams(filters: AlertFilters, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...toAlertQuery(filters), ...extra })) if (value) params.set(key, String(value));
  return params;
}

/** Field errors by form field, from the schema the server validates with (empty when valid). */
export function alertFilterErrors(filters: AlertFilters): Partial<Record<keyof AlertFilters, string>> {
  const parsed = SurveillanceAlertListQuerySchema.safeParse(toAlertQuery(filters));
  if (parsed.success) return {};
  const errors: Partial<Record<keyof AlertFilters, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0]) as keyof AlertFilters;
    if (key in EMPTY_ALERT_FILTERS && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export function countActiveAlertFilters(filters: AlertFilters): number {
  return Object.keys(toAlertQuery(filters)).length;
}
