/**
 * The outbound side of the WhatsApp link (README "How a message goes out"), on the elected node:
 * 1. quote alerts: tails the events table from its own cursor (`event_cursors` 'whatsapp'), the notification
 *    producer's approach: a private run or an exchange RFQ addressed to a firm queues one template message per
 *    consenting trading user of that firm; a quote posted with `whatsapp_consent` records the quoter's consent;
 * 2. linked chat channels: relays each new message of a linked channel to its consenting members but the sender;
 * 3. dispatch: hands queued messages to the bridge, re-checking consent at that moment (a withdrawal stops even a
 *    message already queued), retrying after the provider's rate limits.
 * Every step is one transaction that also moves its cursor, so nothing is queued twice or lost in a crash.
 */
import { MARKET_TOPICS } from '@dart/contracts';
import type { Logger } from 'pino';
import type { Tx } from '../../db/client';
import { createEventTail } from '../../lib/event-tail';
import type { AppDeps } from '../../types';
import { BridgeSendError, toWhatsAppNumber, type MessagingBridge, type OutboundBridgeMessage } from './messaging-bridge';
import * as repo from './whatsapp.repository';

/** Templates registered with the provider; each has one parameter, the text. */
export const WHATSAPP_TEMPLATES = { alert: 'dart_alert', chat: 'dart_chat_message' } as const;
/** Free text is allowed this long after the user's last message (the provider's customer-service window). */
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Sends refused for a retryable reason (rate limits, the provider unreachable) before the message is failed. */
export const MAX_SEND_ATTEMPTS = 8;
const TOPICS: readonly string[] = [MARKET_TOPICS.privateRun, MARKET_TOPICS.inquiries, MARKET_TOPICS.openOrders];
const KICK_TOPICS = new Set([...TOPICS, 'chat.message']);

export interface WhatsAppProducer {
  /** Everything committed so far: quote alerts, chat relays, then dispatch. Resolves with the messages handed over. */
  drain(): Promise<number>;
  start(isLeader: () => boolean): void;
  stop(): Promise<void>;
}

type Payload = { action?: string; quote_id?: string };

export function createWhatsAppProducer(
  deps: AppDeps,
  bridge: MessagingBridge,
  options: { intervalMs?: number; batchSize?: number; gapWaitMs?: number; logger?: Pick<Logger, 'warn'> } = {},
): WhatsAppProducer {
  const { database, bus, config, now } = deps;
  const db = database.db;
  const batchSize = options.batchSize ?? 500;
  const intervalMs = options.intervalMs ?? 1_000;
  const queuedEntry = (at: Date): repo.StatusEntry => ({ status: 'queued', at: at.toISOString(), reason: null });
  // Positions commit in any order: the tail reads only the contiguous run after the cursor (lib/event-tail.ts).
  const gapWaitMs = options.gapWaitMs ?? (database.driver === 'pglite' ? 0 : 5_000);
  const tail = createEventTail(repo.PRODUCER_CURSOR, TOPICS, gapWaitMs);

  /** Quote alerts and quote consents from one batch of events. Returns events read. */
  async function eventsPass(): Promise<number> {
    return db.transaction(async (tx) => {
      const at = now();
      const { rows } = await tail.next(tx, batchSize);
      if (rows.length === 0) return 0;
      const created = rows.filter(
        (r) => r.payload !== null && (r.payload as Payload).action === 'created' && (r.payload as Payload).quote_id,
      );
      const quotes = new Map(
        (await repo.quotesByIds(tx, [...new Set(created.map((r) => (r.payload as Payload).quote_id!))])).map((q) => [q.id, q]),
      );
      for (const row of created.filter((r) => r.topic === MARKET_TOPICS.openOrders)) {
        const quote = quotes.get((row.payload as Payload).quote_id!);
        if (quote?.whatsappConsent) await recordQuoteConsent(tx, quote);
      }
      const alerts = created.flatMap((row) => {
        const quote = quotes.get((row.payload as Payload).quote_id!);
        // The raiser's own copy, and market-wide events, alert no one.
        if (row.topic === MARKET_TOPICS.openOrders || !quote || !row.clientId || quote.clientId === row.clientId) return [];
        const what = row.topic === MARKET_TOPICS.inquiries ? 'An exchange RFQ' : 'A private run';
        const side = quote.quoteType === 'BID' ? 'bid' : quote.quoteType === 'ASK' ? 'offer' : 'quote';
        const body = `${config.productName}: ${what} (${side}) on ${quote.displayName} (${quote.isin}) was sent to you. Open ${config.productName} to respond.`;
        return [{ position: row.position, clientId: row.clientId, body }];
      });
      if (alerts.length > 0) {
        const recipients = await repo.tradingUsers(tx, [...new Set(alerts.map((a) => a.clientId))]);
        const standing = await repo.standingConsents(tx, [...new Set(recipients.map((r) => r.userId))]);
        const messages = alerts.flatMap((alert) =>
          recipients
            .filter((r) => r.clientId === alert.clientId && r.mobile && standing.get(r.userId)?.consented)
            .map((r): repo.WhatsAppMessageInsert => ({
              direction: 'outbound',
              clientId: r.clientId,
              userId: r.userId,
              phone: toWhatsAppNumber(r.mobile!),
              kind: 'template',
              template: WHATSAPP_TEMPLATES.alert,
              body: alert.body,
              sourceRef: `event:${alert.position}`,
              status: 'queued',
              statusHistory: [queuedEntry(at)],
              nextAttemptAt: at,
              createdAt: at,
              updatedAt: at,
            })),
        );
        await repo.insertMessages(tx, messages);
      }
      await tail.advance(tx, rows.at(-1)!.position, at);
      return rows.length;
    });
  }

  /** A quote posted with `whatsapp_consent`: the quoter consents, as of the quote, unless a later answer stands. */
  async function recordQuoteConsent(tx: Tx, quote: { id: string; userId: string; createdAt: Date }): Promise<void> {
    const standing = (await repo.standingConsents(tx, [quote.userId])).get(quote.userId);
    if (!standing || standing.consented) return;
    if (standing.at && standing.at.getTime() > quote.createdAt.getTime()) return; // withdrawn after the quote: that stands
    await repo.insertConsent(tx, { userId: quote.userId, consented: true, source: 'quote', sourceRef: quote.id, at: quote.createdAt });
    await repo.setConsentFlag(tx, quote.userId, true);
  }

  /** New messages of linked chat channels, to their consenting members. Returns messages read. */
  async function relayPass(): Promise<number> {
    return db.transaction(async (tx) => {
      const at = now();
      let read = 0;
      for (const link of await repo.linksBehind(tx, 50)) {
        const messages = await repo.channelMessagesAfter(tx, link.channel_id, Number(link.relayed_position), batchSize);
        if (messages.length === 0) continue;
        read += messages.length;
        const members = (await repo.channelMembers(tx, link.channel_id)).filter((m) => m.mobile);
        const standing = await repo.standingConsents(
          tx,
          members.map((m) => m.userId),
        );
        const firms = await repo.firmsOf(
          tx,
          members.map((m) => m.userId),
        );
        const phones = new Map(members.map((m) => [m.userId, toWhatsAppNumber(m.mobile!)]));
        const windows = await repo.lastInboundAt(tx, [...phones.values()]);
        const rows: repo.WhatsAppMessageInsert[] = [];
        for (const message of messages) {
          if (message.deletedAt || !message.senderId) continue;
          const sender = `${message.firstName ?? ''} ${message.lastName ?? ''}`.trim() || config.productName;
          const text = message.messageType === 'file' ? `[file] ${message.message}` : message.message;
          const body = `${sender} in ${link.name || `${config.productName} chat`}: ${text}`;
          for (const member of members) {
            if (member.userId === message.senderId || !standing.get(member.userId)?.consented) continue;
            const phone = phones.get(member.userId)!;
            const opened = windows.get(phone);
            const inWindow = opened !== undefined && at.getTime() - opened.getTime() < SERVICE_WINDOW_MS;
            rows.push({
              direction: 'outbound',
              clientId: firms.get(member.userId) ?? null,
              userId: member.userId,
              phone,
              channelId: link.channel_id,
              chatMessageId: message.id,
              kind: inWindow ? 'text' : 'template',
              template: inWindow ? null : WHATSAPP_TEMPLATES.chat,
              body,
              sourceRef: `chat:${message.id}`,
              status: 'queued',
              statusHistory: [queuedEntry(at)],
              nextAttemptAt: at,
              createdAt: at,
              updatedAt: at,
            });
          }
        }
        await repo.insertMessages(tx, rows);
        await repo.setRelayed(tx, link.channel_id, messages.at(-1)!.position);
      }
      return read;
    });
  }

  const outbound = (row: repo.WhatsAppMessageRow): OutboundBridgeMessage =>
    row.kind === 'text'
      ? { to: row.phone, kind: 'text', body: row.body }
      : { to: row.phone, kind: 'template', template: row.template ?? WHATSAPP_TEMPLATES.alert, parameters: [row.body], body: row.body };

  /** Hands due messages to the bridge. Returns how many it accepted. */
  async function dispatchPass(): Promise<{ handled: number; accepted: number }> {
    return db.transaction(async (tx) => {
      const at = now();
      const due = await repo.dueMessages(tx, at, 50);
      const standing = await repo.standingConsents(tx, [...new Set(due.flatMap((m) => (m.userId ? [m.userId] : [])))]);
      let accepted = 0;
      for (const row of due) {
        // Consent is checked again as the message leaves: a withdrawal stops what was queued before it.
        if (!row.userId || !standing.get(row.userId)?.consented) {
          const reason = 'Consent withdrawn before sending.';
          await repo.updateMessage(
            tx,
            row.id,
            { status: 'cancelled', failureReason: reason },
            { status: 'cancelled', at: at.toISOString(), reason },
            at,
          );
          continue;
        }
        try {
          const { providerMessageId } = await bridge.send(outbound(row));
          accepted++;
          await repo.updateMessage(
            tx,
            row.id,
            { status: 'accepted', providerMessageId, attempts: row.attempts + 1 },
            { status: 'accepted', at: at.toISOString(), reason: null },
            at,
          );
        } catch (error) {
          const refused = error instanceof BridgeSendError ? error : null;
          const reason = refused ? refused.message : 'The WhatsApp endpoint did not answer.';
          const retryAfterMs = refused ? refused.retryAfterMs : Math.min(60_000, 1_000 * 2 ** row.attempts);
          const attempts = row.attempts + 1;
          if (retryAfterMs === null || attempts >= MAX_SEND_ATTEMPTS)
            await repo.updateMessage(
              tx,
              row.id,
              { status: 'failed', failureReason: reason, attempts },
              { status: 'failed', at: at.toISOString(), reason },
              at,
            );
          else
            await repo.updateMessage(
              tx,
              row.id,
              { attempts, nextAttemptAt: new Date(at.getTime() + retryAfterMs), failureReason: reason },
              null,
              at,
            );
        }
      }
      return { handled: due.length, accepted };
    });
  }

  // Single flight, like the notification producer: a drain asked for while one runs queues one more after it.
  let chain: Promise<number> = Promise.resolve(0);
  let queued = false;
  function drain(): Promise<number> {
    if (queued) return chain;
    queued = true;
    chain = chain
      .catch(() => 0)
      .then(async () => {
        queued = false;
        while ((await eventsPass()) >= batchSize);
        while ((await relayPass()) > 0);
        let accepted = 0;
        for (;;) {
          const pass = await dispatchPass();
          accepted += pass.accepted;
          if (pass.handled < 50) return accepted;
        }
      });
    return chain;
  }

  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  const report = (error: unknown) => options.logger?.warn({ err: { message: (error as Error)?.message } }, 'whatsapp producer pass failed');
  return {
    drain,
    start(isLeader) {
      const kick = () => {
        if (isLeader()) drain().catch(report);
      };
      unsubscribe = bus.subscribe((message) => {
        if (KICK_TOPICS.has(message.topic)) kick();
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
