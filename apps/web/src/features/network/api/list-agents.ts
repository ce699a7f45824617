import type { AgentListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { NETWORK_KEY } from './get-network-stats';

export type AgentList = z.output<typeof AgentListSchema>;

/** GET api/trade/agent/: active dealers of broker firms (by their or their firm's name). */
export function listAgents(search: string, signal?: AbortSignal): Promise<AgentList> {
  return http.get<AgentList>('/api/trade/agent/', { query: { search }, ...(signal ? { signal } : {}) });
}

export const agentsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...NETWORK_KEY, 'agents', search.toLowerCase()] as const,
    queryFn: ({ signal }) => listAgents(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useAgents(search: string) {
  return useQuery(agentsQueryOptions(search));
}
