import type { PriceInfo, PriceRequest } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** The body of a price calculation without the cross-field refinements (yield xor price is ours to keep). */
export type PriceInfoRequest = Pick<PriceRequest, 'yield' | 'price' | 'settlement_delta' | 'quantity'>;

/** POST /api/v1/finstrument/{id}/ (public): price info, or a calculation from a yield or a clean price. */
export function getPriceInfo(finstrumentId: number | string, request: PriceInfoRequest): Promise<PriceInfo> {
  return http.post<PriceInfo>(`/api/v1/finstrument/${encodeURIComponent(String(finstrumentId))}/`, request);
}

export const priceInfoQueryOptions = (finstrumentId: number | string, request: PriceInfoRequest) =>
  queryOptions({
    queryKey: ['finstruments', 'price', String(finstrumentId), request] as const,
    queryFn: () => getPriceInfo(finstrumentId, request),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });

export function usePriceInfo(finstrumentId: number | string, request: PriceInfoRequest) {
  return useQuery(priceInfoQueryOptions(finstrumentId, request));
}
