import type { ClientUserListSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type ClientUserList = z.infer<typeof ClientUserListSchema>;
export type ClientUser = ClientUserList['results'][number];

/** GET /api/client/users/: the users of the signed-in user's organisation (ops admins only). */
export function getClientUsers(): Promise<ClientUserList> {
  return http.get<ClientUserList>('/api/client/users/');
}

export const clientUsersQueryOptions = () =>
  queryOptions({ queryKey: ['client', 'users'] as const, queryFn: getClientUsers, staleTime: 30_000 });

export function useClientUsers() {
  return useQuery(clientUsersQueryOptions());
}
