import type { InviteCreateSchema, InviteSchema } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { clientUsersQueryOptions } from './get-client-users';
import { pendingInvitesQueryOptions } from './get-pending-invites';

export type InviteCreate = z.input<typeof InviteCreateSchema>;
export type Invite = z.infer<typeof InviteSchema>;

/** POST /api/client/user/invite/ (spec path) {email, roles, permissions}: answers with the invite and its token. */
export function createInvite(body: InviteCreate): Promise<Invite> {
  return http.post<Invite>('/api/client/user/invite/', body);
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvite,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: clientUsersQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: pendingInvitesQueryOptions().queryKey }),
      ]);
    },
  });
}
