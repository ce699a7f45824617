import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { refreshKey } from '../../../lib/refresh-key';
import { NOTIFICATIONS_KEY } from './get-notifications';
import { NOTIFICATION_UNREAD_KEY } from './get-unread-count';

/** POST /api/notifications/read-all/: every unread notification read, on every device. */
export function markAllNotificationsRead(): Promise<{ updated: number; unread: number }> {
  return http.post<{ updated: number; unread: number }>('/api/notifications/read-all/', {});
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      queryClient.setQueryData(NOTIFICATION_UNREAD_KEY, { unread: 0 });
      refreshKey(queryClient, NOTIFICATIONS_KEY);
    },
  });
}
