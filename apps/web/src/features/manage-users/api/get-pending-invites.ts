import type { PendingInviteListSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type PendingInviteList = z.infer<typeof PendingInviteListSchema>;

/** GET /api/client/invites/: invitations of the organisation not yet accepted and not expired. */
export function getPendingInvites(): Promise<PendingInviteList> {
  return http.get<PendingInviteList>('/api/client/invites/');
}

export const pendingInvitesQueryOptions = () =>
  queryOptions({ queryKey: ['client', 'invites', 'pending'] as const, queryFn: getPendingInvites, staleTime: 30_000 });

export function usePendingInvites() {
  return useQuery(pendingInvitesQueryOptions());
}
