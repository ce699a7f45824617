/**
 * Chat domain logic (issue 6): sessions, channels and membership, messages with gap-free per-channel
 * positions, receipts, files and the compliance export. Every change is one transaction; its bus
 * messages (`chat.*`) go out after commit and carry the ids of the users who may receive them, so
 * every node filters its own sockets. Nothing here knows Fastify or sockets.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  CHAT_FILE_TYPES,
  CHAT_LIMITS,
  CHAT_MESSAGES,
  isComplianceUser,
  NOTIFY_SOURCE_TOPICS,
  PRIVATE_RUN_CUSTOM_TYPE,
  PRIVATE_RUN_MESSAGES,
  type Channel,
  type ChannelType,
  type ChatMessage,
  type ConnectionStatus,
} from '@dart/contracts';
import type { z } from 'zod';
import type {
  ChannelCreateSchema,
  ChannelListQuerySchema,
  ChatExportSchema,
  ChatUserSearchQuerySchema,
  MessageListQuerySchema,
  SendMessageSchema,
} from '@dart/contracts';
import type { Tx } from '../../db/client';
import { writeAudit, writeAuditOnce, type AuditContext } from '../../lib/audit';
import type { BusMessage } from '../../lib/bus';
import { appendEvents } from '../../lib/events';
import { createMemoryConnectionCap, type ConnectionCap } from '../../lib/connection-cap';
import { newOpaqueToken, sha256 } from '../../lib/crypto';
import { AppError, fieldError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import { fenceIdempotency, underIdempotencyClaim } from '../../plugins/idempotency';
import { buildOgMetaData, findDartLink } from './chat.links';
import { privateRunMessage } from './chat.private-run';
import {
  createMemoryWindowThrottle,
  RateLimiterUnavailable,
  type Presence,
  type PresenceChange,
  type RateLimiter,
  type WindowThrottle,
} from './chat.presence';
import {
  appendMessageRow,
  appendPlainMessage,
  canSeeFile,
  channelWithMember,
  sendTarget,
  createChatRepository,
  recipientIdsOf,
  type ChannelRow,
  type ChatActor,
  type MemberRow,
  type MessageRecord,
  type Runner,
} from './chat.repository';
import { channelBase, channelFor, messageView, nicknameOf, type ChannelBase } from './chat.views';

/** Bus topics of the chat module; payloads carry `recipients` (user ids) for per-node filtering. */
export const CHAT_TOPICS = {
  message: 'chat.message',
  channel: 'chat.channel',
  receipt: 'chat.receipt',
  typing: 'chat.typing',
  sessionRevoked: 'chat.session_revoked',
  userChanged: 'chat.user_changed',
  presence: 'chat.presence',
} as const;

export interface ChatMessageEvent {
  channel_id: string;
  channel_url: string;
  position: number;
  recipients: string[];
  message: ChatMessage;
}
export interface ChatChannelEvent {
  channel_id: string;
  channel_url: string;
  event: import('@dart/contracts').ChatServerMessage extends infer M ? (M extends { type: 'channel'; event: infer E } ? E : never) : never;
  /** Members who see the channel afterwards, plus `removed`. */
  recipients: string[];
  /** Users for whom the channel is gone (left, declined, banned): they get `channel: null`. */
  removed: string[];
  base: ChannelBase;
  actor: { userId: string; nickname: string } | null;
  target_user_ids: string[];
  message: ChatMessage | null;
  /** `message_updated` / `message_deleted`: the change sequence the change took in its channel. */
  change_seq?: number;
}
export interface ChatReceiptEvent {
  channel_url: string;
  recipients: string[];
  user_id: string;
  read_position: number;
  delivered_position: number;
}
export interface ChatTypingEvent {
  channel_url: string;
  recipients: string[];
  user_id: string;
  nickname: string;
  typing: boolean;
}

/** A cluster-wide presence change, published once by the node that decided it (chat.presence.ts). */
export interface ChatPresenceEvent {
  user_id: string;
  connection_status: ConnectionStatus;
  /** The user's change number: a receiving node drops a change older than one it has relayed. */
  seq: number;
  /** Users who share a current channel with `user_id` (and see them as a member there). */
  recipients: string[];
}

type ChannelEventName = ChatChannelEvent['event'];
const notFound = () => new AppError('NOT_FOUND', CHAT_MESSAGES.channelNotFound);
const notMember = () => new AppError('FORBIDDEN', CHAT_MESSAGES.notMember);
const notOperator = () => new AppError('FORBIDDEN', CHAT_MESSAGES.notOperator);
const termsRequired = () => new AppError('CHAT_TERMS_REQUIRED', CHAT_MESSAGES.termsRequired);
/** Thrown inside a send transaction when the reqId was stored meanwhile: rolls the position back. */
class DuplicateSend extends Error {}

/** Replaces control characters and the given characters with '_' (file names are metadata, never paths). */
export function replaceUnsafe(text: string, also: string): string {
  return [...text].map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || also.includes(ch) ? '_' : ch)).join('');
}

const FILE_SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': (b) =>
    b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': (b) =>
    b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  'application/vnd.ms-excel': (b) => b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  'application/msword': (b) => b.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  // Text: valid UTF-8 without NUL bytes (no binary smuggled as text).
  'text/plain': (b) => !b.includes(0) && Buffer.from(b.toString('utf8'), 'utf8').equals(b),
  'text/csv': (b) => !b.includes(0) && Buffer.from(b.toString('utf8'), 'utf8').equals(b),
};

export interface ChatRealtime {
  limiter: RateLimiter;
  presence: Presence;
  /** The chat socket's per-user cap; in-process (per node) when absent. */
  connections?: ConnectionCap;
  /** The delivered-receipt throttle's windows (cluster-wide through Redis); in-process when absent. */
  throttle?: WindowThrottle;
}

/** How long a client waits before retrying a send refused because the rate limiter's store is down. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function createChatService(deps: AppDeps, realtime: ChatRealtime) {
  const { database, bus, config, files } = deps;
  const db = database.db;
  const repo = createChatRepository();
  const productName = config.productName;
  const now = () => deps.now();

  // ---- helpers -------------------------------------------------------------------------------
  const nickname = (actor: Pick<ChatActor, 'firstName' | 'lastName' | 'isStaff'>) =>
    nicknameOf(`${actor.firstName} ${actor.lastName}`.trim(), actor.isStaff, productName);
  const actorRef = (actor: ChatActor) => ({ userId: actor.userId, nickname: nickname(actor) });

  async function actorOf(userId: string): Promise<ChatActor> {
    const actor = await repo.loadActor(database, userId);
    if (!actor || !actor.isActive) throw new AppError('UNAUTHENTICATED', 'Session has ended. Please sign in again.');
    return actor;
  }
  /** Chat is blocked until the chat terms are accepted (spec §7). */
  function requireTerms(actor: ChatActor) {
    if (!actor.acceptedTerms) throw termsRequired();
  }

  async function publish(messages: BusMessage[]) {
    for (const message of messages) await bus.publish(message).catch(() => undefined);
  }

  /**
   * One transaction; `emit` queues bus messages that go out after commit. Under an Idempotency-Key the
   * key is marked applied in the same transaction (`fenceIdempotency`): a committed change is never run
   * again for the key, and a request whose claim was taken over after its lease rolls back (409).
   */
  async function change<T>(fn: (tx: Tx, emit: (m: BusMessage) => void) => Promise<T>): Promise<T> {
    const pending: BusMessage[] = [];
    const result = await db.transaction(async (tx) => {
      pending.length = 0;
      const value = await fn(tx, (m) => pending.push(m));
      await fenceIdempotency(tx);
      return value;
    });
    await publish(pending);
    return result;
  }

  async function basesOf(tx: Tx | typeof db, rows: ChannelRow[]): Promise<Map<string, ChannelBase>> {
    const [members, lasts] = await Promise.all([
      repo.membersOf(
        tx,
        rows.map((r) => r.id),
      ),
      repo.lastMessages(
        tx,
        rows.map((r) => ({ id: r.id, lastPosition: r.lastPosition })),
      ),
    ]);
    const map = new Map<string, ChannelBase>();
    for (const row of rows)
      map.set(
        row.id,
        channelBase(
          row,
          members.filter((m) => m.channelId === row.id),
          lasts.get(row.url),
          productName,
        ),
      );
    return map;
  }
  async function baseOf(tx: Tx, channelId: string): Promise<ChannelBase> {
    const [row] = await repo.channelsByIds(tx, [channelId]);
    return (await basesOf(tx, [row!])).get(channelId)!;
  }
  async function onlineOf(bases: ChannelBase[]) {
    return realtime.presence.online([...new Set(bases.flatMap((b) => b.members.map((m) => m.userId)))]);
  }
  async function view(base: ChannelBase, viewerId: string): Promise<Channel> {
    const channel = channelFor(base, viewerId, await onlineOf([base]), productName);
    if (!channel) throw notFound();
    return channel;
  }

  /** Emits a channel event to its visible members and to `removed`. */
  function channelEvent(
    emit: (m: BusMessage) => void,
    base: ChannelBase,
    event: ChannelEventName,
    input: { actor: ChatActor | null; targets?: string[]; removed?: string[]; message?: ChatMessage | null; changeSeq?: number },
  ) {
    const visible = base.members
      .filter((m) => !m.hidden || (base.customType === 'broadcast' && m.userId === base.creatorId))
      .map((m) => m.userId);
    const removed = input.removed ?? [];
    const payload: ChatChannelEvent = {
      channel_id: base.id,
      channel_url: base.url,
      event,
      recipients: [...new Set([...visible, ...removed])],
      removed,
      base,
      actor: input.actor ? actorRef(input.actor) : null,
      target_user_ids: input.targets ?? [],
      message: input.message ?? null,
      ...(input.changeSeq === undefined ? {} : { change_seq: input.changeSeq }),
    };
    emit({ topic: CHAT_TOPICS.channel, payload });
  }

  /**
   * Tells the notification centre who was invited (issue 15 §3 "chat invite"): one outbox event per invitee's firm,
   * ids only (the firm's sockets see it; the producer looks up the names). Broadcast recipients are not invited.
   */
  async function announceInvites(tx: Tx, emit: (m: BusMessage) => void, base: ChannelBase, inviterId: string, userIds: readonly string[]) {
    if (base.customType === 'broadcast' || userIds.length === 0) return;
    const byFirm = new Map<string, string[]>();
    for (const m of base.members) if (userIds.includes(m.userId)) byFirm.set(m.clientId, [...(byFirm.get(m.clientId) ?? []), m.userId]);
    const events = [...byFirm].map(([clientId, ids]) => ({
      topic: NOTIFY_SOURCE_TOPICS.chatInvited,
      clientId,
      payload: { channel_url: base.url, inviter_id: inviterId, user_ids: ids },
    }));
    for (const message of await appendEvents(tx, events)) emit(message);
  }

  /** The caller's channel, or 404 when it does not exist or the caller is not (any longer) in it. */
  async function memberChannel(tx: Tx | typeof db, actor: ChatActor, url: string, allowInvited = true) {
    const found = await channelWithMember(tx, url, actor.userId);
    if (!found) throw notFound();
    const { channel, member } = found;
    if (!member || member.leftAt || member.hidden) throw notFound();
    if (!allowInvited && member.state !== 'joined') throw notMember();
    return { channel, member };
  }
  async function lockedMemberChannel(tx: Tx, actor: ChatActor, url: string) {
    const found = await repo.channelByUrl(tx, url);
    if (!found) throw notFound();
    const channel = (await repo.lockChannel(tx, found.id))!;
    const member = await repo.member(tx, channel.id, actor.userId);
    if (!member || member.leftAt || member.hidden) throw notFound();
    return { channel, member };
  }

  /**
   * A group or trading group left without a joined operator gets one in the same transaction: the
   * longest-joined joined member, announced like an operators change (`operators` event, audited).
   * Direct channels give operators nothing to do, and a broadcast belongs to its creator alone, so
   * neither is touched. The caller holds the channel's row lock and emits its own event first.
   */
  async function keepAnOperator(tx: Tx, emit: (m: BusMessage) => void, channel: ChannelRow, base: ChannelBase, audit: AuditContext) {
    if (channel.customType !== 'group' && channel.customType !== 'trading group') return base;
    const promoted = await repo.promoteLongestJoined(tx, channel.id);
    if (!promoted) return base;
    await writeAudit(tx, audit, {
      action: 'chat.operators_changed',
      entity: 'chat_channel',
      entityId: channel.url,
      after: { add: [promoted], remove: [], reason: 'no operator left' },
    });
    const next = await baseOf(tx, channel.id);
    channelEvent(emit, next, 'operators', { actor: null, targets: [promoted] });
    return next;
  }

  async function validateInvitees(tx: Tx, actor: ChatActor, ids: string[], field: string) {
    const unique = [...new Set(ids)];
    if (unique.includes(actor.userId)) throw fieldError(field, CHAT_MESSAGES.cannotInviteSelf);
    if (unique.some((id) => !/^[0-9a-f-]{36}$/i.test(id))) throw fieldError(field, CHAT_MESSAGES.userNotFound);
    const cards = await repo.userCards(tx, unique);
    if (unique.some((id) => !cards.get(id)?.isActive)) throw fieldError(field, CHAT_MESSAGES.userNotFound);
    return unique;
  }

  const newChannelUrl = (type: ChannelType) => `dart_${type.replace(' ', '_')}_${randomBytes(12).toString('hex')}`;
  const directKey = (a: string, b: string) => `direct:${[a, b].sort().join(':')}`;

  // ---- messages (shared by REST and socket) ------------------------------------------------------
  interface NewMessage {
    reqId: string | null;
    messageType: MessageRecord['messageType'];
    message: string;
    data: Record<string, unknown>;
    customType: string | null;
    mimeType?: string | null;
    file?: { id: string; name: string; size: number; type: string } | null;
  }

  /** Appends a message at the channel's next position; the caller holds no lock yet. */
  async function appendMessage(
    tx: Runner,
    emit: (m: BusMessage) => void,
    channel: { id: string; url: string },
    sender: ChatActor | null,
    input: NewMessage,
  ): Promise<ChatMessage> {
    const at = now();
    const og = input.messageType === 'user' ? await buildOgMetaData('driver' in tx ? db : tx, input.message) : null;
    const id = randomUUID();
    const position = await appendMessageRow(tx, {
      id,
      channelId: channel.id,
      senderId: sender?.userId ?? null,
      reqId: input.reqId,
      messageType: input.messageType,
      mimeType: input.mimeType ?? null,
      message: input.message,
      data: input.data,
      customType: input.customType,
      ogMetaData: og,
      fileId: input.file?.id ?? null,
      createdAt: at,
    });
    if (position === null) throw new DuplicateSend();
    const message = storedView(channel.url, id, position, sender, input, og, at);
    const payload: ChatMessageEvent = {
      channel_id: channel.id,
      channel_url: channel.url,
      position,
      recipients: await recipientIdsOf(tx, channel.id),
      message,
    };
    emit({ topic: CHAT_TOPICS.message, payload });
    return message;
  }

  /** The wire view of a message just stored (built from what was written, without reading it back). */
  function storedView(
    channelUrl: string,
    id: string,
    position: number,
    sender: ChatActor | null,
    input: NewMessage,
    og: Record<string, unknown> | null,
    at: Date,
  ): ChatMessage {
    const record: MessageRecord = {
      id,
      channelUrl,
      position,
      senderId: sender?.userId ?? null,
      senderName: sender ? `${sender.firstName} ${sender.lastName}`.trim() : null,
      senderIsStaff: sender?.isStaff ?? false,
      reqId: input.reqId,
      messageType: input.messageType,
      mimeType: input.mimeType ?? null,
      message: input.message,
      data: input.data,
      customType: input.customType,
      ogMetaData: og,
      fileId: input.file?.id ?? null,
      fileName: input.file?.name ?? null,
      fileSize: input.file?.size ?? null,
      fileType: input.file?.type ?? null,
      createdAt: at,
      updatedAt: null,
      deletedAt: null,
      changeSeq: 0,
    };
    return messageView(record, productName);
  }

  /** Finds or creates the distinct direct channel of two users (both joined); emits `created` when new. */
  async function directChannel(
    tx: Tx,
    emit: (m: BusMessage) => void,
    creator: ChatActor,
    otherId: string,
    data: Record<string, unknown>,
  ): Promise<ChannelRow> {
    const key = directKey(creator.userId, otherId);
    let channel = await repo.channelByDistinctKey(tx, key);
    if (!channel) {
      const created = await repo.insertDistinctChannel(tx, {
        url: newChannelUrl('direct'),
        customType: 'direct',
        name: '',
        data,
        creatorId: creator.userId,
        distinctKey: key,
      });
      if (created) {
        const at = now();
        await repo.upsertMember(tx, { channelId: created.id, userId: creator.userId, state: 'joined', role: 'operator', joinedAt: at });
        await repo.upsertMember(tx, { channelId: created.id, userId: otherId, state: 'joined', role: 'none', joinedAt: at });
        channelEvent(emit, await baseOf(tx, created.id), 'created', { actor: creator, targets: [otherId] });
        return created;
      }
      channel = (await repo.channelByDistinctKey(tx, key))!;
    }
    return channel;
  }

  type FileRowMaker = (tx: Tx, channel: { id: string }) => Promise<NewMessage['file']>;
  async function checkedTarget(tx: Runner, actor: ChatActor, url: string) {
    const channel = await sendTarget(tx, url, actor.userId);
    if (!channel || !channel.current) throw notFound();
    if (channel.state !== 'joined') throw new AppError('FORBIDDEN', 'Accept the invitation to send messages.');
    if (channel.customType === 'broadcast' && channel.creatorId !== actor.userId) throw notOperator();
    return channel;
  }
  async function sendInTransaction(actor: ChatActor, url: string, input: NewMessage, fileRow?: FileRowMaker) {
    // Under an Idempotency-Key the send takes the transactional path, which fences the key (see `change`).
    const fast = !underIdempotencyClaim();
    if (fast && !fileRow && input.messageType === 'user' && input.reqId && !findDartLink(input.message)) {
      // The hottest path, one round trip: a plain text message without a link preview.
      const at = now();
      const id = randomUUID();
      const result = await appendPlainMessage(database, url, {
        id,
        senderId: actor.userId,
        reqId: input.reqId,
        message: input.message,
        data: input.data,
        customType: input.customType,
        createdAt: at,
      });
      if (result.position === -1) throw new DuplicateSend();
      if (result.position !== null && result.target) {
        const message = storedView(result.target.url, id, result.position, actor, input, null, at);
        const payload: ChatMessageEvent = {
          channel_id: result.target.id,
          channel_url: result.target.url,
          position: result.position,
          recipients: result.recipients,
          message,
        };
        await publish([{ topic: CHAT_TOPICS.message, payload }]);
        return message;
      }
      // Nothing was written: the checks below say why (or it is a broadcast, sent in a transaction).
    }
    const target = await checkedTarget(database, actor, url);
    if (fast && target.customType !== 'broadcast' && !fileRow) {
      // The hot path: one atomic statement takes the position, stores the message and the sender's
      // receipt (chat.repository appendMessageRow), so no explicit transaction is needed around it.
      const pending: BusMessage[] = [];
      const message = await appendMessage(database, (m) => pending.push(m), target, actor, input);
      await publish(pending);
      return message;
    }
    return change(async (tx, emit) => {
      const channel = await checkedTarget(tx, actor, url);
      const file = fileRow ? await fileRow(tx, channel) : null;
      const message = await appendMessage(tx, emit, channel, actor, { ...input, file });
      if (channel.customType === 'broadcast') {
        // Broadcast spam is capped per day (RELIABILITY #34); over it nothing of this send is stored.
        await deps.quotas.charge(tx, [{ action: 'chat.broadcast', scope: 'user', subjectId: actor.userId }]);
        // Broadcast: each recipient gets the message in their own direct channel with the creator.
        const recipients = (await repo.membersOf(tx, [channel.id])).filter((m) => m.hidden).map((m) => m.userId);
        for (const recipientId of recipients) {
          const direct = await directChannel(tx, emit, actor, recipientId, { created_from: 'broadcast' });
          await appendMessage(tx, emit, direct, actor, {
            ...input,
            file,
            reqId: input.reqId ? `${input.reqId}:${channel.url}` : null,
            data: { ...input.data, broadcast: { channel_url: channel.url, message_id: message.messageId } },
          });
        }
      }
      return message;
    });
  }

  /** Sends with idempotency by (channel, sender, reqId): a retry returns the stored message. */
  async function send(actor: ChatActor, url: string, input: NewMessage, fileRow?: FileRowMaker) {
    requireTerms(actor);
    let allowed: boolean;
    try {
      allowed = await realtime.limiter.take(actor.userId, CHAT_LIMITS.messagesPerSecond, 1000);
    } catch (error) {
      if (!(error instanceof RateLimiterUnavailable)) throw error;
      // A dependency outage is a 503 (REST) / an unavailable nack (socket), never "too fast".
      throw new AppError('SERVICE_UNAVAILABLE', CHAT_MESSAGES.serviceUnavailable, undefined, {
        'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }
    if (!allowed) throw new AppError('RATE_LIMITED', CHAT_MESSAGES.tooManyMessages, undefined, { 'retry-after': '1' });
    if (input.customType === PRIVATE_RUN_CUSTOM_TYPE) {
      if (fileRow) throw fieldError('customType', PRIVATE_RUN_MESSAGES.notPrivate);
      // The card is built here from our database; the client's text and data are replaced.
      const { channel } = await memberChannel(db, actor, url, false);
      const members = await repo.membersOf(db, [channel.id]);
      const otherFirms = [
        // Invitees see the channel's messages too, so their firms count as well.
        ...new Set(members.filter((m) => !m.hidden && m.clientId !== actor.clientId).map((m) => m.clientId)),
      ];
      input = { ...input, ...(await privateRunMessage(db, actor, otherFirms, input.data)) };
    }
    try {
      return { message: await sendInTransaction(actor, url, input, fileRow), replayed: false };
    } catch (error) {
      if (!(error instanceof DuplicateSend)) throw error;
      const { channel } = await memberChannel(db, actor, url);
      const existing = await repo.messageByReqId(db, channel.id, actor.userId, input.reqId!);
      return { message: messageView(existing!, productName), replayed: true };
    }
  }

  /** Tells the users who see `presence.userId` in a channel; the recipients are read once, here. */
  async function announcePresence(presence: PresenceChange) {
    const recipients = await repo.presenceRecipients(database, presence.userId);
    if (recipients.length === 0) return;
    const payload: ChatPresenceEvent = { user_id: presence.userId, connection_status: presence.status, seq: presence.seq, recipients };
    await publish([{ topic: CHAT_TOPICS.presence, payload }]);
  }
  realtime.presence.onChange((presence) => {
    announcePresence(presence).catch(() => undefined);
  });

  // ---- delivered-receipt throttle (spec §9: 1 per user and channel per 1000 ms, for the cluster) --
  // The window is claimed in Redis when there is one (SET NX PX), so N nodes write one receipt a second,
  // not N. A throttled receipt is kept here (the highest position) and written once this node claims a
  // later window: claimed again when the holder's window ends, for as long as another node wins it.
  const deliveredThrottle = realtime.throttle ?? createMemoryWindowThrottle();
  const deliveredPending = new Map<string, { position: number; timer: NodeJS.Timeout }>();
  function deliverLater(key: string, actor: ChatActor, url: string, position: number, waitMs: number) {
    const fire = async () => {
      try {
        const wait = await deliveredThrottle.claim(key, CHAT_LIMITS.markDeliveredThrottleMs);
        if (wait > 0) {
          entry.timer = setTimeout(() => void fire(), wait);
          entry.timer.unref();
          return;
        }
        deliveredPending.delete(key);
        await applyReceipt(actor, url, null, entry.position);
      } catch {
        // Left the channel meanwhile, or the database is unreachable: a later receipt carries the position.
        deliveredPending.delete(key);
      }
    };
    const entry = { position, timer: setTimeout(() => void fire(), waitMs) };
    entry.timer.unref();
    deliveredPending.set(key, entry);
  }
  async function applyReceipt(actor: ChatActor, url: string, read: number | null, delivered: number | null) {
    const { channel } = await memberChannel(db, actor, url);
    const result = await repo.raiseReceipts(db, channel.id, actor.userId, read, delivered);
    if (!result) throw notFound();
    if (result.changed) {
      const payload: ChatReceiptEvent = {
        channel_url: channel.url,
        recipients: await recipientIdsOf(db, channel.id),
        user_id: actor.userId,
        read_position: result.readPosition,
        delivered_position: result.deliveredPosition,
      };
      await publish([{ topic: CHAT_TOPICS.receipt, payload }]);
    }
    return { read_position: result.readPosition, delivered_position: result.deliveredPosition };
  }

  return {
    actorOf,
    requireTerms,
    presence: realtime.presence,
    connections: realtime.connections ?? createMemoryConnectionCap(),
    productName,

    // ---- sessions ------------------------------------------------------------------------------
    async issueSession(userId: string, authSessionId: string, requested: string, audit: AuditContext) {
      if (requested !== userId) throw new AppError('FORBIDDEN', 'You can only open your own chat session.');
      await actorOf(userId);
      const token = newOpaqueToken();
      const expiresAt = new Date(now().getTime() + CHAT_LIMITS.sessionTokenTtlSeconds * 1000);
      await db.transaction(async (tx) => {
        await repo.insertSession(tx, { userId, authSessionId, tokenHash: sha256(token), expiresAt });
        // Once per sign-in: the client fetches a token on every page view and socket reconnect, and a
        // row each time flooded the trail (issue 12 fix 7). Later issues are in the request log.
        await writeAuditOnce(tx, audit, { action: 'chat.session_issued', entity: 'session', entityId: authSessionId });
      });
      return { token, expires_at: expiresAt.toISOString(), user_id: userId };
    },
    async removeSessions(userId: string, requested: string, audit: AuditContext) {
      if (requested !== userId) throw new AppError('FORBIDDEN', 'You can only end your own chat session.');
      const revoked = await db.transaction(async (tx) => {
        const n = await repo.revokeSessions(tx, userId);
        await writeAudit(tx, audit, { action: 'chat.session_removed', entity: 'user', entityId: userId, after: { revoked: n } });
        return n;
      });
      await publish([{ topic: CHAT_TOPICS.sessionRevoked, payload: { userId } }]);
      return { revoked };
    },
    /** Socket auth: 'invalid' → close 4401 (refetch a token); 'ended' → 4403 (clear chat state). */
    async authenticateToken(
      token: string,
    ): Promise<
      { ok: true; actor: ChatActor; sessionId: string; authSessionId: string | null } | { ok: false; reason: 'invalid' | 'ended' }
    > {
      const session = await repo.findSession(database, sha256(token));
      if (!session) return { ok: false, reason: 'invalid' };
      if (session.revokedAt) return { ok: false, reason: 'ended' };
      if (session.expiresAt <= now()) return { ok: false, reason: 'invalid' };
      if (session.authSessionId && (session.authRevokedAt || (session.authExpiresAt && session.authExpiresAt <= now())))
        return { ok: false, reason: 'ended' };
      const actor = await repo.loadActor(database, session.userId);
      if (!actor || !actor.isActive) return { ok: false, reason: 'ended' };
      return { ok: true, actor, sessionId: session.id, authSessionId: session.authSessionId };
    },
    /** Whether an open socket's chat session still stands (not revoked, its sign-in not ended, the user active). */
    async sessionActive(sessionId: string): Promise<boolean> {
      const rows = await database.query<{ ok: boolean }>(
        `SELECT (cs.revoked_at IS NULL AND u.is_active AND (s.id IS NULL OR (s.revoked_at IS NULL AND s.expires_at > now()))) AS ok
           FROM chat_sessions cs JOIN users u ON u.id = cs.user_id LEFT JOIN auth_sessions s ON s.id = cs.auth_session_id
          WHERE cs.id = $1`,
        [sessionId],
      );
      return rows[0]?.ok === true;
    },
    loadActor: (userId: string) => repo.loadActor(database, userId),

    // ---- people --------------------------------------------------------------------------------
    async acceptTerms(userId: string, audit: AuditContext) {
      await db.transaction(async (tx) => {
        const before = await repo.acceptTerms(tx, userId);
        await writeAudit(tx, audit, {
          action: 'chat.terms_accepted',
          entity: 'user',
          entityId: userId,
          before: { has_accepted_chat_terms: before },
          after: { has_accepted_chat_terms: true },
        });
      });
      await publish([{ topic: CHAT_TOPICS.userChanged, payload: { userId } }]);
      return { has_accepted_chat_terms: true as const };
    },
    async searchUsers(actor: ChatActor, query: z.output<typeof ChatUserSearchQuerySchema>) {
      requireTerms(actor);
      const { count, rows } = await repo.searchUsers(db, actor.userId, actor.clientId, {
        search: query.search_param,
        connectionsOnly: query.connections_only,
        offset: (query.page - 1) * query.page_size,
        limit: query.page_size,
      });
      return {
        count,
        page: query.page,
        page_size: query.page_size,
        suggested: query.search_param === '',
        results: rows.map((u) => ({
          id: u.userId,
          nickname: nicknameOf(u.name, u.isStaff, productName),
          client_id: u.clientId,
          brand_name: u.brandName,
          is_staff: u.isStaff,
          onboarded: u.onboarded,
          is_connection: u.isConnection,
        })),
      };
    },

    // ---- channels ------------------------------------------------------------------------------
    async listChannels(actor: ChatActor, query: z.output<typeof ChannelListQuerySchema>) {
      requireTerms(actor);
      let after: { group: number; at: string; url: string } | undefined;
      if (query.token) {
        try {
          const parsed = JSON.parse(Buffer.from(query.token, 'base64url').toString('utf8')) as { g: number; a: string; u: string };
          if (
            // A forged token must not reach a query: an int32 group, a time within years 1970–9999 (passed
            // on re-written as ISO, so PostgreSQL never parses the client's text) and a channel url.
            !(Number.isInteger(parsed.g) && Math.abs(parsed.g) < 2 ** 31) ||
            typeof parsed.a !== 'string' ||
            !(Date.parse(parsed.a) >= 0 && Date.parse(parsed.a) < Date.UTC(10_000, 0, 1)) ||
            typeof parsed.u !== 'string' ||
            !/^[A-Za-z0-9_-]{1,200}$/.test(parsed.u)
          )
            throw new Error('bad cursor');
          after = { group: parsed.g, at: new Date(parsed.a).toISOString(), url: parsed.u };
        } catch {
          throw fieldError('token', 'Invalid page token.');
        }
      }
      const page = await repo.listChannelIds(db, actor.userId, { customType: query.customType, after, limit: query.limit + 1 });
      const shown = page.slice(0, query.limit);
      const rows = await repo.channelsByIds(
        db,
        shown.map((p) => p.id),
      );
      const bases = await basesOf(db, rows);
      const online = await onlineOf([...bases.values()]);
      const channels = shown
        .map((p) => channelFor(bases.get(p.id)!, actor.userId, online, productName))
        .filter((c): c is Channel => c !== null);
      const last = shown.at(-1);
      return {
        channels,
        next:
          page.length > query.limit && last
            ? Buffer.from(JSON.stringify({ g: last.group, a: last.at, u: last.url })).toString('base64url')
            : null,
      };
    },
    async getChannel(actor: ChatActor, url: string) {
      requireTerms(actor);
      const { channel } = await memberChannel(db, actor, url);
      return view((await basesOf(db, [channel])).get(channel.id)!, actor.userId);
    },
    async createChannel(actor: ChatActor, input: z.output<typeof ChannelCreateSchema>, audit: AuditContext) {
      requireTerms(actor);
      const result = await change(async (tx, emit) => {
        const invitees = await validateInvitees(tx, actor, input.invitedUserIds, 'invitedUserIds');
        const allowedOperators = new Set([actor.userId, ...invitees]);
        if (input.operatorUserIds.some((id) => !allowedOperators.has(id)))
          throw fieldError('operatorUserIds', 'Operators must be the creator or invited users.');
        const at = now();
        if (input.customType === 'direct' && input.isDistinct) {
          const key = directKey(actor.userId, invitees[0]!);
          const existing = await repo.channelByDistinctKey(tx, key);
          if (existing) {
            // isDistinct: the existing channel comes back; whoever left it is brought back in.
            await repo.lockChannel(tx, existing.id);
            const mine = await repo.member(tx, existing.id, actor.userId);
            const other = await repo.member(tx, existing.id, invitees[0]!);
            const locked = (await repo.channelsByIds(tx, [existing.id]))[0]!;
            let changed = false;
            if (!mine || mine.leftAt) {
              await repo.upsertMember(tx, {
                channelId: existing.id,
                userId: actor.userId,
                state: 'joined',
                role: mine?.role ?? 'none',
                joinedAt: at,
                joinedPosition: locked.lastPosition,
              });
              changed = true;
            }
            const reinvited = !other || Boolean(other.leftAt);
            if (reinvited) {
              await repo.upsertMember(tx, {
                channelId: existing.id,
                userId: invitees[0]!,
                state: 'invited',
                role: other?.role ?? 'none',
                inviterId: actor.userId,
                invitedAt: at,
                joinedPosition: locked.lastPosition,
              });
              changed = true;
            }
            const base = await baseOf(tx, existing.id);
            if (changed) channelEvent(emit, base, 'invited', { actor, targets: invitees });
            if (reinvited) await announceInvites(tx, emit, base, actor.userId, invitees);
            return { base, created: false };
          }
        }
        const broadcast = input.customType === 'broadcast';
        const values = {
          url: newChannelUrl(input.customType),
          customType: input.customType,
          name: input.name,
          data: input.data,
          creatorId: actor.userId,
          distinctKey: input.customType === 'direct' && input.isDistinct ? directKey(actor.userId, invitees[0]!) : null,
        };
        let channel = values.distinctKey ? await repo.insertDistinctChannel(tx, values) : await repo.insertChannel(tx, values);
        if (!channel) channel = (await repo.channelByDistinctKey(tx, values.distinctKey!))!;
        await repo.upsertMember(tx, { channelId: channel.id, userId: actor.userId, state: 'joined', role: 'operator', joinedAt: at });
        for (const id of invitees)
          await repo.upsertMember(tx, {
            channelId: channel.id,
            userId: id,
            // Broadcast recipients are hidden members: they get the messages in their direct channels.
            state: broadcast ? 'joined' : 'invited',
            role: !broadcast && input.operatorUserIds.includes(id) ? 'operator' : 'none',
            hidden: broadcast,
            inviterId: actor.userId,
            invitedAt: at,
          });
        await writeAudit(tx, audit, {
          action: 'chat.channel_created',
          entity: 'chat_channel',
          entityId: channel.url,
          after: { customType: input.customType, name: input.name, invited: invitees },
        });
        const base = await baseOf(tx, channel.id);
        channelEvent(emit, base, 'created', { actor, targets: invitees });
        await announceInvites(tx, emit, base, actor.userId, invitees);
        return { base, created: true };
      });
      return { channel: await view(result.base, actor.userId), created: result.created };
    },
    async invite(actor: ChatActor, url: string, userIds: string[], audit: AuditContext) {
      requireTerms(actor);
      const base = await change(async (tx, emit) => {
        const { channel, member } = await lockedMemberChannel(tx, actor, url);
        if (member.state !== 'joined') throw notMember();
        if (channel.customType === 'direct') throw fieldError('channel_url', CHAT_MESSAGES.directNeedsOne);
        const broadcast = channel.customType === 'broadcast';
        if (broadcast && channel.creatorId !== actor.userId) throw notOperator();
        const invitees = await validateInvitees(tx, actor, userIds, 'sendbird_user_ids');
        const banned = await repo.isBanned(tx, channel.id, invitees);
        if (banned.length) throw fieldError('sendbird_user_ids', 'This user is banned from this channel.');
        const current = await repo.membersOf(tx, [channel.id]);
        const fresh = invitees.filter((id) => !current.some((m) => m.userId === id));
        const max = broadcast ? CHAT_LIMITS.broadcastMaxMembers : CHAT_LIMITS.groupMaxMembers;
        if (current.length + fresh.length > max) throw fieldError('sendbird_user_ids', `A group has at most ${max} members.`);
        const at = now();
        for (const id of fresh)
          await repo.upsertMember(tx, {
            channelId: channel.id,
            userId: id,
            state: broadcast ? 'joined' : 'invited',
            role: 'none',
            hidden: broadcast,
            inviterId: actor.userId,
            invitedAt: at,
            joinedPosition: channel.lastPosition,
          });
        if (fresh.length)
          await writeAudit(tx, audit, { action: 'chat.invited', entity: 'chat_channel', entityId: channel.url, after: { invited: fresh } });
        const next = await baseOf(tx, channel.id);
        if (fresh.length) channelEvent(emit, next, 'invited', { actor, targets: fresh });
        await announceInvites(tx, emit, next, actor.userId, fresh);
        return next;
      });
      return view(base, actor.userId);
    },
    async accept(actor: ChatActor, url: string, audit: AuditContext) {
      requireTerms(actor);
      const base = await change(async (tx, emit) => {
        const { channel, member } = await lockedMemberChannel(tx, actor, url);
        if (member.state !== 'invited') throw new AppError('CONFLICT', 'There is no invitation to accept.');
        await repo.updateMember(tx, channel.id, actor.userId, { state: 'joined', joinedAt: now() });
        await writeAudit(tx, audit, { action: 'chat.invitation_accepted', entity: 'chat_channel', entityId: channel.url });
        const next = await baseOf(tx, channel.id);
        channelEvent(emit, next, 'joined', { actor, targets: [actor.userId] });
        // Everyone joined before had left: the first to accept takes over.
        return keepAnOperator(tx, emit, channel, next, audit);
      });
      return view(base, actor.userId);
    },
    /**
     * Decline: the decliner leaves. Group / trading group: the inviter is the target of the
     * `declined` event ('{nickname} declined your request'). Direct: the channel is gone for the
     * decliner (the other member sees them removed).
     */
    async decline(actor: ChatActor, url: string, audit: AuditContext) {
      requireTerms(actor);
      await change(async (tx, emit) => {
        const { channel, member } = await lockedMemberChannel(tx, actor, url);
        if (member.state !== 'invited') throw new AppError('CONFLICT', 'There is no invitation to decline.');
        await repo.updateMember(tx, channel.id, actor.userId, { leftAt: now() });
        await writeAudit(tx, audit, { action: 'chat.invitation_declined', entity: 'chat_channel', entityId: channel.url });
        channelEvent(emit, await baseOf(tx, channel.id), 'declined', {
          actor,
          targets: member.inviterId ? [member.inviterId] : [],
          removed: [actor.userId],
        });
      });
      return { detail: 'Declined.' };
    },
    async leave(actor: ChatActor, url: string, audit: AuditContext) {
      requireTerms(actor);
      await change(async (tx, emit) => {
        const { channel } = await lockedMemberChannel(tx, actor, url);
        await repo.updateMember(tx, channel.id, actor.userId, { leftAt: now(), role: 'none' });
        await writeAudit(tx, audit, { action: 'chat.left', entity: 'chat_channel', entityId: channel.url });
        const base = await baseOf(tx, channel.id);
        channelEvent(emit, base, 'left', { actor, targets: [actor.userId], removed: [actor.userId] });
        await keepAnOperator(tx, emit, channel, base, audit);
      });
      return { detail: 'Left the channel.' };
    },
    async updateOperators(actor: ChatActor, url: string, input: { add: string[]; remove: string[] }, audit: AuditContext) {
      requireTerms(actor);
      const base = await change(async (tx, emit) => {
        const { channel, member } = await lockedMemberChannel(tx, actor, url);
        if (member.role !== 'operator' || member.state !== 'joined') throw notOperator();
        const members = (await repo.membersOf(tx, [channel.id])).filter((m) => !m.hidden);
        const ids = new Set(members.map((m) => m.userId));
        for (const [field, list] of [
          ['add', input.add],
          ['remove', input.remove],
        ] as const)
          if (list.some((id) => !ids.has(id))) throw fieldError(field, 'Operators must be members of the channel.');
        const after = new Set(members.filter((m) => m.role === 'operator').map((m) => m.userId));
        for (const id of input.add) after.add(id);
        for (const id of input.remove) after.delete(id);
        if (after.size === 0) throw fieldError('remove', 'A channel needs at least one operator.');
        await repo.setRoles(tx, channel.id, input.add, 'operator');
        await repo.setRoles(
          tx,
          channel.id,
          input.remove.filter((id) => !input.add.includes(id)),
          'none',
        );
        await writeAudit(tx, audit, { action: 'chat.operators_changed', entity: 'chat_channel', entityId: channel.url, after: input });
        const next = await baseOf(tx, channel.id);
        channelEvent(emit, next, 'operators', { actor, targets: [...input.add, ...input.remove] });
        return next;
      });
      return view(base, actor.userId);
    },
    /** Ban: operators only; the user is removed at once and can never be invited back. */
    async ban(actor: ChatActor, url: string, userId: string, audit: AuditContext) {
      requireTerms(actor);
      const base = await change(async (tx, emit) => {
        const { channel, member } = await lockedMemberChannel(tx, actor, url);
        if (member.role !== 'operator' || member.state !== 'joined') throw notOperator();
        if (channel.customType === 'direct') throw fieldError('user_id', 'Nobody can be banned from a direct chat.');
        if (userId === actor.userId) throw fieldError('user_id', 'You cannot ban yourself.');
        const target = /^[0-9a-f-]{36}$/i.test(userId) ? await repo.member(tx, channel.id, userId) : undefined;
        if (!target || target.leftAt) throw fieldError('user_id', 'This user is not a member of the channel.');
        await repo.updateMember(tx, channel.id, userId, { leftAt: now(), role: 'none' });
        await repo.insertBan(tx, channel.id, userId, actor.userId);
        await writeAudit(tx, audit, { action: 'chat.banned', entity: 'chat_channel', entityId: channel.url, after: { user_id: userId } });
        const next = await baseOf(tx, channel.id);
        channelEvent(emit, next, 'banned', { actor, targets: [userId], removed: [userId] });
        return next;
      });
      return view(base, actor.userId);
    },

    // ---- messages ------------------------------------------------------------------------------
    async listMessages(actor: ChatActor, url: string, query: z.output<typeof MessageListQuerySchema>) {
      requireTerms(actor);
      if (query.before !== undefined && query.after !== undefined) throw fieldError('after', 'Give either before or after, not both.');
      // The channel row is read before the messages, so the page reflects every change up to its change_seq.
      const { channel } = await memberChannel(db, actor, url);
      const rows =
        query.after !== undefined
          ? await repo.messagesAfter(db, channel.id, query.after, query.limit + 1)
          : await repo.messagesBefore(db, channel.id, query.before ?? null, query.limit + 1);
      const hasMore = rows.length > query.limit;
      const page = hasMore ? (query.after !== undefined ? rows.slice(0, query.limit) : rows.slice(1)) : rows;
      return { messages: page.map((r) => messageView(r, productName)), has_more: hasMore, change_seq: channel.changeSeq };
    },
    sendMessage(actor: ChatActor, url: string, input: z.output<typeof SendMessageSchema>) {
      return send(actor, url, {
        reqId: input.reqId,
        messageType: 'user',
        message: input.message,
        data: input.data,
        customType: input.customType,
      });
    },
    async sendFile(actor: ChatActor, url: string, input: { reqId: string; fileName: string; mimeType: string; bytes: Buffer }) {
      requireTerms(actor);
      const mime = input.mimeType.split(';')[0]!.trim().toLowerCase();
      if (!(CHAT_FILE_TYPES as readonly string[]).includes(mime)) throw fieldError('file', CHAT_MESSAGES.fileTypeNotAllowed);
      if (input.bytes.length === 0) throw fieldError('file', 'The file is empty.');
      if (input.bytes.length > CHAT_LIMITS.fileMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', CHAT_MESSAGES.fileTooLarge);
      if (!FILE_SIGNATURES[mime]!(input.bytes)) throw fieldError('file', CHAT_MESSAGES.fileTypeNotAllowed);
      // The name is metadata only: control characters and path separators go.
      const fileName = replaceUnsafe(input.fileName, '/\\').slice(0, 200);
      // Membership is checked before storing anything.
      await memberChannel(db, actor, url, false);
      const stored = await files.put(input.bytes);
      return send(
        actor,
        url,
        { reqId: input.reqId, messageType: 'file', message: fileName, data: {}, customType: null, mimeType: mime },
        async (tx, channel) => {
          const row = await repo.insertFile(tx, {
            channelId: channel.id,
            uploaderId: actor.userId,
            storageKey: stored.key,
            name: fileName,
            mimeType: mime,
            size: stored.size,
            sha256: stored.sha256,
          });
          return { id: row.id, name: row.name, size: row.size, type: row.mimeType };
        },
      );
    },
    async editMessage(actor: ChatActor, url: string, messageId: string, text: string, audit: AuditContext) {
      requireTerms(actor);
      return change(async (tx, emit) => {
        const { channel } = await lockedMemberChannel(tx, actor, url);
        const record = await repo.messageById(tx, channel.id, messageId);
        if (!record || record.deletedAt) throw new AppError('NOT_FOUND', CHAT_MESSAGES.messageNotFound);
        if (record.senderId !== actor.userId || record.messageType !== 'user' || record.customType !== null)
          throw new AppError('FORBIDDEN', CHAT_MESSAGES.notEditable);
        const at = now();
        await repo.insertEdit(tx, { messageId: record.id, previousMessage: record.message, editedBy: actor.userId, editedAt: at });
        await repo.updateMessageText(tx, record.id, text, at, await buildOgMetaData(tx, text));
        const changeSeq = await repo.stampChange(tx, channel.id, record.id);
        await writeAudit(tx, audit, {
          action: 'chat.message_edited',
          entity: 'chat_message',
          entityId: record.id,
          before: { message: record.message },
          after: { message: text },
        });
        const message = messageView((await repo.messageById(tx, channel.id, record.id))!, productName);
        channelEvent(emit, await baseOf(tx, channel.id), 'message_updated', { actor, targets: [], message, changeSeq });
        return message;
      });
    },
    async deleteMessage(actor: ChatActor, url: string, messageId: string, audit: AuditContext) {
      requireTerms(actor);
      return change(async (tx, emit) => {
        const { channel } = await lockedMemberChannel(tx, actor, url);
        const record = await repo.messageById(tx, channel.id, messageId);
        if (!record || record.deletedAt) throw new AppError('NOT_FOUND', CHAT_MESSAGES.messageNotFound);
        if (record.senderId !== actor.userId) throw new AppError('FORBIDDEN', CHAT_MESSAGES.notEditable);
        await repo.softDelete(tx, record.id, now());
        const changeSeq = await repo.stampChange(tx, channel.id, record.id);
        await writeAudit(tx, audit, { action: 'chat.message_deleted', entity: 'chat_message', entityId: record.id });
        const message = messageView((await repo.messageById(tx, channel.id, record.id))!, productName);
        channelEvent(emit, await baseOf(tx, channel.id), 'message_deleted', { actor, targets: [], message, changeSeq });
        return message;
      });
    },
    async markRead(actor: ChatActor, url: string, position: number) {
      requireTerms(actor);
      return applyReceipt(actor, url, position, null);
    },
    /**
     * Delivered receipts: at most one write per user and channel per 1000 ms across all nodes; a throttled
     * one is merged into this node's trailing write (the highest position), never dropped.
     */
    async markDelivered(actor: ChatActor, url: string, position: number) {
      requireTerms(actor);
      const key = `${actor.userId}|${url}`;
      const waiting = deliveredPending.get(key);
      if (waiting) {
        waiting.position = Math.max(waiting.position, position);
        return { throttled: true };
      }
      const wait = await deliveredThrottle.claim(key, CHAT_LIMITS.markDeliveredThrottleMs);
      if (wait === 0) return { throttled: false, ...(await applyReceipt(actor, url, null, position)) };
      // Another receipt of this user and channel may have queued while the claim was asked.
      const queued = deliveredPending.get(key);
      if (queued) queued.position = Math.max(queued.position, position);
      else deliverLater(key, actor, url, position, wait);
      return { throttled: true };
    },
    async typing(actor: ChatActor, url: string, typing: boolean) {
      const { channel, member } = await memberChannel(db, actor, url);
      if (member.state !== 'joined') return;
      const payload: ChatTypingEvent = {
        channel_url: channel.url,
        recipients: (await recipientIdsOf(db, channel.id)).filter((id) => id !== actor.userId),
        user_id: actor.userId,
        nickname: nickname(actor),
        typing,
      };
      await publish([{ topic: CHAT_TOPICS.typing, payload }]);
    },

    // ---- files and export ------------------------------------------------------------------------
    async download(actor: ChatActor, fileId: string) {
      requireTerms(actor);
      const file = await repo.fileById(db, fileId);
      if (!file) throw new AppError('NOT_FOUND', 'File not found.');
      if (!(await canSeeFile(db, file.id, actor.userId))) throw new AppError('NOT_FOUND', 'File not found.');
      const bytes = await files.get(file.storageKey);
      if (!bytes) throw new AppError('NOT_FOUND', 'File not found.');
      return { file, bytes };
    },

    /**
     * The transcript of one channel in a time range: every message with its sender and firm, file
     * messages with name, size and type, each previous version of an edited message, and deleted
     * messages marked with their original text. Members may export; so may compliance officers of a
     * firm that has (or had) a member in the channel. Audited.
     */
    async exportChat(actor: ChatActor, input: z.output<typeof ChatExportSchema>, audit: AuditContext) {
      const url = input.channelIds[0]!;
      const channel = await repo.channelByUrl(db, url);
      if (!channel) throw notFound();
      const member = await repo.member(db, channel.id, actor.userId);
      const isMember = !!member && !member.leftAt && !member.hidden;
      const complianceAllowed =
        (isComplianceUser(actor) || actor.roles.includes('complianceofficer')) &&
        (await repo.memberClientIds(db, channel.id)).includes(actor.clientId);
      if (!isMember && !complianceAllowed) throw notFound();
      if (isMember && !complianceAllowed) requireTerms(actor);
      const from = new Date(input.startTime);
      const to = new Date(input.endTime);
      const records = await repo.messagesInRange(db, channel.id, from, to);
      const edits = await repo.editsOf(
        db,
        records.map((r) => r.id),
      );
      const members = await repo.membersOf(db, [channel.id]);
      const senders = await repo.userCards(db, [...new Set(records.map((r) => r.senderId).filter((id): id is string => id !== null))]);
      const lines: string[] = [
        `${productName} chat transcript`,
        `Channel: ${channel.name || '(direct)'} [${channel.customType}] ${channel.url}`,
        `Period: ${from.toISOString()} to ${to.toISOString()}`,
        `Exported by: ${actor.firstName} ${actor.lastName} <${actor.email}> (${actor.brandName}) at ${now().toISOString()}`,
        `Members: ${members.map((m) => `${m.name} (${m.brandName})${m.role === 'operator' ? ' [operator]' : ''}${m.hidden ? ' [broadcast recipient]' : ''}`).join('; ')}`,
        `Messages: ${records.length}`,
        '',
      ];
      const oneLine = (text: string) => text.replace(/\r?\n/g, '\n    ');
      for (const r of records) {
        const sender = r.senderId ? senders.get(r.senderId) : undefined;
        const who = sender ? `${sender.name} (${sender.brandName})${sender.isStaff ? ` [${productName} staff]` : ''}` : productName;
        const head = `[${r.createdAt.toISOString()}] #${r.position} ${who}`;
        const history = edits.get(r.id) ?? [];
        // Each edit row holds the text before that edit: versions are history[0..n-1] then the current text.
        const original = history[0]?.previous ?? r.message;
        if (r.messageType === 'file')
          lines.push(`${head}: [file] ${r.fileName ?? r.message} (${r.fileSize ?? 0} bytes, ${r.fileType ?? r.mimeType ?? ''})`);
        else lines.push(`${head}${r.messageType === 'admin' ? ' [admin]' : ''}: ${oneLine(original)}`);
        history.forEach((edit, i) => {
          const text = history[i + 1]?.previous ?? r.message;
          lines.push(`    [edited ${edit.at.toISOString()}] ${oneLine(text)}`);
        });
        if (r.deletedAt) lines.push(`    [deleted ${r.deletedAt.toISOString()}] (original text kept above)`);
      }
      await db.transaction(async (tx) => {
        await writeAudit(tx, audit, {
          action: 'chat.exported',
          entity: 'chat_channel',
          entityId: channel.url,
          after: { startTime: input.startTime, endTime: input.endTime, messages: records.length, as: isMember ? 'member' : 'compliance' },
        });
      });
      const stamp = now().toISOString().slice(0, 10);
      return { fileName: `chat-${channel.url}-${stamp}.txt`, text: `${lines.join('\n')}\n` };
    },

    // ---- for the socket gateway ---------------------------------------------------------------------
    membershipsOf: (userId: string) => repo.membershipsOf(database, userId),
    messagesAfter: async (channelId: string, after: number, limit: number, upTo?: number) =>
      (await repo.messagesAfter(database, channelId, after, limit, upTo)).map((r) => messageView(r, productName)),
    channelHeads: (channelIds: readonly string[]) => repo.channelHeads(database, channelIds),
    /** Messages changed (edited, deleted) after `after` up to `upTo`, in change order, with their change sequence. */
    changedAfter: async (channelId: string, input: { after: number; upTo: number; maxPosition?: number; limit: number }) =>
      (await repo.messagesChangedAfter(database, channelId, input)).map((r) => ({
        changeSeq: r.changeSeq,
        message: messageView(r, productName),
      })),
    /** The channel as `viewerId` sees it now, or null when they are not (any longer) a visible member. */
    async channelViewOf(channelId: string, viewerId: string): Promise<Channel | null> {
      const rows = await repo.channelsByIds(db, [channelId]);
      if (rows.length === 0) return null;
      const base = (await basesOf(db, rows)).get(channelId)!;
      return channelFor(base, viewerId, await onlineOf([base]), productName);
    },
    /**
     * Where a socket starts live delivery of a channel it had not seen (joined after auth): the
     * membership's position and the channel's change sequence now; null when the user is not a member.
     */
    async baseline(channelId: string, userId: string): Promise<{ position: number; changeSeq: number } | null> {
      const member: MemberRow | undefined = await repo.member(db, channelId, userId);
      if (!member || member.leftAt || member.hidden) return null;
      const heads = await repo.channelHeads(database, [channelId]);
      return { position: member.joinedPosition, changeSeq: heads.get(channelId)?.changeSeq ?? 0 };
    },
    channelView: (base: ChannelBase, viewerId: string, online: ReadonlySet<string>) => channelFor(base, viewerId, online, productName),
    onlineOf,
  };
}
export type ChatService = ReturnType<typeof createChatService>;
