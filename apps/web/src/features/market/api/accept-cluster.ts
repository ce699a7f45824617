import type { Cluster } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { rememberDeal } from './deals-store';
import { CLUSTERS_KEY } from './list-clusters';
import { refreshKey } from '../../../lib/refresh-key';

/** POST api/cluster/{id}/accept/?lsId=: accept the caller's leg; both legs accepted → a deal. */
export function acceptCluster(cluster: Pick<Cluster, 'id' | 'my_leg_id'>): Promise<Cluster> {
  return http.post<Cluster>(`/api/cluster/${encodeURIComponent(cluster.id)}/accept/`, {}, { query: { lsId: cluster.my_leg_id } });
}

export function useAcceptCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptCluster,
    onSuccess: (cluster) => {
      if (cluster.deal) rememberDeal(queryClient, cluster.deal);
      refreshKey(queryClient, CLUSTERS_KEY);
    },
  });
}
