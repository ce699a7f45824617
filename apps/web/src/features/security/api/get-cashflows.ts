import type { CashflowScheduleSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type CashflowSchedule = z.infer<typeof CashflowScheduleSchema>;

/** POST /api/cashflow/{id}/ {quantity, ref_date?} (security data + Premium; 402 for BASIC). */
export function getCashflows(id: number, quantity: number, refDate?: string): Promise<CashflowSchedule> {
  return http.post<CashflowSchedule>(`/api/cashflow/${id}/`, refDate ? { quantity, ref_date: refDate } : { quantity });
}

export const cashflowsQueryOptions = (id: number, quantity: number, refDate?: string) =>
  queryOptions({
    queryKey: ['finstruments', 'cashflows', id, quantity, refDate ?? null] as const,
    queryFn: () => getCashflows(id, quantity, refDate),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useCashflows(id: number, quantity: number, refDate: string | undefined, enabled = true) {
  return useQuery({ ...cashflowsQueryOptions(id, quantity, refDate), enabled });
}
