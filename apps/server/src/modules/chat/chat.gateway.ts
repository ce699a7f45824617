/**
 * The chat socket at `CHAT_PATH` (protocol in packages/contracts/src/chat.ts). The upgrade is
 * public; the first message must be `auth` with a chat session token within 4 s (bad or expired
 * token → 4401, revoked session or inactive user → 4403).
 *
 * Delivery is exactly once and in order per channel per connection: each connection remembers the
 * last position it delivered per channel, drops what is at or below it, and when a position skips
 * ahead (two nodes published out of order, or a publish was lost) reads the missing range from the
 * database before going on. Edits and deletes are handled the same way by their change sequence.
 * Every connection handles its events one after the other (a promise chain), so a read from the
 * database never lets a later event overtake. A sweep every 2 s catches channels whose newest message
 * or change never arrived on the bus.
 *
 * Frames from the client that act (`send`, `typing`, `read`, `delivered`) run one after the other in
 * arrival order on a second per-connection chain (`inbound`), so one socket's sends are stored, and
 * so delivered and replayed, in send order; a receipt or a typing change never overtakes the send
 * before it. Only `ping` (no effect) is answered at once. The two chains are independent: a slow
 * send does not hold back live delivery. More than `INBOUND_QUEUE_MAX` frames waiting → close 1013.
 *
 * The per-user socket cap is a slot reserved in one atomic step after the token check (see
 * lib/connection-cap.ts): per user per cluster with Redis, per node without; over it → 1008. Redis or
 * the database unreachable at auth → 1013 (try again later), not 4401: the token is not the problem.
 */
import {
  CHAT_CLOSE,
  CHAT_LIMITS,
  CHAT_PATH,
  CHAT_PROTOCOL_VERSION,
  ChatClientMessageSchema,
  firstErrorMessage,
  isViewOnly,
  type Channel,
  type ChatMessage,
  type ChatServerMessage,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { isDatabaseUnavailable } from '../../db/client';
import { ConnectionCapUnavailable, type SlotRelease } from '../../lib/connection-cap';
import { AppError } from '../../lib/errors';
import { safeParseJsonFrame } from '../../lib/strict-json';
import type { ChatActor } from './chat.repository';
import {
  CHAT_TOPICS,
  type ChatChannelEvent,
  type ChatMessageEvent,
  type ChatPresenceEvent,
  type ChatReceiptEvent,
  type ChatService,
  type ChatTypingEvent,
} from './chat.service';

/** Frames a socket may send per second before it is closed 1008 (typing, receipts and sends together). */
const FRAMES_PER_SECOND = 30;
const CONNECTIONS_PER_USER = 10;
const AUTH_TIMEOUT_MS = 4000;
/** A socket that does not read (this much queued) is closed 1013 rather than growing memory. */
const SLOW_CONSUMER_BYTES = 8 * 1024 * 1024;
const SWEEP_INTERVAL_MS = 2000;
/**
 * Acting frames a connection may have waiting behind the one being processed. At 30 frames/s this is
 * reached only when the database stalls for seconds; the client reconnects and resends by reqId.
 */
const INBOUND_QUEUE_MAX = 100;
/**
 * Sockets authenticating and replaying at once, per node. A burst of reconnects (a network blip, a
 * deploy) then queues here instead of in front of every live send's database call. The embedded
 * database runs one query at a time inside this process, so there one resume at a time keeps live
 * delivery flowing (bench/chat: the disconnect-phase p99 fell from 283 ms to 30 ms, every resume
 * still done within 1.3 s); PostgreSQL's pool serves several at once.
 */
const RESUMES_AT_ONCE = { pglite: 1, postgres: 4 } as const;

/** A counting semaphore: `acquire` resolves with a release function (safe to call twice). */
function createGate(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    acquire(): Promise<() => void> {
      return new Promise((resolve) => {
        const grant = () => {
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            release();
          });
        };
        if (active < limit) {
          active++;
          grant();
        } else waiting.push(grant);
      });
    },
  };
}

interface ChannelCursor {
  url: string;
  /** Highest position delivered on this connection. */
  last: number;
  /** A position the sweep saw in the database that was not delivered yet. */
  lagTarget?: number;
  /** Highest change sequence (edits, deletes) delivered on this connection, or held by the client. */
  changes: number;
  /** A change sequence the sweep saw in the database that was not delivered yet. */
  changeLagTarget?: number;
}

interface Connection {
  socket: WebSocket;
  actor: ChatActor;
  sessionId: string;
  authSessionId: string | null;
  channels: Map<string, ChannelCursor>;
  pending: number;
  tail: Promise<void>;
  /** The client's acting frames, processed in arrival order (see the header). */
  inbound: Promise<void>;
  inboundPending: number;
  typing: Map<string, NodeJS.Timeout>;
}

export function registerChatGateway(app: FastifyInstance, chat: ChatService): void {
  const { bus } = app.deps;
  const byUser = new Map<string, Set<Connection>>();
  const frames = new WeakMap<object, string>();
  const resumeGate = createGate(RESUMES_AT_ONCE[app.deps.database.driver]);
  /** The newest presence change relayed per user: an older one arriving late (another node published it) is dropped. */
  const presenceSeen = new Map<string, number>();

  const sendRaw = (connection: Connection | { socket: WebSocket }, frame: string) => {
    const socket = connection.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > SLOW_CONSUMER_BYTES) {
      socket.close(CHAT_CLOSE.tryAgainLater, 'Too slow');
      return;
    }
    socket.send(frame);
  };
  const send = (connection: Connection | { socket: WebSocket }, message: ChatServerMessage) => sendRaw(connection, JSON.stringify(message));

  /** Runs `task` after everything queued on the connection; synchronously when nothing is queued. */
  function dispatch(connection: Connection, task: () => void | Promise<void>) {
    const onError = (error: unknown) => app.log.warn({ err: { message: (error as Error).message } }, 'chat delivery failed');
    if (connection.pending === 0) {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (error) {
        onError(error);
        return;
      }
      if (!(result instanceof Promise)) return;
      connection.pending++;
      connection.tail = result.catch(onError).finally(() => {
        connection.pending--;
      });
      return;
    }
    connection.pending++;
    connection.tail = connection.tail
      .then(task)
      .catch(onError)
      .finally(() => {
        connection.pending--;
      });
  }

  /** Runs an acting frame of the client after the ones before it (arrival order). */
  function enqueue(connection: Connection, task: () => Promise<void>) {
    if (connection.inboundPending >= INBOUND_QUEUE_MAX) {
      connection.socket.close(CHAT_CLOSE.tryAgainLater, 'Too many pending messages');
      return;
    }
    connection.inboundPending++;
    connection.inbound = connection.inbound
      .then(task)
      .catch((error: unknown) => app.log.warn({ err: { message: (error as Error).message } }, 'chat frame failed'))
      .finally(() => {
        connection.inboundPending--;
      });
  }

  const messageFrame = (event: ChatMessageEvent) => {
    let frame = frames.get(event);
    if (frame === undefined) {
      frame = JSON.stringify({ type: 'message', channel_url: event.channel_url, position: event.position, message: event.message });
      frames.set(event, frame);
    }
    return frame;
  };

  /** Delivers everything after `cursor.last` up to `upTo` from the database (or `resync` when too much). */
  async function fill(connection: Connection, channelId: string, cursor: ChannelCursor, upTo: number) {
    if (upTo <= cursor.last) return;
    const rows = await chat.messagesAfter(channelId, cursor.last, CHAT_LIMITS.resumeLimitPerChannel + 1, upTo);
    if (rows.length > CHAT_LIMITS.resumeLimitPerChannel) {
      send(connection, { type: 'resync', channel_url: cursor.url });
      cursor.last = upTo;
      return;
    }
    for (const message of rows) {
      if (message.position !== cursor.last + 1) break;
      send(connection, { type: 'message', channel_url: cursor.url, position: message.position, message });
      cursor.last = message.position;
    }
  }

  /** An edit or delete as the live `message_updated` / `message_deleted` frame carries it (replays, fills). */
  const changeFrame = (url: string, channel: Channel | null, changeSeq: number, message: ChatMessage): ChatServerMessage => ({
    type: 'channel',
    event: message.deletedAt ? 'message_deleted' : 'message_updated',
    channel_url: url,
    channel,
    actor: message.sender ? { userId: message.sender.userId, nickname: message.sender.nickname } : null,
    target_user_ids: [],
    message,
    change_seq: changeSeq,
  });

  /**
   * Delivers the messages changed after `cursor.changes` up to `upTo`, as they are now, in change order
   * (`channel` = the receiver's view, read when not given); positions above `maxPosition` are left out
   * (they come as messages). Too many → `resync`, and true.
   */
  async function fillChanges(
    connection: Connection,
    channelId: string,
    cursor: ChannelCursor,
    upTo: number,
    channel?: Channel | null,
    maxPosition?: number,
  ): Promise<boolean> {
    if (upTo <= cursor.changes) return false;
    const limit = CHAT_LIMITS.resumeLimitPerChannel;
    const rows = await chat.changedAfter(channelId, {
      after: cursor.changes,
      upTo,
      limit: limit + 1,
      ...(maxPosition === undefined ? {} : { maxPosition }),
    });
    cursor.changes = upTo;
    if (rows.length > limit) {
      send(connection, { type: 'resync', channel_url: cursor.url });
      return true;
    }
    if (rows.length === 0) return false;
    const view = channel === undefined ? await chat.channelViewOf(channelId, connection.actor.userId) : channel;
    if (view === null) return false; // no longer a member
    for (const row of rows) send(connection, changeFrame(cursor.url, view, row.changeSeq, row.message));
    return false;
  }

  function onMessage(connection: Connection, event: ChatMessageEvent): void | Promise<void> {
    const cursor = connection.channels.get(event.channel_id);
    const deliver = (c: ChannelCursor): void | Promise<void> => {
      if (event.position <= c.last) return;
      if (event.position === c.last + 1) {
        sendRaw(connection, messageFrame(event));
        c.last = event.position;
        return;
      }
      return fill(connection, event.channel_id, c, event.position);
    };
    if (cursor) return deliver(cursor);
    // A channel this connection has not seen yet (joined after auth): start from the membership.
    return (async () => {
      const baseline = await chat.baseline(event.channel_id, connection.actor.userId);
      if (baseline === null) return;
      const known = connection.channels.get(event.channel_id);
      const c = known ?? { url: event.channel_url, last: baseline.position, changes: baseline.changeSeq };
      connection.channels.set(event.channel_id, c);
      await deliver(c);
    })();
  }

  async function onChannel(connection: Connection, event: ChatChannelEvent, online: Promise<Set<string>>) {
    const userId = connection.actor.userId;
    const removed = event.removed.includes(userId);
    const known = connection.channels.get(event.channel_id);
    if (removed) {
      connection.channels.delete(event.channel_id);
      const timer = connection.typing.get(event.channel_url);
      if (timer) clearTimeout(timer);
      connection.typing.delete(event.channel_url);
    } else if (!known)
      connection.channels.set(event.channel_id, { url: event.channel_url, last: event.base.lastPosition, changes: event.base.changeSeq });
    const channel = removed ? null : chat.channelView(event.base, userId, await online);
    if (known && !removed && event.change_seq !== undefined) {
      // Edits and deletes, like positions: once and in order; a gap (a lost or overtaken publish) is read from the database.
      if (event.change_seq <= known.changes) return;
      if (event.change_seq > known.changes + 1) {
        await fillChanges(connection, event.channel_id, known, event.change_seq, channel);
        return;
      }
      known.changes = event.change_seq;
    }
    send(connection, {
      type: 'channel',
      event: event.event,
      channel_url: event.channel_url,
      channel,
      actor: event.actor,
      target_user_ids: event.target_user_ids,
      message: event.message,
      ...(event.change_seq === undefined ? {} : { change_seq: event.change_seq }),
    });
  }

  const connectionsOf = (userIds: readonly string[]) => userIds.flatMap((id) => [...(byUser.get(id) ?? [])]);

  const unsubscribe = bus.subscribe((message) => {
    const topic = message.topic;
    if (!topic.startsWith('chat.') && !topic.startsWith('auth.')) return;
    const payload = message.payload as Record<string, unknown>;
    switch (topic) {
      case CHAT_TOPICS.message: {
        const event = payload as unknown as ChatMessageEvent;
        for (const connection of connectionsOf(event.recipients)) dispatch(connection, () => onMessage(connection, event));
        return;
      }
      case CHAT_TOPICS.channel: {
        const event = payload as unknown as ChatChannelEvent;
        const targets = connectionsOf(event.recipients);
        if (targets.length === 0) return;
        const online = chat.onlineOf([event.base]);
        online.catch(() => undefined);
        for (const connection of targets) dispatch(connection, () => onChannel(connection, event, online));
        return;
      }
      case CHAT_TOPICS.receipt: {
        const event = payload as unknown as ChatReceiptEvent;
        const frame = JSON.stringify({
          type: 'receipt',
          channel_url: event.channel_url,
          user_id: event.user_id,
          read_position: event.read_position,
          delivered_position: event.delivered_position,
        } satisfies ChatServerMessage);
        for (const connection of connectionsOf(event.recipients)) dispatch(connection, () => sendRaw(connection, frame));
        return;
      }
      case CHAT_TOPICS.typing: {
        const event = payload as unknown as ChatTypingEvent;
        const frame = JSON.stringify({
          type: 'typing',
          channel_url: event.channel_url,
          user_id: event.user_id,
          nickname: event.nickname,
          typing: event.typing,
        } satisfies ChatServerMessage);
        for (const connection of connectionsOf(event.recipients)) dispatch(connection, () => sendRaw(connection, frame));
        return;
      }
      case CHAT_TOPICS.presence: {
        const event = payload as unknown as ChatPresenceEvent;
        if (event.seq <= (presenceSeen.get(event.user_id) ?? 0)) return;
        if (presenceSeen.size > 100_000) presenceSeen.clear();
        presenceSeen.set(event.user_id, event.seq);
        const frame = JSON.stringify({
          type: 'presence',
          user_id: event.user_id,
          connection_status: event.connection_status,
        } satisfies ChatServerMessage);
        for (const connection of connectionsOf(event.recipients)) dispatch(connection, () => sendRaw(connection, frame));
        return;
      }
      case CHAT_TOPICS.sessionRevoked:
        for (const connection of connectionsOf([String(payload.userId)])) connection.socket.close(CHAT_CLOSE.sessionEnded, 'Session ended');
        return;
      case 'auth.session_revoked':
        for (const set of byUser.values())
          for (const connection of set)
            if (connection.authSessionId && connection.authSessionId === payload.sessionId)
              connection.socket.close(CHAT_CLOSE.sessionEnded, 'Session ended');
        return;
      case CHAT_TOPICS.userChanged:
      case 'auth.user_changed':
        // Password change, deactivation, role or terms change: re-check the session, then refresh the actor.
        for (const connection of connectionsOf([String(payload.userId)]))
          void Promise.all([chat.sessionActive(connection.sessionId), chat.loadActor(connection.actor.userId)])
            .then(([active, actor]) => {
              if (!active || !actor || !actor.isActive) connection.socket.close(CHAT_CLOSE.sessionEnded, 'Session ended');
              else connection.actor = actor;
            })
            .catch(() => undefined);
        return;
      default:
        return;
    }
  });

  // Lost publishes: a channel whose newest position (or change) stays undelivered for a whole sweep is filled from the database.
  const sweep = setInterval(() => {
    const ids = new Set<string>();
    for (const set of byUser.values()) for (const connection of set) for (const id of connection.channels.keys()) ids.add(id);
    if (ids.size === 0) return;
    chat
      .channelHeads([...ids])
      .then((heads) => {
        for (const set of byUser.values())
          for (const connection of set)
            for (const [id, cursor] of connection.channels) {
              const latest = heads.get(id)?.lastPosition ?? 0;
              if (cursor.lagTarget !== undefined && cursor.last < cursor.lagTarget) {
                const target = latest;
                cursor.lagTarget = undefined;
                dispatch(connection, () => fill(connection, id, cursor, target));
              } else cursor.lagTarget = latest > cursor.last ? latest : undefined;
              const latestChange = heads.get(id)?.changeSeq ?? 0;
              if (cursor.changeLagTarget !== undefined && cursor.changes < cursor.changeLagTarget) {
                const target = latestChange;
                cursor.changeLagTarget = undefined;
                dispatch(connection, async () => {
                  await fillChanges(connection, id, cursor, target);
                });
              } else cursor.changeLagTarget = latestChange > cursor.changes ? latestChange : undefined;
            }
      })
      .catch(() => undefined);
  }, SWEEP_INTERVAL_MS);
  sweep.unref();

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    unsubscribe();
    for (const set of byUser.values()) for (const connection of set) connection.socket.close(CHAT_CLOSE.goingAway, 'Server shutting down');
  });

  app.get(CHAT_PATH, { websocket: true, config: { policy: { kind: 'public' } }, schema: { hide: true } }, (socket, request) => {
    let connection: Connection | null = null;
    let authenticating = false;
    /** This socket's place under the per-user cap, held from the check until the socket closes. */
    let slot: SlotRelease | null = null;
    let windowStart = Date.now();
    let windowCount = 0;
    const authTimer = setTimeout(() => socket.close(CHAT_CLOSE.tokenInvalid, 'Authentication timed out'), AUTH_TIMEOUT_MS);
    const plain = { socket };

    const refuse = (error: unknown, reqId?: string) => {
      const code = error instanceof AppError ? error.code : 'INTERNAL';
      const text =
        error instanceof AppError
          ? firstErrorMessage({ code: error.code, message: error.message, ...(error.fieldErrors ? { errors: error.fieldErrors } : {}) })
          : 'Internal Server Error';
      if (!(error instanceof AppError)) request.log.error({ err: error }, 'chat socket handler failed');
      const retryAfter = error instanceof AppError ? Number(error.headers?.['retry-after']) : NaN;
      if (reqId !== undefined)
        send(plain, { type: 'nack', reqId, code, message: text, ...(Number.isInteger(retryAfter) ? { retry_after: retryAfter } : {}) });
      else send(plain, { type: 'error', code, message: text });
    };

    const stopTyping = (url: string) => {
      const timer = connection?.typing.get(url);
      if (!timer || !connection) return;
      clearTimeout(timer);
      connection.typing.delete(url);
      chat.typing(connection.actor, url, false).catch(() => undefined);
    };

    // Listeners are attached synchronously so no early message is lost.
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        windowCount = 0;
      }
      if (++windowCount > FRAMES_PER_SECOND) {
        socket.close(CHAT_CLOSE.policyViolation, 'Too many messages');
        return;
      }
      let parsed;
      try {
        parsed = isBinary ? null : safeParseJsonFrame(ChatClientMessageSchema, raw.toString());
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        const reqId = (() => {
          try {
            const value = (JSON.parse(raw.toString()) as { type?: unknown; reqId?: unknown }) ?? {};
            return value.type === 'send' && typeof value.reqId === 'string' ? value.reqId : undefined;
          } catch {
            return undefined;
          }
        })();
        const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
        const text = issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'Unrecognised message.';
        if (reqId !== undefined) send(plain, { type: 'nack', reqId, code: 'VALIDATION_FAILED', message: text });
        else send(plain, { type: 'error', code: 'BAD_MESSAGE', message: text });
        return;
      }
      const message = parsed.data;
      if (message.type === 'ping') {
        send(plain, { type: 'pong' });
        return;
      }
      if (message.type === 'auth') {
        if (connection || authenticating) {
          send(plain, { type: 'error', code: 'ALREADY_AUTHENTICATED', message: 'Already authenticated.' });
          return;
        }
        authenticating = true;
        clearTimeout(authTimer);
        let release = () => {};
        void (async () => {
          release = await resumeGate.acquire();
          const result = await chat.authenticateToken(message.token);
          if (!result.ok) {
            request.log.info({ reason: result.reason }, 'chat socket authentication refused');
            socket.close(result.reason === 'invalid' ? CHAT_CLOSE.tokenInvalid : CHAT_CLOSE.sessionEnded, 'Authentication failed');
            return;
          }
          if (socket.readyState !== socket.OPEN) return;
          const userId = result.actor.userId;
          // Check and count in one step (atomic per node, and across nodes with Redis).
          const reserved = await chat.connections.reserve(userId, CONNECTIONS_PER_USER);
          if (!reserved) {
            socket.close(CHAT_CLOSE.policyViolation, 'Too many connections');
            return;
          }
          if (socket.readyState !== socket.OPEN) {
            reserved(); // closed while the slot was being reserved: its close handler has run already
            return;
          }
          slot = reserved;
          const mine = byUser.get(userId) ?? new Set<Connection>();
          const current: Connection = {
            socket,
            actor: result.actor,
            sessionId: result.sessionId,
            authSessionId: result.authSessionId,
            channels: new Map(),
            pending: 0,
            tail: Promise.resolve(),
            inbound: Promise.resolve(),
            inboundPending: 0,
            typing: new Map(),
          };
          // Registered before reading the database: live events from now on queue behind the replay.
          mine.add(current);
          byUser.set(userId, mine);
          connection = current;
          chat.presence.connected(userId);
          send(current, { type: 'auth_ok', version: CHAT_PROTOCOL_VERSION, user_id: userId });
          dispatch(current, async () => {
            try {
              const memberships = await chat.membershipsOf(userId);
              for (const m of memberships) current.channels.set(m.id, { url: m.url, last: m.lastPosition, changes: m.changeSeq });
              // Resume: only channels the user belongs to; replay strictly after the cursor, in order.
              for (const m of memberships) {
                const held = message.cursors[m.url];
                if (held === undefined) continue;
                const position = typeof held === 'number' ? held : held.position;
                const changes = typeof held === 'number' ? undefined : held.change_seq;
                const state = current.channels.get(m.id)!;
                // First the edits and deletes of the messages the client holds (later ones come as they are now).
                if (changes !== undefined && changes < m.changeSeq) {
                  state.changes = changes;
                  const resynced = await fillChanges(current, m.id, state, m.changeSeq, undefined, Math.min(position, m.lastPosition));
                  if (resynced) continue; // the client reloads the channel
                }
                if (position >= m.lastPosition) continue;
                state.last = position;
                await fill(current, m.id, state, m.lastPosition);
              }
              send(current, { type: 'resumed' });
            } finally {
              release();
            }
          });
        })()
          .catch((error: unknown) => {
            if (error instanceof ConnectionCapUnavailable || isDatabaseUnavailable(error)) {
              request.log.warn({ err: { message: (error as Error).message } }, 'chat socket refused: a dependency is unavailable');
              socket.close(CHAT_CLOSE.tryAgainLater, 'Service temporarily unavailable');
              return;
            }
            request.log.warn({ err: { message: (error as Error).message } }, 'chat socket authentication failed');
            socket.close(CHAT_CLOSE.tokenInvalid, 'Authentication failed');
          })
          // Every path that does not hand the gate to the replay (refused, closed, failed) gives it back here.
          .finally(() => {
            if (connection === null) release();
          });
        return;
      }
      const current = connection;
      if (!current) {
        send(plain, { type: 'error', code: 'UNAUTHENTICATED', message: 'Authenticate first.' });
        return;
      }
      // Everything below acts: it runs after the frames before it (see the header).
      enqueue(current, async () => {
        const actor = current.actor; // read when the frame runs: a role change in between applies
        switch (message.type) {
          case 'send': {
            if (isViewOnly(actor)) {
              send(current, {
                type: 'nack',
                reqId: message.reqId,
                code: 'VIEW_ONLY',
                message: 'Your role is view-only and cannot make changes.',
              });
              return;
            }
            stopTyping(message.channel_url);
            try {
              const { message: stored } = await chat.sendMessage(actor, message.channel_url, {
                reqId: message.reqId,
                message: message.message,
                data: message.data,
                customType: message.customType,
              });
              send(current, { type: 'ack', reqId: message.reqId, message: stored });
            } catch (error) {
              refuse(error, message.reqId);
            }
            return;
          }
          case 'typing': {
            if (!message.typing) {
              stopTyping(message.channel_url);
              return;
            }
            const existing = current.typing.get(message.channel_url);
            if (existing) clearTimeout(existing);
            current.typing.set(
              message.channel_url,
              setTimeout(() => stopTyping(message.channel_url), CHAT_LIMITS.typingTimeoutMs),
            );
            // Only the start is published; refreshes within the timeout just extend it.
            if (!existing) await chat.typing(actor, message.channel_url, true).catch((error: unknown) => refuse(error));
            return;
          }
          case 'read':
            await chat.markRead(actor, message.channel_url, message.position).catch((error: unknown) => refuse(error));
            return;
          case 'delivered':
            await chat.markDelivered(actor, message.channel_url, message.position).catch((error: unknown) => refuse(error));
            return;
          default:
            return;
        }
      });
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      slot?.();
      if (!connection) return;
      // Deleting the current entry while iterating a Map is safe.
      for (const url of connection.typing.keys()) stopTyping(url);
      const set = byUser.get(connection.actor.userId);
      set?.delete(connection);
      if (set && set.size === 0) byUser.delete(connection.actor.userId);
      chat.presence.disconnected(connection.actor.userId);
    });
    // Socket errors (an oversize frame, a dropped peer) go to `handleWebSocketError` (plugins/ws-heartbeat.ts).
  });
}
