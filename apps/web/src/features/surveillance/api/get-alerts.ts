import { SURVEILLANCE_PAGE_SIZE, type SurveillanceAlertList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { toAlertQuery, type AlertFilters } from '../utils/alert-filters';

export type { SurveillanceAlert, SurveillanceAlertList } from '@dart/contracts';

export const ALERT_PAGE_SIZE = SURVEILLANCE_PAGE_SIZE.default;
/** Every alert query (list pages and details) starts with this key, so a triage step refreshes them all. */
export const ALERTS_KEY = ['surveillance', 'alerts'] as const;

/** GET /api/surveillance/alerts/ with the filters and a page (compliance officers; the caller's firm only). */
export function getAlerts(filters: AlertFilters, page: number): Promise<SurveillanceAlertList> {
  return http.get<SurveillanceAlertList>('/api/surveillance/alerts/', {
    query: { ...toAlertQuery(filters), page, page_size: ALERT_PAGE_SIZE },
  });
}

export const alertsQueryOptions = (filters: AlertFilters, page: number) =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'list', toAlertQuery(filters), page] as const,
    queryFn: () => getAlerts(filters, page),
    placeholderData: keepPreviousData,
    // The scanner raises alerts continuously: the list refreshes itself while it is open.
    refetchInterval: 15_000,
    staleTime: 5_000,
  });

/** A page of alerts; `enabled` is false while the filters are invalid (the form shows why). */
export function useAlerts(filters: AlertFilters, page: number, enabled = true) {
  return useQuery({ ...alertsQueryOptions(filters, page), enabled });
}
