import type { FinstrumentListSchema, IssuerBondsRequestSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type IssuerBondsRequest = z.input<typeof IssuerBondsRequestSchema>;
export type IssuerBondList = z.infer<typeof FinstrumentListSchema>;

/** POST /api/bonds-by-same-issuer/{id}/ (public): pagination, sort, numeric/date filters. */
export function getIssuerBonds(id: number, request: IssuerBondsRequest): Promise<IssuerBondList> {
  return http.post<IssuerBondList>(`/api/bonds-by-same-issuer/${id}/`, request);
}

export const issuerBondsQueryOptions = (id: number, request: IssuerBondsRequest) =>
  queryOptions({
    queryKey: ['finstruments', 'issuer-bonds', id, request] as const,
    queryFn: () => getIssuerBonds(id, request),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useIssuerBonds(id: number, request: IssuerBondsRequest) {
  return useQuery(issuerBondsQueryOptions(id, request));
}
