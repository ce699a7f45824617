import type { Cluster } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export interface ClusterList {
  count: number;
  page: number;
  page_size: number;
  results: Cluster[];
}

export const CLUSTERS_KEY = ['market', 'clusters'] as const;

/** GET api/trade/cluster/: matches the caller's firm is a party to (newest first). */
export function listClusters(signal?: AbortSignal): Promise<ClusterList> {
  return http.get<ClusterList>('/api/trade/cluster/', { query: { page: 1, page_size: 50 }, ...(signal ? { signal } : {}) });
}

export const clustersQueryOptions = () =>
  queryOptions({ queryKey: [...CLUSTERS_KEY] as const, queryFn: ({ signal }) => listClusters(signal), staleTime: 60_000 });

export function useClusters() {
  return useQuery(clustersQueryOptions());
}
