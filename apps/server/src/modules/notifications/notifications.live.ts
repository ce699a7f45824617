/**
 * Fan-out on read, live side (README "Fan-out on read"): the producer appends one `notify.created` event per
 * notification row, scoped to the firm (or to the one user it is for), holding who of the audience does not get it
 * (`hidden`) and who gets it silently (`silent`, snoozed). Each node's gateway asks this audience, per socket, for that
 * user's copy: the contract's `NotificationCreatedPayload` with the user's own unread count, or nothing for a user
 * outside the audience. The count is the socket's: the user's unread notifications up to its resume point (read in
 * the gateway's start statement of the socket, `socketStartSql`), plus one per notification sent, reset by every
 * `notify.read` (which carries the count after the read).
 */
import { NOTIFICATION_TOPICS, type Notification, type NotificationCreatedPayload, type NotificationReadPayload } from '@dart/contracts';
import type { LiveAudience } from '../../lib/live-audience';
import * as repo from './notifications.repository';

/** What a `notify.created` event row holds (server-side; sockets get `NotificationCreatedPayload`). */
export interface StoredNotificationCreated {
  notification: Notification;
  /** Users of the audience who had the category's in-app channel off: they never get it. */
  hidden: string[];
  /** Users of the audience who had snoozed: their copy is `silent`. */
  silent: string[];
}

const isStored = (payload: unknown): payload is StoredNotificationCreated =>
  typeof payload === 'object' && payload !== null && Array.isArray((payload as StoredNotificationCreated).hidden);

export function createNotificationsLiveAudience(): LiveAudience {
  return {
    topics: [NOTIFICATION_TOPICS.created, NOTIFICATION_TOPICS.read],
    start: (reader, from) => repo.socketStartSql(reader, from),
    open(reader, start) {
      const { unread: counted, joinedAt } = repo.decodeSocketStart(start);
      let unread = counted;
      const canTrade = reader.permissions.includes('client.can_trade');
      return (message) => {
        if (message.topic === NOTIFICATION_TOPICS.read) {
          const read = message.payload as NotificationReadPayload;
          unread = read.unread;
          return read;
        }
        // A user-scoped event from before migration 0030 already is that user's copy.
        if (!isStored(message.payload)) return message.payload;
        const { notification, hidden, silent } = message.payload;
        if (hidden.includes(reader.userId)) return undefined;
        if (!message.userId) {
          // Firm-wide: its trading users who were members when it was made (the same rule as the inbox's `visibleTo`).
          if (!canTrade || joinedAt === null || Date.parse(notification.created_at) < joinedAt) return undefined;
        }
        unread += 1;
        const copy: NotificationCreatedPayload = { notification, unread, silent: silent.includes(reader.userId) };
        return copy;
      };
    },
  };
}
