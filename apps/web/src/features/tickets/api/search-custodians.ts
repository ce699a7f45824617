import type { CustodianListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type Custodian = z.infer<typeof CustodianListSchema>[number];

/** GET /api/client/search-custodians/: SEBI-registered custodians whose name matches. */
export function searchCustodians(search: string, signal?: AbortSignal): Promise<Custodian[]> {
  return http.get<Custodian[]>('/api/client/search-custodians/', {
    query: { search_param: search.trim() },
    retries: 0,
    ...(signal ? { signal } : {}),
  });
}

export const custodiansQueryOptions = (search: string) =>
  queryOptions({
    queryKey: ['tickets', 'custodians', search.trim().toLowerCase()] as const,
    queryFn: ({ signal }) => searchCustodians(search, signal),
    placeholderData: keepPreviousData,
    // The register changes rarely.
    staleTime: 10 * 60_000,
    retry: false,
  });

export function useCustodians(search: string, enabled = true) {
  return useQuery({ ...custodiansQueryOptions(search), enabled });
}
