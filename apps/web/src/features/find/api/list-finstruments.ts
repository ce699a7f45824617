import type { FinstrumentListRequestSchema, FinstrumentListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type FinstrumentListRequest = z.input<typeof FinstrumentListRequestSchema>;
export type FinstrumentList = z.infer<typeof FinstrumentListSchema>;
export type FinstrumentListRow = FinstrumentList['results'][number];

/** POST /api/finstruments/ (public): the Find grid — filters, sort and pagination over the universe. */
export function listFinstruments(request: FinstrumentListRequest, signal?: AbortSignal): Promise<FinstrumentList> {
  return http.post<FinstrumentList>('/api/finstruments/', request, signal ? { signal } : {});
}

export const finstrumentListQueryOptions = (request: FinstrumentListRequest) =>
  queryOptions({
    queryKey: ['finstruments', 'list', request] as const,
    queryFn: ({ signal }) => listFinstruments(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useFinstrumentList(request: FinstrumentListRequest) {
  return useQuery(finstrumentListQueryOptions(request));
}
