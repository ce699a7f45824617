import { BUILD_MANIFEST_POLL_MS } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /builds/latest.json: the id of the build the server is serving now. */
export async function getBuildManifest(): Promise<{ id: string }> {
  return api.buildManifest();
}

export const buildManifestQueryOptions = () =>
  queryOptions({
    queryKey: ['build-manifest'] as const,
    queryFn: getBuildManifest,
    refetchInterval: BUILD_MANIFEST_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: false,
    staleTime: BUILD_MANIFEST_POLL_MS,
    retry: false,
  });

export function useBuildManifest() {
  return useQuery(buildManifestQueryOptions());
}
