/** The wire form of a notification as one user sees it (the shared row with their read mark). */
import type { Notification, NotificationCategory } from '@dart/contracts';
import type { InboxRow } from './notifications.repository';

export function notificationView(row: InboxRow): Notification {
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
