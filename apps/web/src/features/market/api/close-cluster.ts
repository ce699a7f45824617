import type { Cluster } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { CLUSTERS_KEY } from './list-clusters';
import { refreshKey } from '../../../lib/refresh-key';

/** PUT api/trade/cluster/{id}/ {status: closed}: decline a match; both quotes get the quantum back. */
export function closeCluster(id: string): Promise<Cluster> {
  return http.put<Cluster>(`/api/trade/cluster/${encodeURIComponent(id)}/`, { status: 'closed' });
}

export function useCloseCluster() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: closeCluster, onSuccess: () => refreshKey(queryClient, CLUSTERS_KEY) });
}
