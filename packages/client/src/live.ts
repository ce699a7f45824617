/**
 * The live-update socket client of `ws/trade/d/` with the spec's rules (application §9): the first
 * message authenticates with the access token; ping every 10 s; offline after 30 s without any
 * message; reconnect after 1 s growing ×1.3 up to 10 s, with jitter; connection timeout 4 s (no
 * `auth_ok` by then → drop and retry). It remembers the last position it delivered and resumes
 * from it, so a reconnecting client receives exactly what it missed, each event once. Within a
 * connection an event may arrive after one with a higher position (its transaction committed later;
 * the server sends it rather than drop it): it is delivered too, once, by the recent positions kept.
 */
import { LiveServerMessageSchema, WS, type LiveClientMessage } from '@dart/contracts';

export type LiveStatus = 'connecting' | 'connected' | 'offline' | 'stopped';

/** How many recent positions the client remembers to deliver a late event exactly once (as the server does). */
const DELIVERED_WINDOW = 4096;

export interface LiveEvent {
  position: number;
  topic: string;
  payload: unknown;
}

/** The subset of the WebSocket API used (the browser's, or `ws` in Node). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface LiveTimings {
  pingIntervalMs: number;
  offlineThresholdMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  reconnectFactor: number;
  connectionTimeoutMs: number;
}
export const LIVE_TIMINGS: LiveTimings = {
  pingIntervalMs: WS.pingIntervalMs,
  offlineThresholdMs: WS.offlineThresholdMs,
  reconnectMinMs: WS.reconnectMinMs,
  reconnectMaxMs: WS.reconnectMaxMs,
  reconnectFactor: WS.reconnectFactor,
  connectionTimeoutMs: WS.connectionTimeoutMs,
};

export interface LiveClientOptions {
  /** ws:// or wss:// URL of `ws/trade/d/`. */
  url: string;
  /** Read at every (re)connect, so a refreshed token is used after a reconnect. */
  getAccessToken: () => string | null | undefined | Promise<string | null | undefined>;
  onEvent: (event: LiveEvent) => void;
  onStatus?: (status: LiveStatus) => void;
  /** Default: the global WebSocket (browsers). Node 20 needs one from `ws`. */
  createSocket?: SocketFactory;
  /** Resume from here (e.g. persisted across page loads). */
  lastPosition?: number;
  timings?: Partial<LiveTimings>;
  /** Jitter source (tests pass a fixed one). */
  random?: () => number;
}

export interface LiveClient {
  readonly status: LiveStatus;
  readonly lastPosition: number | undefined;
  stop(): void;
}

/**
 * Delay before reconnect attempt `attempt` (0-based): min × factor^attempt, capped at max, with
 * ±20 % jitter so many clients do not reconnect in lockstep; always within [min, max].
 */
export function getReconnectDelay(attempt: number, timings: LiveTimings = LIVE_TIMINGS, random: () => number = Math.random): number {
  const base = Math.min(timings.reconnectMaxMs, timings.reconnectMinMs * timings.reconnectFactor ** attempt);
  const jittered = base * (0.8 + 0.4 * random());
  return Math.round(Math.min(timings.reconnectMaxMs, Math.max(timings.reconnectMinMs, jittered)));
}

const OPEN = 1;

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const timings: LiveTimings = { ...LIVE_TIMINGS, ...options.timings };
  const random = options.random ?? Math.random;
  const createSocket: SocketFactory =
    options.createSocket ?? ((url) => new (globalThis as unknown as { WebSocket: new (u: string) => SocketLike }).WebSocket(url));
  let status: LiveStatus = 'connecting';
  let lastPosition = options.lastPosition;
  /** Positions at or below it are not delivered: the resume point of this connection, or out of the window. */
  let floor = lastPosition;
  /** Positions delivered above the floor on this connection. */
  const delivered = new Set<number>();
  let socket: SocketLike | null = null;
  let attempt = 0;
  let stopped = false;
  let lastHeard = Date.now();
  const timers = {
    reconnect: null as ReturnType<typeof setTimeout> | null,
    connect: null as ReturnType<typeof setTimeout> | null,
    ping: null as ReturnType<typeof setInterval> | null,
    watchdog: null as ReturnType<typeof setInterval> | null,
  };

  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };
  const clearTimers = () => {
    if (timers.connect) clearTimeout(timers.connect);
    if (timers.ping) clearInterval(timers.ping);
    if (timers.watchdog) clearInterval(timers.watchdog);
    timers.connect = timers.ping = timers.watchdog = null;
  };
  const send = (message: LiveClientMessage) => {
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(message));
  };

  function drop(offline: boolean) {
    clearTimers();
    const current = socket;
    socket = null;
    if (current) {
      // Its listeners see `socket !== current` from now on and do nothing.
      try {
        current.close(1000, 'reconnecting');
      } catch {
        // already closed
      }
    }
    if (stopped) return;
    if (offline) setStatus('offline');
    const delay = getReconnectDelay(attempt++, timings, random);
    timers.reconnect = setTimeout(() => void connect(), delay);
  }

  async function connect() {
    timers.reconnect = null;
    if (stopped) return;
    if (status !== 'offline') setStatus('connecting');
    let token: string | null | undefined;
    try {
      token = await options.getAccessToken();
    } catch {
      token = null;
    }
    if (stopped) return;
    if (!token) return drop(true);
    const ws = createSocket(options.url);
    socket = ws;
    lastHeard = Date.now();
    // Connection timeout: authenticated within 4 s, or drop and retry.
    timers.connect = setTimeout(() => drop(true), timings.connectionTimeoutMs);
    ws.addEventListener(
      'open',
      () => socket === ws && send({ type: 'auth', token: token!, ...(lastPosition !== undefined ? { last_position: lastPosition } : {}) }),
    );
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      lastHeard = Date.now();
      let parsed;
      try {
        parsed = LiveServerMessageSchema.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'auth_ok') {
        if (timers.connect) clearTimeout(timers.connect);
        timers.connect = null;
        attempt = 0;
        if (lastPosition === undefined) lastPosition = message.position;
        // The server replays after the resume point: anything at or below it was delivered or is gone.
        floor = lastPosition;
        delivered.clear();
        setStatus('connected');
        timers.ping = setInterval(() => send({ type: 'ping' }), timings.pingIntervalMs);
        // Offline after 30 s of silence (pongs count): drop and reconnect.
        timers.watchdog = setInterval(
          () => {
            if (Date.now() - lastHeard >= timings.offlineThresholdMs) drop(true);
          },
          Math.max(50, Math.min(1000, timings.offlineThresholdMs / 4)),
        );
      } else if (message.type === 'event') {
        const position = message.position;
        if ((floor !== undefined && position <= floor) || delivered.has(position)) return;
        delivered.add(position);
        if (lastPosition === undefined || position > lastPosition) lastPosition = position;
        if (delivered.size > 2 * DELIVERED_WINDOW) {
          // Keep the newest DELIVERED_WINDOW positions; the older ones go under the floor.
          const sorted = [...delivered].sort((a, b) => a - b);
          floor = sorted[sorted.length - DELIVERED_WINDOW - 1]!;
          for (const old of sorted.slice(0, sorted.length - DELIVERED_WINDOW)) delivered.delete(old);
        }
        options.onEvent({ position: message.position, topic: message.topic, payload: message.payload });
      }
    });
    ws.addEventListener('close', () => socket === ws && drop(true));
    ws.addEventListener('error', () => undefined);
  }

  void connect();
  return {
    get status() {
      return status;
    },
    get lastPosition() {
      return lastPosition;
    },
    stop() {
      stopped = true;
      if (timers.reconnect) clearTimeout(timers.reconnect);
      drop(false);
      setStatus('stopped');
    },
  };
}
