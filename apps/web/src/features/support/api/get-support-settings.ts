import type { SupportSettings } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET /ext/support/settings/: the ticket type ids the desk accepts (SUPPORT_TICKET_IDS) and whether the caller is staff. */
export function getSupportSettings(): Promise<SupportSettings> {
  return http.get<SupportSettings>('/ext/support/settings/');
}

export const supportSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['support', 'settings'] as const, queryFn: getSupportSettings, staleTime: Number.POSITIVE_INFINITY });

export function useSupportSettings(enabled = true) {
  return useQuery({ ...supportSettingsQueryOptions(), enabled });
}
