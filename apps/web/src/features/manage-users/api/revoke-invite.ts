import type { InviteRevokedSchema } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { pendingInvitesQueryOptions } from './get-pending-invites';

export type InviteRevoked = z.infer<typeof InviteRevokedSchema>;

/** POST /api/client/user/invite/revoke/ {invitee_id}: the invite's link stops working at once. */
export function revokeInvite(inviteId: string): Promise<InviteRevoked> {
  return http.post<InviteRevoked>('/api/client/user/invite/revoke/', { invitee_id: inviteId });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pendingInvitesQueryOptions().queryKey }),
  });
}
