import type { FinstrumentDetail } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET /api/finstrument/{id|ISIN}/ (public): terms, provenance, assumed fields, reference price. */
export function getFinstrument(id: string): Promise<FinstrumentDetail> {
  return http.get<FinstrumentDetail>(`/api/finstrument/${encodeURIComponent(id)}/`);
}

export const finstrumentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['finstruments', 'detail', id] as const,
    queryFn: () => getFinstrument(id),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useFinstrument(id: string) {
  return useQuery(finstrumentQueryOptions(id));
}
