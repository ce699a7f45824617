import type { SurveillanceAlertDetail } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { ALERTS_KEY } from './get-alerts';

export type { SurveillanceAlertDetail } from '@dart/contracts';

export const alertKey = (id: string) => [...ALERTS_KEY, 'detail', id] as const;

/** GET /api/surveillance/alerts/{id}/: the alert, its evidence, facts, linked alerts and triage history. */
export function getAlert(id: string): Promise<SurveillanceAlertDetail> {
  return http.get<SurveillanceAlertDetail>(`/api/surveillance/alerts/${encodeURIComponent(id)}/`);
}

export const alertQueryOptions = (id: string) => queryOptions({ queryKey: alertKey(id), queryFn: () => getAlert(id), staleTime: 10_000 });

export function useAlert(id: string | null) {
  return useQuery({ ...alertQueryOptions(id ?? ''), enabled: id !== null });
}
