import type { Notification } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { refreshKey } from '../../../lib/refresh-key';
import { NOTIFICATIONS_KEY } from './get-notifications';
import { NOTIFICATION_UNREAD_KEY } from './get-unread-count';

/** POST /api/notifications/{id}/read/: read on every device (the others hear `notify.read`). */
export function markNotificationRead(id: string): Promise<{ notification: Notification; unread: number }> {
  return http.post<{ notification: Notification; unread: number }>(`/api/notifications/${id}/read/`, {});
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: ({ unread }) => {
      queryClient.setQueryData(NOTIFICATION_UNREAD_KEY, { unread });
      refreshKey(queryClient, NOTIFICATIONS_KEY);
    },
  });
}
