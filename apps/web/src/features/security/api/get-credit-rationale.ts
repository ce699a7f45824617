import type { CreditRationaleSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type CreditRationale = z.infer<typeof CreditRationaleSchema>;

/** GET /api/credit-rationale/{id}/ (security-data permission): ratings by agency and date. */
export function getCreditRationale(id: number): Promise<CreditRationale> {
  return http.get<CreditRationale>(`/api/credit-rationale/${id}/`);
}

export const creditRationaleQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['finstruments', 'credit-rationale', id] as const,
    queryFn: () => getCreditRationale(id),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useCreditRationale(id: number, enabled = true) {
  return useQuery({ ...creditRationaleQueryOptions(id), enabled });
}
