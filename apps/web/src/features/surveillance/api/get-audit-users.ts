import type { AuditUserList } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET /api/surveillance/audit/users/: the people of the caller's firm, for the user filter. */
export function getAuditUsers(): Promise<AuditUserList> {
  return http.get<AuditUserList>('/api/surveillance/audit/users/');
}

export const auditUsersQueryOptions = () =>
  queryOptions({ queryKey: ['surveillance', 'audit-users'] as const, queryFn: getAuditUsers, staleTime: 5 * 60_000 });

export function useAuditUsers() {
  return useQuery(auditUsersQueryOptions());
}
