import type { SupportUnreadSchema } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { SUPPORT_TICKETS_KEY } from './get-tickets';

export type SupportUnread = z.infer<typeof SupportUnreadSchema>;

/** GET /ext/tickets/unread/: Dart Support replies the caller has not opened yet (the badge). */
export function getSupportUnread(): Promise<SupportUnread> {
  return http.get<SupportUnread>('/ext/tickets/unread/');
}

export const supportUnreadQueryOptions = () =>
  queryOptions({ queryKey: [...SUPPORT_TICKETS_KEY, 'unread'] as const, queryFn: getSupportUnread, staleTime: 30_000 });

/** Refreshed on focus and every two minutes: a reply arrives by e-mail too, so the badge need not be instant. */
export function useSupportUnread(enabled = true) {
  return useQuery({ ...supportUnreadQueryOptions(), enabled, refetchInterval: 120_000 });
}
