import type { NetworkStats } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export const NETWORK_KEY = ['network'] as const;

/** GET api/network/stats/: per counterparty firm, our last 90 days with it (server README "Counterparty quality"). */
export function getNetworkStats(signal?: AbortSignal): Promise<NetworkStats> {
  return http.get<NetworkStats>('/api/network/stats/', signal ? { signal } : {});
}

export const networkStatsQueryOptions = () =>
  queryOptions({
    queryKey: [...NETWORK_KEY, 'stats'] as const,
    queryFn: ({ signal }) => getNetworkStats(signal),
    // Ninety days of figures move slowly: a minute old is current enough, and the panel refetches on focus.
    staleTime: 60_000,
  });

/** Only users who trade read the stats (the server answers 403 to the others). */
export function useNetworkStats(enabled: boolean) {
  return useQuery({ ...networkStatsQueryOptions(), enabled });
}
