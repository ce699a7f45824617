import type { UsersClientsUnifiedSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type UsersClientsUnified = z.infer<typeof UsersClientsUnifiedSchema>;

export interface UsersClientsQuery {
  search: string;
  /** Only broker firms and their users. */
  broker?: boolean;
}

/** GET api/chatter/users-clients-unified/: people and firms to put on a ticket. */
export function searchUsersClients(query: UsersClientsQuery, signal?: AbortSignal): Promise<UsersClientsUnified> {
  return http.get<UsersClientsUnified>('/api/chatter/users-clients-unified/', {
    query: { search_param: query.search.trim(), ...(query.broker ? { broker: 'true' } : {}) },
    retries: 0,
    ...(signal ? { signal } : {}),
  });
}

export const usersClientsQueryOptions = (query: UsersClientsQuery) =>
  queryOptions({
    queryKey: ['tickets', 'users-clients', query.search.trim().toLowerCase(), Boolean(query.broker)] as const,
    queryFn: ({ signal }) => searchUsersClients(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });

export function useUsersClients(query: UsersClientsQuery, enabled = true) {
  return useQuery({ ...usersClientsQueryOptions(query), enabled });
}
