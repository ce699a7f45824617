import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { NOTIFICATIONS_KEY } from './get-notifications';

export const NOTIFICATION_UNREAD_KEY = [...NOTIFICATIONS_KEY, 'unread'] as const;

/** GET /api/notifications/unread-count/: the bell's number. Live events keep it current between fetches. */
export function getUnreadCount(): Promise<{ unread: number }> {
  return http.get<{ unread: number }>('/api/notifications/unread-count/');
}

export const unreadCountQueryOptions = () =>
  queryOptions({ queryKey: NOTIFICATION_UNREAD_KEY, queryFn: getUnreadCount, staleTime: 60_000 });

/**
 * Also refetched every minute: the socket client drops an event whose position is below one it already has (a
 * notification committed just after a later event of the firm), so the count must not rely on live events alone.
 */
export function useUnreadCount(enabled = true) {
  return useQuery({ ...unreadCountQueryOptions(), enabled, refetchInterval: 60_000 });
}
