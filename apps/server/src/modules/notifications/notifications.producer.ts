/**
 * The producer (README "How a notification is made"): tails the events table from its durable cursor and turns
 * trade-relevant events into notifications, one per source event and audience (fan-out on read), one live event each
 * and the e-mail / SMS of the users who asked for them, advancing the cursor in the same transaction. It runs on the elected node; `drain()` is safe on any node (the cursor row is
 * locked FOR UPDATE), which is how tests and the benchmark drive it.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_NOTIFICATION_CHANNELS, NOTIFICATION_TOPICS, type Notification } from '@dart/contracts';
import type { Logger } from 'pino';
import type { Tx } from '../../db/client';
import type { BusMessage } from '../../lib/bus';
import { createEventTail, type TailRow } from '../../lib/event-tail';
import type { AppDeps } from '../../types';
import {
  collectLookups,
  mapEvent,
  NOTIFYING_TOPICS,
  type Lookups,
  type NeededLookups,
  type NotificationIntent,
} from './notifications.mapping';
import type { StoredNotificationCreated } from './notifications.live';
import { preferencesByUser } from './notifications.preferences';
import * as repo from './notifications.repository';

export interface NotificationProducer {
  /** Processes everything committed so far (up to a hole still in flight); resolves with the events read. */
  drain(): Promise<number>;
  /** Drains on every outbox event heard on the bus and every `intervalMs`, while `isLeader()`. */
  start(isLeader: () => boolean): void;
  stop(): Promise<void>;
}

export interface ProducerOptions {
  /** Events read per transaction. */
  batchSize?: number;
  /** How long a hole in the positions may hold the cursor before it is taken for a rolled-back transaction. */
  gapWaitMs?: number;
  intervalMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

const NOTIFYING = new Set(NOTIFYING_TOPICS);
/**
 * With every channel at its default of in-app on, e-mail and SMS off, a user without preference rows needs nothing of
 * their own from the producer; were a default otherwise, every trading user of the audience would be read.
 */
const DEFAULTS_NEED_EVERYONE =
  !DEFAULT_NOTIFICATION_CHANNELS.in_app || DEFAULT_NOTIFICATION_CHANNELS.email || DEFAULT_NOTIFICATION_CHANNELS.sms;

export function createNotificationProducer(deps: AppDeps, options: ProducerOptions = {}): NotificationProducer {
  const { database, bus, mailer, sms, config, now } = deps;
  const batchSize = options.batchSize ?? 1_000;
  // The embedded database runs one transaction at a time: a hole there is a rollback, never a commit to come.
  const gapWaitMs = options.gapWaitMs ?? (database.driver === 'pglite' ? 0 : 5_000);
  const intervalMs = options.intervalMs ?? 1_000;
  const tail = createEventTail(repo.PRODUCER_CURSOR, NOTIFYING_TOPICS, gapWaitMs);

  async function lookupsFor(tx: Tx, rows: readonly TailRow[]): Promise<Lookups> {
    const needed: NeededLookups = {
      negotiationIds: new Set(),
      quoteIds: new Set(),
      finstrumentIds: new Set(),
      supportTicketIds: new Set(),
      chatChannelUrls: new Set(),
      userIds: new Set(),
    };
    for (const row of rows) if (row.payload !== null) collectLookups(row, needed);
    const quoteRows = await repo.quoteOwners(tx, [...needed.quoteIds]);
    for (const q of quoteRows) needed.finstrumentIds.add(q.finstrumentId);
    const [negotiationRows, bondRows, supportRows, channelRows, peopleRows] = await Promise.all([
      repo.negotiationFirms(tx, [...needed.negotiationIds]),
      repo.bondNames(tx, [...needed.finstrumentIds]),
      repo.supportLastByStaff(tx, [...needed.supportTicketIds]),
      repo.chatChannelNames(tx, [...needed.chatChannelUrls]),
      repo.peopleNames(tx, [...needed.userIds]),
    ]);
    return {
      negotiations: new Map(negotiationRows.map((n) => [n.id, n])),
      quotes: new Map(quoteRows.map((q) => [q.id, q])),
      bonds: new Map(bondRows.map((b) => [b.id, b])),
      supportLastByStaff: new Map(supportRows.map((s) => [s.ticket_id, s.is_staff])),
      chatChannels: new Map(channelRows.map((c) => [c.url, c])),
      people: new Map(peopleRows.map((u) => [u.id, u])),
    };
  }

  /**
   * Publishes of committed passes still under way. The next pass does not wait for them (a pass's round trips are the
   * latency of every event that arrives meanwhile); `drain()` does, before it resolves.
   */
  const publishing = new Set<Promise<unknown>>();

  /**
   * One transaction: read a batch, write its notifications and events, move the cursor (in the insert's statement
   * when there is something to write: one round trip fewer). Returns events read.
   */
  async function pass(): Promise<number> {
    const toPublish: BusMessage[] = [];
    const read = await database.db.transaction(async (tx) => {
      const at = now();
      const { rows } = await tail.next(tx, batchSize);
      if (rows.length === 0) return 0;
      const last = rows.at(-1)!.position;
      const relevant = rows.filter((row) => row.payload !== null && NOTIFYING.has(row.topic));
      const lookups = relevant.length > 0 ? await lookupsFor(tx, relevant) : null;
      const mapped: NotificationIntent[] = lookups ? relevant.flatMap((row) => mapEvent(row, lookups)) : [];
      const advanced = mapped.length > 0 && (await deliver(tx, mapped, { position: last, at }, toPublish));
      if (!advanced) await tail.advance(tx, last, at);
      return rows.length;
    });
    // All at once: the Redis bus sends them in this order on one connection, without a round trip each.
    const published = Promise.all(toPublish.map((message) => bus.publish(message).catch(() => undefined)));
    publishing.add(published);
    void published.finally(() => publishing.delete(published));
    return read;
  }

  /**
   * One notification row and one live event per intent (a source event and its audience), skipping audiences that
   * have theirs already; the per-user part is only for users who set preferences: who has the category's in-app
   * channel off (hidden), who snoozed (silent), who gets e-mail or SMS. Everyone else is at the defaults. True when the
   * insert's statement moved the cursor to `cursor.position` too (false: nothing to write, the caller moves it).
   */
  async function deliver(
    tx: Tx,
    intents: readonly NotificationIntent[],
    cursor: { position: number; at: Date },
    toPublish: BusMessage[],
  ): Promise<boolean> {
    const { at } = cursor;
    const firms = [...new Set(intents.filter((i) => !i.userId).map((i) => i.clientId))];
    const named = intents.filter((i) => i.userId).map((i) => ({ userId: i.userId!, clientId: i.clientId }));
    const [customised, members] = await Promise.all([
      DEFAULTS_NEED_EVERYONE ? repo.tradingUsers(tx, firms) : repo.tradingUsersWithPreferences(tx, firms),
      repo.activeMembers(tx, named),
    ]);
    const byFirm = new Map<string, repo.Recipient[]>();
    for (const r of customised) byFirm.set(r.clientId, [...(byFirm.get(r.clientId) ?? []), r]);
    const memberOf = new Map(members.map((m) => [`${m.userId}/${m.clientId}`, m]));
    const prefsOf = preferencesByUser(await repo.preferencesOf(tx, [...new Set([...customised, ...members].map((r) => r.userId))]));

    const rows = intents.flatMap((intent) => {
      const sourceRef = `event:${intent.sourcePosition}`;
      const userId = intent.userId ?? null;
      // A named user who has left the firm gets nothing.
      const member = userId ? memberOf.get(`${userId}/${intent.clientId}`) : undefined;
      if (userId && !member) return [];
      const people = member ? [member] : (byFirm.get(intent.clientId) ?? []);
      const notification: Notification = {
        id: randomUUID(),
        category: intent.category,
        kind: intent.kind,
        title: intent.title,
        body: intent.body,
        link: intent.link,
        created_at: at.toISOString(),
        read_at: null,
      };
      const hidden = people.filter((p) => !prefsOf(p.userId).enabled(intent.category, 'in_app')).map((p) => p.userId);
      const silent = people.filter((p) => prefsOf(p.userId).isSnoozed(at)).map((p) => p.userId);
      return [{ intent, sourceRef, userId, people, stored: { notification, hidden, silent } satisfies StoredNotificationCreated }];
    });
    if (rows.length === 0) return false;

    // Each row with its live event, in one statement; an audience that has its row already (a replayed stretch of the
    // outbox) gets neither again, nor e-mail.
    const written = await repo.insertNotificationsWithEvents(
      tx,
      NOTIFICATION_TOPICS.created,
      { name: repo.PRODUCER_CURSOR, position: cursor.position, at },
      rows.map(({ intent, sourceRef, userId, stored }) => ({
        id: stored.notification.id,
        clientId: intent.clientId,
        userId,
        category: intent.category,
        kind: intent.kind,
        title: intent.title,
        body: intent.body,
        link: intent.link,
        sourcePosition: intent.sourcePosition,
        sourceRef,
        hiddenFor: stored.hidden,
        createdAt: at,
        livePayload: stored,
      })),
    );
    const byId = new Map(rows.map((row) => [row.stored.notification.id, row]));
    const fresh = written.map(({ id, position }) => ({ ...byId.get(id)!, position }));

    // E-mail and SMS: with the row (so once per source event and user), whatever the inbox setting; not while snoozed.
    for (const { intent, people } of fresh) {
      for (const recipient of people) {
        const prefs = prefsOf(recipient.userId);
        if (prefs.isSnoozed(at)) continue;
        const text = intent.link ? `${intent.body}\n\nOpen: ${intent.link}` : intent.body;
        if (prefs.enabled(intent.category, 'email'))
          await mailer.send({ to: recipient.email, subject: `${config.productName}: ${intent.title}`, text }, tx);
        if (recipient.mobile && prefs.enabled(intent.category, 'sms'))
          await sms.send({ to: recipient.mobile, text: `${config.productName}: ${intent.title}. ${intent.body}` }, tx);
      }
    }
    for (const { intent, userId, stored, position } of fresh)
      toPublish.push({
        topic: NOTIFICATION_TOPICS.created,
        clientId: intent.clientId,
        ...(userId ? { userId } : {}),
        payload: stored,
        position,
      });
    return true;
  }

  // Single flight: a drain asked for while one runs queues exactly one more pass sequence after it.
  let chain: Promise<number> = Promise.resolve(0);
  let queued = false;
  function drain(): Promise<number> {
    if (queued) return chain;
    queued = true;
    chain = chain
      .catch(() => 0)
      .then(async () => {
        queued = false;
        let total = 0;
        for (;;) {
          const read = await pass();
          total += read;
          if (read < batchSize) break;
        }
        await Promise.all(publishing);
        return total;
      });
    return chain;
  }

  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  const report = (error: unknown) =>
    options.logger?.warn({ err: { message: (error as Error)?.message } }, 'notification producer pass failed');
  return {
    drain,
    start(isLeader) {
      const kick = () => {
        if (isLeader()) drain().catch(report);
      };
      unsubscribe = bus.subscribe((message) => {
        if (message.position !== undefined && !message.userId && NOTIFYING.has(message.topic)) kick();
      });
      timer = setInterval(kick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      unsubscribe?.();
      await chain.catch(() => undefined);
    },
  };
}
