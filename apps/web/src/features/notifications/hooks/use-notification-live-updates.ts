/**
 * Applies the user-scoped notification topics of `ws/trade/d/` (contracts NOTIFICATION_TOPICS) to the bell's query
 * keys: `notify.created` sets the unread count the server sent and refetches the inbox, and (unless snoozed) shows
 * the notification in the spec's notification toast group (top-right, 20rem) with the notification sound;
 * `notify.read` (a read on any of the user's devices) sets the count and refetches. A reconnect refetches both.
 */
import { NOTIFICATION_TOPICS, NotificationCreatedPayloadSchema, NotificationReadPayloadSchema } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../../lib/live';
import { refreshKey } from '../../../lib/refresh-key';
import { showToast } from '../../../lib/toast';
import { NOTIFICATIONS_KEY } from '../api/get-notifications';
import { NOTIFICATION_UNREAD_KEY } from '../api/get-unread-count';

/** A notification replayed after a long disconnect is news for the inbox, not for a toast. */
const TOAST_MAX_AGE_MS = 2 * 60_000;

export function useNotificationLiveUpdates(onOpen: (link: string) => void): void {
  const queryClient = useQueryClient();
  useLiveEvents(
    (event) => {
      if (event.topic === NOTIFICATION_TOPICS.created) {
        const parsed = NotificationCreatedPayloadSchema.safeParse(event.payload);
        if (!parsed.success) return;
        const { notification, unread, silent } = parsed.data;
        queryClient.setQueryData(NOTIFICATION_UNREAD_KEY, { unread });
        refreshKey(queryClient, NOTIFICATIONS_KEY);
        if (silent || Date.now() - Date.parse(notification.created_at) > TOAST_MAX_AGE_MS) return;
        const link = notification.link;
        showToast({
          id: `notification-${notification.id}`,
          group: 'suprsend-notif',
          severity: 'info',
          summary: notification.title,
          detail: notification.body,
          ...(link ? { actionText: 'Open', onAction: () => onOpen(link) } : {}),
        });
      } else if (event.topic === NOTIFICATION_TOPICS.read) {
        const parsed = NotificationReadPayloadSchema.safeParse(event.payload);
        if (!parsed.success) return;
        queryClient.setQueryData(NOTIFICATION_UNREAD_KEY, { unread: parsed.data.unread });
        refreshKey(queryClient, NOTIFICATIONS_KEY);
      }
    },
    () => refreshKey(queryClient, NOTIFICATIONS_KEY),
  );
}
