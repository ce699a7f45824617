/**
 * The chat socket client (`CHAT_PATH`) with the connection rules of spec trading §4, §8 and §9:
 *
 * - The first message authenticates with a chat session token from the injected `getToken()` (never
 *   the access token) and carries, per channel, the last position this client holds and, once known,
 *   the change sequence up to which it holds every edit and delete (`cursors`), so the server replays
 *   exactly what was missed: the changes, then the new messages. A message at or below its channel's
 *   position cursor, and an edit or delete at or below its change cursor, is ignored: each reaches
 *   the app once, in order.
 * - Ping every 10 s; offline after 30 s without any frame; reconnect after 1 s growing ×1.3 up to
 *   10 s (with jitter); connection timeout 4 s (no `auth_ok` by then → drop and retry).
 * - States: connected, disconnected, reconnect started, reconnect succeeded, reconnect failed. A
 *   reconnect failure makes the next attempt a new connect with a fresh session token.
 * - Close 1013 (a server dependency is down, or the socket fell behind) and 1008 (over the socket cap)
 *   reconnect with the usual back-off.
 * - Close 4401 (token invalid or expired): fetch a new token and reconnect. Close 4403 (session
 *   revoked, user deactivated, deleted or not found): emit `cleared` and stop, so the app clears
 *   its chat cache and state.
 * - `send` matches the server's `ack`/`nack` by `reqId`; `markDelivered` is throttled to one frame
 *   per channel per 1000 ms (the latest position wins); `typing` and `markRead` are fire-and-forget.
 */
import {
  CHAT_CLOSE,
  CHAT_LIMITS,
  ChatServerMessageSchema,
  type ChatClientMessage,
  type ChatCursor,
  type ChatMessage,
  type ChatServerMessage,
} from '@dart/contracts';
import { getReconnectDelay, LIVE_TIMINGS, type LiveTimings } from './live';

/** Spec §4 states, plus `connecting` (the first attempt) and `stopped` (after `stop()` or `cleared`). */
export type ChatConnectionState =
  'connecting' | 'connected' | 'disconnected' | 'reconnect-started' | 'reconnect-succeeded' | 'reconnect-failed' | 'stopped';

/** The subset of the WebSocket API used (the browser's, or `ws` in Node); `close` reports its code. */
export interface ChatSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type ChatSocketFactory = (url: string) => ChatSocketLike;

export interface ChatTimings extends LiveTimings {
  /** Per channel: at most one `delivered` frame per this many milliseconds. */
  markDeliveredThrottleMs: number;
  /** A `send` without `ack`/`nack` by then is rejected with code `TIMEOUT`. */
  sendTimeoutMs: number;
}
export const CHAT_TIMINGS: ChatTimings = {
  ...LIVE_TIMINGS,
  markDeliveredThrottleMs: CHAT_LIMITS.markDeliveredThrottleMs,
  sendTimeoutMs: 10_000,
};

type ServerMessage<T extends ChatServerMessage['type']> = Extract<ChatServerMessage, { type: T }>;

/** What the client reports. `message` events are de-duplicated by the channel cursors. */
export interface ChatClientEvents {
  state: ChatConnectionState;
  message: ServerMessage<'message'>;
  channel: ServerMessage<'channel'>;
  receipt: ServerMessage<'receipt'>;
  typing: ServerMessage<'typing'>;
  /** A member of the client's channels came online or went offline (their `connectionStatus`). */
  presence: ServerMessage<'presence'>;
  /** More was missed than the server replays: reload the channel's latest page, then `setCursor`. */
  resync: ServerMessage<'resync'>;
  /** The replay after (re)connecting is complete; live messages follow. */
  resumed: ServerMessage<'resumed'>;
  error: ServerMessage<'error'>;
  /** Close 4403: the session is over for good; clear the chat cache and state. */
  cleared: { code: number };
}
export type ChatClientEventName = keyof ChatClientEvents;

/**
 * A refused or unconfirmed `send`: `code` is the server's (nack) or NOT_CONNECTED / DISCONNECTED / TIMEOUT / STOPPED.
 * SERVICE_UNAVAILABLE (a server dependency is down; nothing was stored) comes with `retryAfterSeconds`: send
 * again with the same reqId after it (the REST call is idempotent by reqId too). RATE_LIMITED means "too fast".
 */
export class ChatSendError extends Error {
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ChatSendError';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ChatSendInput {
  /** Idempotency key; generated when absent. A REST retry with the same reqId stores one message. */
  reqId?: string;
  message: string;
  data?: Record<string, unknown>;
  customType?: string | null;
}

export interface ChatClientOptions {
  /** ws:// or wss:// URL of `CHAT_PATH`. */
  url: string;
  /**
   * A chat session token (`POST /api/issue-sb-session-token`). Called for the first connect and
   * again whenever a fresh one is needed (close 4401, a failed reconnect); otherwise reused.
   */
  getToken: () => Promise<string>;
  /** Positions the app already holds (channel url → last position), e.g. from a REST load. */
  cursors?: Record<string, number>;
  /** Change sequences the app already holds (channel url → `MessageList.change_seq` of its loaded pages). */
  changeCursors?: Record<string, number>;
  createSocket?: ChatSocketFactory;
  timings?: Partial<ChatTimings>;
  /** Jitter source (tests pass a fixed one). */
  random?: () => number;
  /** reqId generator; default `crypto.randomUUID`. */
  createReqId?: () => string;
}

export interface ChatClient {
  readonly state: ChatConnectionState;
  /** True while authenticated on an open socket. */
  readonly isConnected: boolean;
  on<E extends ChatClientEventName>(event: E, listener: (payload: ChatClientEvents[E]) => void): () => void;
  /** Sends a user message over the socket; resolves with the stored message on `ack`. */
  send(channelUrl: string, input: ChatSendInput): Promise<ChatMessage>;
  /** Marks messages up to `position` read; false when not connected (use the REST call then). */
  markRead(channelUrl: string, position: number): boolean;
  /** Throttled to one frame per channel per `markDeliveredThrottleMs`; the highest position wins. */
  markDelivered(channelUrl: string, position: number): void;
  typing(channelUrl: string, typing: boolean): void;
  /** Raises a channel's cursor (never lowers it): the app holds everything up to `position`. */
  setCursor(channelUrl: string, position: number): void;
  getCursor(channelUrl: string): number | undefined;
  /**
   * Raises a channel's change cursor (never lowers it): the app holds every edit and delete of the
   * channel's messages up to `changeSeq` (the lowest `change_seq` of the message pages it holds).
   */
  setChangeCursor(channelUrl: string, changeSeq: number): void;
  getChangeCursor(channelUrl: string): number | undefined;
  /** Forgets a channel (left, declined, banned): it is not resumed any more. */
  forgetChannel(channelUrl: string): void;
  /** When not connected: cancel the back-off wait and try now (e.g. the browser came back online). */
  reconnectNow(): void;
  stop(): void;
}

const OPEN = 1;

function defaultReqId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID ? c.randomUUID() : `req-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  const timings: ChatTimings = { ...CHAT_TIMINGS, ...options.timings };
  const random = options.random ?? Math.random;
  const createReqId = options.createReqId ?? defaultReqId;
  const createSocket: ChatSocketFactory =
    options.createSocket ?? ((url) => new (globalThis as unknown as { WebSocket: new (u: string) => ChatSocketLike }).WebSocket(url));

  const cursors = new Map<string, number>(Object.entries(options.cursors ?? {}));
  const changeCursors = new Map<string, number>(Object.entries(options.changeCursors ?? {}));
  /** What the client holds of each channel, for `auth` (a bare position when no change cursor is known). */
  const heldCursors = (): Record<string, ChatCursor> =>
    Object.fromEntries(
      [...cursors].map(([url, position]) => {
        const changeSeq = changeCursors.get(url);
        return [url, changeSeq === undefined ? position : { position, change_seq: changeSeq }];
      }),
    );
  const listeners = new Map<ChatClientEventName, Set<(payload: never) => void>>();
  const pending = new Map<
    string,
    { resolve: (m: ChatMessage) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }
  >();
  const delivered = new Map<string, { lastSentAt: number; position: number; timer: ReturnType<typeof setTimeout> | null }>();

  let state: ChatConnectionState = 'connecting';
  let socket: ChatSocketLike | null = null;
  let authenticated = false;
  let token: string | null = null;
  let hasConnected = false;
  let attempt = 0;
  let connectInFlight = false;
  let stopped = false;
  let lastHeard = Date.now();
  const timers = {
    reconnect: null as ReturnType<typeof setTimeout> | null,
    connect: null as ReturnType<typeof setTimeout> | null,
    ping: null as ReturnType<typeof setInterval> | null,
    watchdog: null as ReturnType<typeof setInterval> | null,
  };

  function emit<E extends ChatClientEventName>(event: E, payload: ChatClientEvents[E]) {
    for (const listener of listeners.get(event) ?? []) {
      try {
        (listener as (p: ChatClientEvents[E]) => void)(payload);
      } catch {
        // A failing listener must not break the socket loop.
      }
    }
  }
  function setState(next: ChatConnectionState) {
    if (state === next) return;
    state = next;
    emit('state', next);
  }
  function clearTimers() {
    if (timers.connect) clearTimeout(timers.connect);
    if (timers.ping) clearInterval(timers.ping);
    if (timers.watchdog) clearInterval(timers.watchdog);
    timers.connect = timers.ping = timers.watchdog = null;
  }
  function write(message: ChatClientMessage): boolean {
    if (!socket || !authenticated || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }
  function rejectPending(code: string, text: string) {
    for (const [reqId, entry] of pending) {
      clearTimeout(entry.timer);
      entry.reject(new ChatSendError(code, text));
      pending.delete(reqId);
    }
  }

  /** Ends the current socket; `next` says what follows: a reconnect (with a fresh token or not), or nothing. */
  function drop(next: { reconnect: boolean; freshToken?: boolean; immediate?: boolean }) {
    clearTimers();
    const current = socket;
    const wasAuthenticated = authenticated;
    socket = null;
    authenticated = false;
    if (current) {
      // Its listeners see `socket !== current` from now on and do nothing.
      try {
        current.close(1000, 'reconnecting');
      } catch {
        // already closed
      }
    }
    // The server may or may not have stored an unacknowledged send: the caller retries by reqId.
    rejectPending('DISCONNECTED', 'The chat connection was lost before the message was confirmed.');
    if (stopped || !next.reconnect) return;
    if (next.freshToken) token = null;
    if (wasAuthenticated) setState('disconnected');
    else if (hasConnected || state === 'reconnect-started') {
      // A reconnect attempt failed: the next one is a new connect with a fresh session token (spec §4).
      setState('reconnect-failed');
      token = null;
    } else setState('disconnected');
    // 4401: the first retry goes at once with a new token; repeated refusals back off like any failure.
    const delay = next.immediate && attempt === 0 ? 0 : getReconnectDelay(attempt, timings, random);
    attempt++;
    timers.reconnect = setTimeout(() => void connect(), delay);
  }

  async function connect() {
    timers.reconnect = null;
    if (stopped) return;
    const reconnecting = hasConnected || state !== 'connecting';
    if (reconnecting) setState('reconnect-started');
    if (!token) {
      connectInFlight = true;
      try {
        token = await options.getToken();
      } catch {
        token = null;
      } finally {
        connectInFlight = false;
      }
    }
    if (stopped || socket) return;
    if (!token) return drop({ reconnect: true });
    const authToken = token;
    let ws: ChatSocketLike;
    try {
      ws = createSocket(options.url);
    } catch {
      return drop({ reconnect: true });
    }
    socket = ws;
    lastHeard = Date.now();
    // Connection timeout: authenticated within 4 s, or drop and retry.
    timers.connect = setTimeout(() => socket === ws && drop({ reconnect: true }), timings.connectionTimeoutMs);
    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      ws.send(JSON.stringify({ type: 'auth', token: authToken, cursors: heldCursors() } satisfies ChatClientMessage));
    });
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      lastHeard = Date.now();
      let parsed;
      try {
        parsed = ChatServerMessageSchema.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (parsed.success) handle(parsed.data, reconnecting);
    });
    ws.addEventListener('close', (event) => {
      if (socket !== ws) return;
      if (event.code === CHAT_CLOSE.sessionEnded) {
        drop({ reconnect: false });
        stopped = true;
        setState('stopped');
        emit('cleared', { code: event.code });
        return;
      }
      if (event.code === CHAT_CLOSE.tokenInvalid) return drop({ reconnect: true, freshToken: true, immediate: true });
      drop({ reconnect: true });
    });
    ws.addEventListener('error', () => undefined);
  }

  function handle(message: ChatServerMessage, reconnecting: boolean) {
    switch (message.type) {
      case 'auth_ok': {
        if (timers.connect) clearTimeout(timers.connect);
        timers.connect = null;
        authenticated = true;
        attempt = 0;
        setState(reconnecting ? 'reconnect-succeeded' : 'connected');
        hasConnected = true;
        timers.ping = setInterval(() => write({ type: 'ping' }), timings.pingIntervalMs);
        // Offline after the silence threshold (pongs count): drop and reconnect.
        timers.watchdog = setInterval(
          () => {
            if (Date.now() - lastHeard >= timings.offlineThresholdMs) drop({ reconnect: true });
          },
          Math.max(50, Math.min(1000, timings.offlineThresholdMs / 4)),
        );
        return;
      }
      case 'pong':
        return;
      case 'message': {
        // Exactly once: a message at or below what this client holds was delivered already.
        const cursor = cursors.get(message.channel_url);
        if (cursor !== undefined && message.position <= cursor) return;
        cursors.set(message.channel_url, message.position);
        emit('message', message);
        return;
      }
      case 'ack': {
        const entry = pending.get(message.reqId);
        if (!entry) return;
        clearTimeout(entry.timer);
        pending.delete(message.reqId);
        entry.resolve(message.message);
        return;
      }
      case 'nack': {
        const entry = pending.get(message.reqId);
        if (!entry) return;
        clearTimeout(entry.timer);
        pending.delete(message.reqId);
        entry.reject(new ChatSendError(message.code, message.message, message.retry_after));
        return;
      }
      case 'channel': {
        if (message.change_seq !== undefined) {
          // Exactly once: an edit or delete at or below what this client holds was applied already.
          const held = changeCursors.get(message.channel_url);
          if (held !== undefined && message.change_seq <= held) return;
          changeCursors.set(message.channel_url, message.change_seq);
        }
        if (message.channel === null && (message.event === 'left' || message.event === 'banned' || message.event === 'declined')) {
          cursors.delete(message.channel_url);
          changeCursors.delete(message.channel_url);
        }
        emit('channel', message);
        return;
      }
      case 'receipt':
        emit('receipt', message);
        return;
      case 'typing':
        emit('typing', message);
        return;
      case 'presence':
        emit('presence', message);
        return;
      case 'resync':
        emit('resync', message);
        return;
      case 'resumed':
        emit('resumed', message);
        return;
      case 'error':
        emit('error', message);
        return;
    }
  }

  function flushDelivered(channelUrl: string) {
    const entry = delivered.get(channelUrl);
    if (!entry) return;
    entry.timer = null;
    if (write({ type: 'delivered', channel_url: channelUrl, position: entry.position })) entry.lastSentAt = Date.now();
  }

  void connect();

  return {
    get state() {
      return state;
    },
    get isConnected() {
      return authenticated && socket !== null && socket.readyState === OPEN;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    send(channelUrl, input) {
      const reqId = input.reqId ?? createReqId();
      if (stopped) return Promise.reject(new ChatSendError('STOPPED', 'Chat is not initialised.'));
      return new Promise<ChatMessage>((resolve, reject) => {
        const frame: ChatClientMessage = {
          type: 'send',
          channel_url: channelUrl,
          reqId,
          message: input.message,
          data: input.data ?? {},
          customType: input.customType ?? null,
        };
        const timer = setTimeout(() => {
          pending.delete(reqId);
          reject(new ChatSendError('TIMEOUT', 'The message was not confirmed in time.'));
        }, timings.sendTimeoutMs);
        pending.set(reqId, { resolve, reject, timer });
        if (!write(frame)) {
          clearTimeout(timer);
          pending.delete(reqId);
          reject(new ChatSendError('NOT_CONNECTED', 'Chat is not connected.'));
        }
      });
    },
    markRead(channelUrl, position) {
      return write({ type: 'read', channel_url: channelUrl, position });
    },
    markDelivered(channelUrl, position) {
      const entry = delivered.get(channelUrl) ?? { lastSentAt: 0, position: 0, timer: null };
      delivered.set(channelUrl, entry);
      if (position <= entry.position && entry.lastSentAt > 0) return;
      entry.position = Math.max(entry.position, position);
      if (entry.timer) return; // a trailing frame is already scheduled; it carries the latest position
      const wait = entry.lastSentAt + timings.markDeliveredThrottleMs - Date.now();
      if (wait <= 0) flushDelivered(channelUrl);
      else entry.timer = setTimeout(() => flushDelivered(channelUrl), wait);
    },
    typing(channelUrl, typing) {
      write({ type: 'typing', channel_url: channelUrl, typing });
    },
    setCursor(channelUrl, position) {
      const current = cursors.get(channelUrl);
      if (current === undefined || position > current) cursors.set(channelUrl, position);
    },
    getCursor(channelUrl) {
      return cursors.get(channelUrl);
    },
    setChangeCursor(channelUrl, changeSeq) {
      const current = changeCursors.get(channelUrl);
      if (current === undefined || changeSeq > current) changeCursors.set(channelUrl, changeSeq);
    },
    getChangeCursor(channelUrl) {
      return changeCursors.get(channelUrl);
    },
    forgetChannel(channelUrl) {
      cursors.delete(channelUrl);
      changeCursors.delete(channelUrl);
      const entry = delivered.get(channelUrl);
      if (entry?.timer) clearTimeout(entry.timer);
      delivered.delete(channelUrl);
    },
    reconnectNow() {
      if (stopped || socket || connectInFlight) return;
      if (timers.reconnect) clearTimeout(timers.reconnect);
      timers.reconnect = null;
      attempt = 0;
      void connect();
    },
    stop() {
      if (timers.reconnect) clearTimeout(timers.reconnect);
      timers.reconnect = null;
      stopped = true;
      for (const entry of delivered.values()) if (entry.timer) clearTimeout(entry.timer);
      drop({ reconnect: false });
      rejectPending('STOPPED', 'Chat is not initialised.');
      setState('stopped');
    },
  };
}
