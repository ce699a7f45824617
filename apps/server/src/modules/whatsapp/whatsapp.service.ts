/**
 * The WhatsApp link's calls and the bridge's callbacks (README): the caller's own consent, the own firm's bridged
 * messages, linking a chat channel, receipts that move a message's status, and replies that become chat messages.
 */
import {
  WHATSAPP_MESSAGES,
  WHATSAPP_PAGE_SIZE,
  type WhatsAppBridgedMessage,
  type WhatsAppConsent,
  type WhatsAppMessageList,
  type WhatsAppMessageStatus,
} from '@dart/contracts';
import { and, eq } from 'drizzle-orm';
import { whatsappMessages } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { ChatService } from '../chat';
import type { BridgeInbound, BridgeReceipt } from './messaging-bridge';
import * as repo from './whatsapp.repository';

type Caller = Pick<Principal, 'userId' | 'clientId'>;

/** Receipts only move a message forward; `failed` ends it. A late or repeated receipt is kept in the history only. */
const RANK: Record<string, number> = { queued: 0, accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5, cancelled: 5 };

/** Only the last four digits of a number are shown. */
export const maskPhone = (phone: string) => `${'•'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;

export interface WhatsAppService {
  consent(caller: Caller): Promise<WhatsAppConsent>;
  setConsent(caller: Caller, consented: boolean, audit: AuditContext): Promise<WhatsAppConsent>;
  messages(caller: Caller, query: { direction?: 'outbound' | 'inbound'; page?: number; page_size?: number }): Promise<WhatsAppMessageList>;
  link(caller: Caller, url: string, linked: boolean, audit: AuditContext): Promise<{ url: string; is_whatsapp_linked_channel: boolean }>;
  onReceipt(receipt: BridgeReceipt): Promise<void>;
  onInbound(message: BridgeInbound): Promise<void>;
}

export function createWhatsAppService(deps: AppDeps, chat: Pick<ChatService, 'actorOf' | 'sendMessage'>): WhatsAppService {
  const { database, now } = deps;
  const db = database.db;

  async function consentOf(userId: string): Promise<WhatsAppConsent> {
    const [standing, history, contact] = await Promise.all([
      repo.standingConsents(db, [userId]),
      repo.consentHistory(db, userId),
      repo.userContact(db, userId),
    ]);
    const current = standing.get(userId);
    return {
      consented: current?.consented ?? false,
      source: (current?.source ?? null) as WhatsAppConsent['source'],
      at: current?.at?.toISOString() ?? null,
      has_mobile: Boolean(contact?.mobile),
      history: history.map((h) => ({
        consented: h.consented,
        source: h.source as WhatsAppConsent['history'][number]['source'],
        source_ref: h.sourceRef,
        at: h.at.toISOString(),
      })),
    };
  }

  function messageView(row: Awaited<ReturnType<typeof repo.listMessages>>['rows'][number]): WhatsAppBridgedMessage {
    const m = row.message;
    return {
      id: m.id,
      direction: m.direction as WhatsAppBridgedMessage['direction'],
      user_id: m.userId,
      user_name: row.firstName !== null ? `${row.firstName} ${row.lastName ?? ''}`.trim() : null,
      phone: maskPhone(m.phone),
      channel_url: row.channelUrl,
      chat_message_id: m.chatMessageId,
      kind: m.kind as WhatsAppBridgedMessage['kind'],
      template: m.template,
      body: m.body,
      provider_message_id: m.providerMessageId,
      status: m.status as WhatsAppMessageStatus,
      failure_reason: m.failureReason,
      status_history: m.statusHistory.map((h) => ({ status: h.status as WhatsAppMessageStatus, at: h.at, reason: h.reason })),
      created_at: m.createdAt.toISOString(),
    };
  }

  return {
    consent: (caller) => consentOf(caller.userId),

    async setConsent(caller, consented, audit) {
      await db.transaction(async (tx) => {
        const at = now();
        const before = (await repo.standingConsents(tx, [caller.userId])).get(caller.userId);
        await repo.insertConsent(tx, { userId: caller.userId, consented, source: 'profile', sourceRef: null, at });
        await repo.setConsentFlag(tx, caller.userId, consented);
        if (!consented) {
          // Withdrawal works at once: nothing still queued for the user leaves (dispatch checks again as well).
          const reason = 'Consent withdrawn before sending.';
          const queued = await tx
            .select({ id: whatsappMessages.id })
            .from(whatsappMessages)
            .where(and(eq(whatsappMessages.userId, caller.userId), eq(whatsappMessages.status, 'queued')))
            .for('update');
          for (const row of queued)
            await repo.updateMessage(
              tx,
              row.id,
              { status: 'cancelled', failureReason: reason },
              { status: 'cancelled', at: at.toISOString(), reason },
              at,
            );
        }
        await writeAudit(tx, audit, {
          action: 'user.whatsapp_consent_changed',
          entity: 'user',
          entityId: caller.userId,
          before: { consented: before?.consented ?? false, source: before?.source ?? null },
          after: { consented, source: 'profile' },
        });
      });
      return consentOf(caller.userId);
    },

    async messages(caller, query) {
      const pageSize = query.page_size ?? WHATSAPP_PAGE_SIZE.default;
      const page = query.page ?? 1;
      const { count, rows } = await repo.listMessages(db, caller.clientId, {
        ...(query.direction ? { direction: query.direction } : {}),
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { count, page, page_size: pageSize, results: rows.map(messageView) };
    },

    async link(caller, url, linked, audit) {
      return db.transaction(async (tx) => {
        const channel = await repo.channelByUrl(tx, url);
        const member = channel ? await repo.membership(tx, channel.id, caller.userId) : undefined;
        // A channel the caller is not in does not exist for them (chat's rule).
        if (!channel || !member || member.hidden || member.state !== 'joined')
          throw new AppError('NOT_FOUND', WHATSAPP_MESSAGES.channelNotFound);
        if (member.role !== 'operator' && channel.customType !== 'direct') throw new AppError('FORBIDDEN', WHATSAPP_MESSAGES.operatorsOnly);
        if (channel.customType === 'broadcast') throw fieldError('linked', WHATSAPP_MESSAGES.directOrGroupOnly);
        if (channel.isWhatsappLinked !== linked) {
          // Linking relays what is posted from now on, never the channel's history.
          await repo.setLinked(tx, channel.id, linked, channel.lastPosition, caller.userId, now());
          await writeAudit(tx, audit, {
            action: 'chat.whatsapp_link_changed',
            entity: 'chat_channel',
            entityId: channel.id,
            before: { is_whatsapp_linked_channel: channel.isWhatsappLinked },
            after: { is_whatsapp_linked_channel: linked },
          });
        }
        return { url: channel.url, is_whatsapp_linked_channel: linked };
      });
    },

    async onReceipt(receipt) {
      await db.transaction(async (tx) => {
        const row = await repo.messageByProviderId(tx, receipt.providerMessageId);
        if (!row || row.direction !== 'outbound') return;
        if (row.statusHistory.some((h) => h.status === receipt.status)) return; // a webhook delivered twice
        const at = now();
        const entry = { status: receipt.status, at: receipt.at.toISOString(), reason: receipt.reason ?? null };
        const forward = (RANK[receipt.status] ?? 0) > (RANK[row.status] ?? 0);
        await repo.updateMessage(
          tx,
          row.id,
          forward ? { status: receipt.status, ...(receipt.status === 'failed' ? { failureReason: receipt.reason ?? 'Failed.' } : {}) } : {},
          entry,
          at,
        );
      });
    },

    async onInbound(message) {
      const at = now();
      const user = await repo.userByMobile(db, message.from);
      const replied = message.contextMessageId ? await repo.outboundByProviderId(db, message.contextMessageId) : undefined;
      const route = replied?.channelId ? replied : await repo.lastChannelMessageTo(db, message.from);
      const [row] = await repo.insertMessages(db, [
        {
          direction: 'inbound',
          clientId: user?.clientId ?? null,
          userId: user?.userId ?? null,
          phone: message.from,
          channelId: route?.channelId ?? null,
          kind: 'text',
          body: message.text,
          sourceRef: message.providerMessageId,
          providerMessageId: message.providerMessageId,
          contextMessageId: message.contextMessageId ?? null,
          status: 'received',
          statusHistory: [{ status: 'received', at: message.at.toISOString(), reason: null }],
          createdAt: at,
          updatedAt: at,
        },
      ]);
      if (!row) return; // the same inbound delivered twice
      const unrouted = (reason: string) =>
        repo.updateMessage(
          db,
          row.id,
          { status: 'unrouted', failureReason: reason },
          { status: 'unrouted', at: now().toISOString(), reason },
          now(),
        );
      if (!user) return unrouted('No Dart user has this number.');
      if (!route?.channelId) return unrouted('No WhatsApp-linked chat to reply to.');
      const channel = await repo.channelById(db, route.channelId);
      if (!channel?.isWhatsappLinked) return unrouted('The chat is no longer linked to WhatsApp.');
      try {
        // Stored in chat like any message the user sends; the provider id is the idempotency key.
        const actor = await chat.actorOf(user.userId);
        const sent = await chat.sendMessage(actor, channel.url, {
          reqId: `whatsapp:${message.providerMessageId}`,
          message: message.text,
          data: { whatsapp: { provider_message_id: message.providerMessageId } },
          customType: null,
        });
        await repo.updateMessage(
          db,
          row.id,
          { status: 'posted', chatMessageId: sent.message.messageId },
          { status: 'posted', at: now().toISOString(), reason: null },
          now(),
        );
      } catch (error) {
        return unrouted(error instanceof AppError ? error.message : 'The chat did not take the message.');
      }
    },
  };
}
