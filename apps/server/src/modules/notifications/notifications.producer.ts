/**
 * The producer (README "How a notification is made"): tails the events table from its durable cursor and turns
 * trade-relevant events into notifications, their user-scoped live events and their e-mail / SMS, advancing the
 * cursor in the same transaction. It runs on the elected node; `drain()` is safe on any node (the cursor row is
 * locked FOR UPDATE), which is how tests and the benchmark drive it.
 */
import { NOTIFICATION_TOPICS, type NotificationCreatedPayload } from '@dart/contracts';
import type { Logger } from 'pino';
import type { Tx } from '../../db/client';
import type { BusMessage } from '../../lib/bus';
import { createEventTail, type TailRow } from '../../lib/event-tail';
import { appendEvents, type DomainEvent } from '../../lib/events';
import type { AppDeps } from '../../types';
import {
  collectLookups,
  mapEvent,
  NOTIFYING_TOPICS,
  type Lookups,
  type NeededLookups,
  type NotificationIntent,
} from './notifications.mapping';
import { preferencesByUser } from './notifications.preferences';
import * as repo from './notifications.repository';
import { notificationView } from './notifications.views';

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
    };
    for (const row of rows) if (row.payload !== null) collectLookups(row, needed);
    const quoteRows = await repo.quoteOwners(tx, [...needed.quoteIds]);
    for (const q of quoteRows) needed.finstrumentIds.add(q.finstrumentId);
    const [negotiationRows, bondRows, supportRows] = await Promise.all([
      repo.negotiationFirms(tx, [...needed.negotiationIds]),
      repo.bondNames(tx, [...needed.finstrumentIds]),
      repo.supportLastByStaff(tx, [...needed.supportTicketIds]),
    ]);
    return {
      negotiations: new Map(negotiationRows.map((n) => [n.id, n])),
      quotes: new Map(quoteRows.map((q) => [q.id, q])),
      bonds: new Map(bondRows.map((b) => [b.id, b])),
      supportLastByStaff: new Map(supportRows.map((s) => [s.ticket_id, s.is_staff])),
    };
  }

  /** One transaction: read a batch, write its notifications and events, move the cursor. Returns events read. */
  async function pass(): Promise<number> {
    const toPublish: BusMessage[] = [];
    const read = await database.db.transaction(async (tx) => {
      const at = now();
      const { rows } = await tail.next(tx, batchSize);
      if (rows.length === 0) return 0;
      const relevant = rows.filter((row) => row.payload !== null && NOTIFYING.has(row.topic));
      const lookups = relevant.length > 0 ? await lookupsFor(tx, relevant) : null;
      const mapped: NotificationIntent[] = lookups ? relevant.flatMap((row) => mapEvent(row, lookups)) : [];
      await tail.advance(tx, rows.at(-1)!.position, at);
      if (mapped.length > 0) await deliver(tx, mapped, at, toPublish);
      return rows.length;
    });
    // All at once: the Redis bus sends them in this order on one connection, without a round trip each.
    await Promise.all(toPublish.map((message) => bus.publish(message).catch(() => undefined)));
    return read;
  }

  async function deliver(tx: Tx, intents: readonly NotificationIntent[], at: Date, toPublish: BusMessage[]): Promise<void> {
    const firms = [...new Set(intents.filter((i) => !i.userId).map((i) => i.clientId))];
    const named = intents.filter((i) => i.userId).map((i) => ({ userId: i.userId!, clientId: i.clientId }));
    const [traders, members] = await Promise.all([repo.tradingUsers(tx, firms), repo.activeMembers(tx, named)]);
    const byFirm = new Map<string, repo.Recipient[]>();
    for (const r of traders) byFirm.set(r.clientId, [...(byFirm.get(r.clientId) ?? []), r]);
    const memberOf = new Map(members.map((m) => [`${m.userId}/${m.clientId}`, m]));
    const pairs = intents.flatMap((intent) =>
      (intent.userId
        ? [memberOf.get(`${intent.userId}/${intent.clientId}`)].filter((r) => r !== undefined)
        : (byFirm.get(intent.clientId) ?? [])
      ).map((recipient) => ({ intent, recipient })),
    );
    if (pairs.length === 0) return;
    const prefsOf = preferencesByUser(await repo.preferencesOf(tx, [...new Set(pairs.map((p) => p.recipient.userId))]));

    const inbox = pairs.filter(({ intent, recipient }) => prefsOf(recipient.userId).enabled(intent.category, 'in_app'));
    const inserted = await repo.insertNotifications(
      tx,
      inbox.map(({ intent, recipient }) => ({
        userId: recipient.userId,
        clientId: recipient.clientId,
        category: intent.category,
        kind: intent.kind,
        title: intent.title,
        body: intent.body,
        link: intent.link,
        sourcePosition: intent.sourcePosition,
        sourceRef: `event:${intent.sourcePosition}`,
        createdAt: at,
      })),
    );
    const fresh = new Set(inserted.map((row) => `${row.userId}/${row.sourceRef}`));

    // E-mail and SMS: new rows only (or, with the inbox off for the category, once with this cursor move); not while snoozed.
    for (const { intent, recipient } of pairs) {
      const prefs = prefsOf(recipient.userId);
      if (prefs.isSnoozed(at)) continue;
      const inInbox = prefs.enabled(intent.category, 'in_app');
      if (inInbox && !fresh.has(`${recipient.userId}/event:${intent.sourcePosition}`)) continue;
      const text = intent.link ? `${intent.body}\n\nOpen: ${intent.link}` : intent.body;
      if (prefs.enabled(intent.category, 'email'))
        await mailer.send({ to: recipient.email, subject: `${config.productName}: ${intent.title}`, text }, tx);
      if (recipient.mobile && prefs.enabled(intent.category, 'sms'))
        await sms.send({ to: recipient.mobile, text: `${config.productName}: ${intent.title}. ${intent.body}` }, tx);
    }
    // Live: one user-scoped event per new row, each with the user's unread count as of that row. Appended last, just
    // before the commit: the less time between taking positions and publishing, the fewer later events overtake them.
    const finalUnread = await repo.unreadCounts(tx, [...new Set(inserted.map((row) => row.userId))]);
    const remaining = new Map<string, number>();
    for (const row of inserted) remaining.set(row.userId, (remaining.get(row.userId) ?? 0) + 1);
    const live: DomainEvent[] = inserted.map((row) => {
      const left = remaining.get(row.userId)! - 1;
      remaining.set(row.userId, left);
      const payload: NotificationCreatedPayload = {
        notification: notificationView(row),
        unread: (finalUnread.get(row.userId) ?? 0) - left,
        silent: prefsOf(row.userId).isSnoozed(at),
      };
      return { topic: NOTIFICATION_TOPICS.created, clientId: row.clientId, userId: row.userId, payload };
    });
    toPublish.push(...(await appendEvents(tx, live)));
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
          if (read < batchSize) return total;
        }
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
