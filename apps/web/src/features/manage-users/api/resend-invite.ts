import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import type { Invite } from './create-invite';
import { pendingInvitesQueryOptions } from './get-pending-invites';

/** POST /api/client/user/invite/resend/ {invitee_id}: e-mails a new link, valid seven more days; the old link stops working. */
export function resendInvite(inviteId: string): Promise<Invite> {
  return http.post<Invite>('/api/client/user/invite/resend/', { invitee_id: inviteId });
}

export function useResendInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pendingInvitesQueryOptions().queryKey }),
  });
}
