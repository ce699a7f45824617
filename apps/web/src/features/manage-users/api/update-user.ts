import type { TeamUser, UserRolesUpdateSchema } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { clientUsersQueryOptions } from './get-client-users';

export type UserRolesUpdate = z.input<typeof UserRolesUpdateSchema>;

/** PUT /api/client/user/ {user_id, roles, permissions?, status?}: one member's roles, permissions or status (ops admins). */
export function updateUser(body: UserRolesUpdate): Promise<TeamUser> {
  return http.put<TeamUser>('/api/client/user/', body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientUsersQueryOptions().queryKey }),
  });
}
