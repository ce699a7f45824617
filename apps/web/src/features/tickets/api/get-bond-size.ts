import { faceValuePerBond, type FinstrumentDetail } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/**
 * GET /api/finstrument/{id}/ (public) read for the rupees of face value in one bond (₹100 for G-secs, SDLs
 * and T-bills, else the bond's own face value): the manual ticket's size field counts bonds with it.
 */
export function getBondSize(finstrumentId: number, signal?: AbortSignal): Promise<number> {
  return http
    .get<FinstrumentDetail>(`/api/finstrument/${finstrumentId}/`, signal ? { signal } : {})
    .then((bond) => faceValuePerBond({ security_type: bond.security_type, face_value: bond.face_value }));
}

export const bondSizeQueryOptions = (finstrumentId: number | null) =>
  queryOptions({
    queryKey: ['tickets-bond-size', finstrumentId] as const,
    queryFn: ({ signal }) => getBondSize(finstrumentId!, signal),
    enabled: finstrumentId !== null,
    // A bond's face value does not change within a session.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Rupees of face value in one bond of `finstrumentId`; undefined until known (or with no bond). */
export function useFaceValuePerBond(finstrumentId: number | null): number | undefined {
  return useQuery(bondSizeQueryOptions(finstrumentId)).data;
}
