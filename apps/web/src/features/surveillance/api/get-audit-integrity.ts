import type { AuditIntegrity } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export type { AuditIntegrity } from '@dart/contracts';

/**
 * GET /api/surveillance/audit/integrity/: the whole trail's row hashes and seals verified now. It reads the whole
 * trail, so it runs once per visit (and on "Check again"), not on every filter change.
 */
export function getAuditIntegrity(): Promise<AuditIntegrity> {
  return http.get<AuditIntegrity>('/api/surveillance/audit/integrity/');
}

export const auditIntegrityQueryOptions = () =>
  queryOptions({ queryKey: ['surveillance', 'audit-integrity'] as const, queryFn: getAuditIntegrity, staleTime: 5 * 60_000 });

export function useAuditIntegrity() {
  return useQuery(auditIntegrityQueryOptions());
}
