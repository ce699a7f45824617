import { NOTIFICATION_PAGE_SIZE, type NotificationList } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** Every notification query key starts here: live events and reads refresh them all at once. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;
export const NOTIFICATION_LIST_KEY = [...NOTIFICATIONS_KEY, 'list'] as const;

/** GET /api/notifications/?page_size=: my newest notifications with the unread count. */
export function getNotifications(pageSize: number = NOTIFICATION_PAGE_SIZE.default): Promise<NotificationList> {
  return http.get<NotificationList>('/api/notifications/', { query: { page_size: pageSize } });
}

export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: NOTIFICATION_LIST_KEY, queryFn: () => getNotifications(), staleTime: 30_000 });

export function useNotifications(enabled = true) {
  return useQuery({ ...notificationsQueryOptions(), enabled });
}
