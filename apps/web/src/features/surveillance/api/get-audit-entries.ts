import type { AuditListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type AuditList = z.infer<typeof AuditListSchema>;
export type AuditEntry = AuditList['results'][number];

export const AUDIT_PAGE_SIZE = 20;

/** GET /api/surveillance/audit/?page&page_size (compliance officers only). */
export function getAuditEntries(page: number): Promise<AuditList> {
  return http.get<AuditList>('/api/surveillance/audit/', { query: { page, page_size: AUDIT_PAGE_SIZE } });
}

export const auditEntriesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['surveillance', 'audit', page] as const,
    queryFn: () => getAuditEntries(page),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

export function useAuditEntries(page: number) {
  return useQuery(auditEntriesQueryOptions(page));
}
