/** The wire form of a notification row. */
import type { Notification, NotificationCategory } from '@dart/contracts';
import type { NotificationRow } from './notifications.repository';

export function notificationView(row: NotificationRow): Notification {
  return {
    id: row.id,
    category: row.category as NotificationCategory,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt ? row.readAt.toISOString() : null,
  };
}
