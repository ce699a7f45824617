import type { AuditList, AuditListQuery } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import type { AuditFilters } from '../utils/audit-filters';
import { toAuditQuery } from '../utils/audit-filters';

export type { AuditEntry, AuditList } from '@dart/contracts';

export const AUDIT_PAGE_SIZE = 25;
/** Every page of the trail (a triage step or a download adds a row to it). */
export const AUDIT_KEY = ['surveillance', 'audit'] as const;

/** GET /api/surveillance/audit/ with the filters and a page (compliance officers; the caller's firm only). */
export function getAuditEntries(filters: AuditFilters, page: number): Promise<AuditList> {
  const query: Partial<AuditListQuery> = { ...toAuditQuery(filters), page, page_size: AUDIT_PAGE_SIZE };
  return http.get<AuditList>('/api/surveillance/audit/', { query });
}

export const auditEntriesQueryOptions = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: [...AUDIT_KEY, toAuditQuery(filters), page] as const,
    queryFn: () => getAuditEntries(filters, page),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

/** The trail page; `enabled` is false while the filters are invalid (the form shows why). */
export function useAuditEntries(filters: AuditFilters, page: number, enabled = true) {
  return useQuery({ ...auditEntriesQueryOptions(filters, page), enabled });
}
