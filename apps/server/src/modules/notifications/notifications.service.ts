/**
 * The inbox calls (README "Calls"): every one acts on the caller's own notifications and preferences only. A read is
 * the caller's own mark on a shared row (fan-out on read); it appends a `notify.read` user-scoped event in its
 * transaction, so the user's other devices clear the same rows.
 */
import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_SNOOZE_MS,
  NOTIFICATION_TOPICS,
  type NotificationList,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
  type NotificationReadPayload,
} from '@dart/contracts';
import type { Tx } from '../../db/client';
import type { BusMessage } from '../../lib/bus';
import { AppError } from '../../lib/errors';
import { appendEvent, publishAll } from '../../lib/events';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { allRows, preferenceChanges, preferencesFrom, preferencesView } from './notifications.preferences';
import * as repo from './notifications.repository';
import { notificationView } from './notifications.views';

type Reader = Pick<Principal, 'userId' | 'clientId'>;

export interface NotificationsService {
  list(reader: Reader, query: { unread?: 'true' | 'false'; page?: number; page_size?: number }): Promise<NotificationList>;
  unread(reader: Reader): Promise<{ unread: number }>;
  markRead(reader: Reader, id: string): Promise<{ notification: ReturnType<typeof notificationView>; unread: number }>;
  markAllRead(reader: Reader): Promise<{ updated: number; unread: number }>;
  preferences(reader: Reader): Promise<NotificationPreferences>;
  updatePreferences(reader: Reader, update: NotificationPreferencesUpdate): Promise<NotificationPreferences>;
  snooze(reader: Reader): Promise<{ snoozed_until: string }>;
}

export function createNotificationsService(deps: AppDeps): NotificationsService {
  const { database, bus, now } = deps;
  const db = database.db;

  /** A write with its live event(s), published after commit. */
  async function write<T>(work: (tx: Tx, emit: (message: BusMessage) => void) => Promise<T>): Promise<T> {
    const emitted: BusMessage[] = [];
    const result = await db.transaction((tx) => work(tx, (message) => emitted.push(message)));
    await publishAll(bus, emitted);
    return result;
  }

  const readEvent = (tx: Tx, reader: Reader, payload: NotificationReadPayload) =>
    appendEvent(tx, { topic: NOTIFICATION_TOPICS.read, clientId: reader.clientId, userId: reader.userId, payload });

  return {
    async list(reader, query) {
      const pageSize = query.page_size ?? NOTIFICATION_PAGE_SIZE.default;
      const page = query.page ?? 1;
      const [{ count, rows }, unread] = await Promise.all([
        repo.listNotifications(db, reader, { unreadOnly: query.unread === 'true', limit: pageSize, offset: (page - 1) * pageSize }),
        repo.unreadCount(db, reader),
      ]);
      return { count, unread, page, page_size: pageSize, results: rows.map(notificationView) };
    },

    async unread(reader) {
      return { unread: await repo.unreadCount(db, reader) };
    },

    async markRead(reader, id) {
      return write(async (tx, emit) => {
        const at = now();
        const changed = await repo.markRead(tx, reader, id, at);
        const row = await repo.notificationOf(tx, reader, id);
        // Someone else's notification (another firm's, another user's, one hidden for this user) is as absent as none.
        if (!row) throw new AppError('NOT_FOUND', NOTIFICATION_MESSAGES.notFound);
        const unread = await repo.unreadCount(tx, reader);
        if (changed) emit(await readEvent(tx, reader, { ids: [row.id], read_at: at.toISOString(), unread }));
        return { notification: notificationView(row), unread };
      });
    },

    async markAllRead(reader) {
      return write(async (tx, emit) => {
        const at = now();
        const updated = await repo.markAllRead(tx, reader, at);
        if (updated > 0) emit(await readEvent(tx, reader, { ids: null, read_at: at.toISOString(), unread: 0 }));
        return { updated, unread: 0 };
      });
    },

    async preferences(reader) {
      return preferencesView(preferencesFrom(await repo.preferencesOf(db, [reader.userId])), now());
    },

    async updatePreferences(reader, update) {
      const rows = preferenceChanges(reader.userId, update);
      return db.transaction(async (tx) => {
        await repo.upsertPreferences(tx, rows, now());
        return preferencesView(preferencesFrom(await repo.preferencesOf(tx, [reader.userId])), now());
      });
    },

    async snooze(reader) {
      return db.transaction(async (tx) => {
        const at = now();
        const until = new Date(at.getTime() + NOTIFICATION_SNOOZE_MS);
        const prefs = preferencesFrom(await repo.preferencesOf(tx, [reader.userId]));
        await repo.snooze(tx, allRows(reader.userId, prefs), until, at);
        return { snoozed_until: until.toISOString() };
      });
    },
  };
}
