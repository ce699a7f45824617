/**
 * `ws/trade/d/`: live updates. The HTTP upgrade is public; the first message must be `auth` with an
 * access token within 4 s, else the socket closes 4001. Events are filtered per tenant, and a user-scoped
 * event (`events.user_id`, a notification) goes to that user's sockets only, live and on replay; a topic a module
 * decides (`audiences`, lib/live-audience.ts: a firm-wide notification, fanned out on read) goes to each socket as
 * that user's copy or not at all; a client that
 * sends `last_position` gets what it missed from the events table, then live events, each exactly once
 * and in position order, except that a live event whose transaction committed after a later position's arrives
 * after it (it is sent, not dropped). A revoked session closes its sockets at once (RELIABILITY #9, #18, #33, #43).
 *
 * Per-connection order: after `auth` the client sends only `ping`, so there is nothing to order.
 * The per-user cap (`LIVE_LIMITS.connectionsPerUser`) is a slot reserved in one atomic step right after
 * the token is checked and before anything else is awaited (lib/connection-cap.ts): per user per
 * cluster with Redis, per node without; over it → 1008. A second `auth` while the first is still
 * being checked is refused like one after it. When Redis (the cap) or the database cannot be reached
 * the socket closes 1013 (try again later), never 4001: the token is fine and the client just retries.
 *
 * A socket's start (principal, then ONE statement for the latest position, each audience's start and the first replay
 * page: live.repository.ts) goes through a per-node gate, `STARTS_AT_ONCE`: a reconnect storm queues there instead of
 * taking the pool that live delivery (the notification producer, the modules' writes) needs.
 */
import {
  LIVE_CLOSE,
  LIVE_LIMITS,
  MARKET_TOPIC_PREFIX,
  LIVE_PATH,
  LIVE_PROTOCOL_VERSION,
  LIVE_REPLAY_LIMIT,
  LiveClientMessageSchema,
  type LiveServerMessage,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { BusMessage } from '../../lib/bus';
import { isDatabaseUnavailable } from '../../db/client';
import { ConnectionCapUnavailable, createMemoryConnectionCap, createRedisConnectionCap, type SlotRelease } from '../../lib/connection-cap';
import { eventsSince } from '../../lib/events';
import type { LiveAudience, LivePersonaliser } from '../../lib/live-audience';
import { safeParseJsonFrame } from '../../lib/strict-json';
import type { Principal } from '../auth/principal';
import { readSocketStart, type ReplayRow } from './live.repository';

/** How many recent positions a connection remembers to send a late-committed event exactly once. */
const DELIVERED_WINDOW = 4096;
/**
 * Sockets authenticating and starting (principal, start statement, replay) at once, per node. A reconnect storm (a
 * tenth of 2,000 sockets, bench/notify) then queues here instead of taking the whole pool of 10 that the notification
 * producer and the modules' writes need for live delivery. The embedded database runs one query at a time in this
 * process, so one start at a time there; PostgreSQL's pool serves a few.
 */
const STARTS_AT_ONCE = { pglite: 1, postgres: 4 } as const;

/** A counting semaphore: `acquire` resolves with its release (calling it twice releases once). */
function createGate(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    const grant = waiting.shift();
    if (grant) grant();
    else active -= 1;
  };
  return {
    acquire: () =>
      new Promise<() => void>((resolve) => {
        const grant = () => {
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            next();
          });
        };
        if (active < limit) {
          active += 1;
          grant();
        } else waiting.push(grant);
      }),
  };
}

interface Connection {
  socket: WebSocket;
  principal: Principal;
  /** Highest position delivered: a replay (initial or after a bus resync) reads the table after it. */
  position: number;
  /** Positions at or below it are not sent: the client had them (its resume point) or they left the window. */
  floor: number;
  /**
   * Positions sent above the floor. Transactions commit in any order, so a live event may arrive after one with a
   * higher position (a notification committed just after a deal of the same firm): it still goes out, once.
   */
  delivered: Set<number>;
  replaying: boolean;
  buffered: BusMessage[];
  /** Per topic a module decides (lib/live-audience.ts): this socket's copy of such an event, or none. */
  personalisers: Map<string, LivePersonaliser>;
}

/** `namespace` scopes the cap's Redis keys to the nodes of one deployment, like the bus channel. */
export async function registerLiveGateway(
  app: FastifyInstance,
  options: { namespace: string; audiences?: readonly LiveAudience[] },
): Promise<void> {
  const audiences = options.audiences ?? [];
  const { bus, tokens, principals, database, config } = app.deps;
  const connections = new Set<Connection>();
  const startGate = createGate(STARTS_AT_ONCE[database.driver]);
  /** The same connections by user: a user-scoped event visits its user's sockets only, not every socket of the node. */
  const byUser = new Map<string, Set<Connection>>();
  const track = (connection: Connection) => {
    connections.add(connection);
    const own = byUser.get(connection.principal.userId) ?? new Set<Connection>();
    own.add(connection);
    byUser.set(connection.principal.userId, own);
  };
  const untrack = (connection: Connection) => {
    connections.delete(connection);
    const own = byUser.get(connection.principal.userId);
    own?.delete(connection);
    if (own?.size === 0) byUser.delete(connection.principal.userId);
  };
  const cap = config.redisUrl
    ? await createRedisConnectionCap(config.redisUrl, options.namespace, 'live', app.log)
    : createMemoryConnectionCap();

  const send = (socket: WebSocket, message: LiveServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  // One bus message fans out to many sockets: encode its frame once, not once per socket.
  const frames = new WeakMap<BusMessage, string>();
  const deliver = (connection: Connection, message: BusMessage) => {
    const position = message.position;
    if (position === undefined || position <= connection.floor || connection.delivered.has(position)) return;
    // Market events reach only users with trade access (spec §6); tenant filtering happens before.
    if (message.topic.startsWith(MARKET_TOPIC_PREFIX) && !connection.principal.permissions.includes('client.can_trade')) return;
    // A module's event fanned out on read (a firm-wide notification): this user's copy, or not theirs at all.
    const personalise = connection.personalisers.get(message.topic);
    const personal = personalise ? personalise(message) : undefined;
    if (personalise && personal === undefined) return;
    connection.delivered.add(position);
    if (position > connection.position) connection.position = position;
    if (connection.delivered.size > 2 * DELIVERED_WINDOW) {
      // Keep the newest DELIVERED_WINDOW positions; older ones move under the floor.
      const sorted = [...connection.delivered].sort((a, b) => a - b);
      connection.floor = sorted[sorted.length - DELIVERED_WINDOW - 1]!;
      for (const old of sorted.slice(0, sorted.length - DELIVERED_WINDOW)) connection.delivered.delete(old);
    }
    let frame: string | undefined;
    if (personalise) {
      // This socket's own copy: encoded for it alone.
      const event: LiveServerMessage = { type: 'event', position, topic: message.topic, payload: personal };
      frame = JSON.stringify(event);
    } else frame = frames.get(message);
    if (frame === undefined) {
      const event: LiveServerMessage = { type: 'event', position, topic: message.topic, payload: message.payload };
      frame = JSON.stringify(event);
      frames.set(message, frame);
    }
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(frame);
  };

  /**
   * Replays what the connection missed from the events table (from `first`, a page read already, if given), then
   * drains what arrived live meanwhile.
   */
  const catchUp = async (connection: Connection, first?: readonly ReplayRow[]) => {
    let page: readonly ReplayRow[] =
      first ?? (await eventsSince(database.db, connection.principal, connection.position, LIVE_REPLAY_LIMIT));
    while (page.length > 0) {
      for (const row of page)
        deliver(connection, { topic: row.topic, position: row.position, clientId: row.clientId, userId: row.userId, payload: row.payload });
      page =
        page.length === LIVE_REPLAY_LIMIT
          ? await eventsSince(database.db, connection.principal, connection.position, LIVE_REPLAY_LIMIT)
          : [];
    }
    // Duplicates of replayed events are skipped by position.
    for (const buffered of connection.buffered.sort((a, b) => (a.position ?? 0) - (b.position ?? 0))) deliver(connection, buffered);
    connection.buffered = [];
    connection.replaying = false;
  };

  // Redis pub/sub has no replay: events published while this node's subscription was down never reach it.
  // When the subscription is back, every open socket catches up from the events table, and sockets whose
  // session ended meanwhile (a revocation published during the gap) are closed.
  const unsubscribeResync = bus.onResync(() => {
    for (const connection of connections) {
      if (connection.replaying) continue; // its own replay reads the table after this point anyway
      connection.replaying = true;
      void (async () => {
        try {
          const principal = await principals.load(connection.principal.sessionId, connection.principal.userId);
          if (!principal) {
            connection.socket.close(LIVE_CLOSE.unauthenticated, 'Session ended');
            return;
          }
          await catchUp(connection);
        } catch (error) {
          app.log.warn({ err: { message: (error as Error).message } }, 'live socket could not catch up after a bus resync');
          connection.socket.close(LIVE_CLOSE.tryAgainLater, 'Service temporarily unavailable');
        }
      })();
    }
  });

  const unsubscribe = bus.subscribe((message) => {
    const payload = message.payload as { sessionId?: string; userId?: string };
    const audience = message.userId ? (byUser.get(message.userId) ?? []) : connections;
    for (const connection of audience) {
      if (message.topic === 'auth.session_revoked' && payload.sessionId === connection.principal.sessionId) {
        connection.socket.close(LIVE_CLOSE.unauthenticated, 'Session ended');
        continue;
      }
      if (message.topic === 'auth.user_changed' && payload.userId === connection.principal.userId) {
        connection.socket.close(LIVE_CLOSE.unauthenticated, 'Session ended');
        continue;
      }
      if (message.position === undefined) continue;
      if (message.clientId && message.clientId !== connection.principal.clientId) continue;
      // A user-scoped event (a notification) reaches only that user's sockets, never the rest of the firm.
      if (message.userId && message.userId !== connection.principal.userId) continue;
      if (connection.replaying) connection.buffered.push(message);
      else deliver(connection, message);
    }
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeResync();
    for (const connection of connections) connection.socket.close(LIVE_CLOSE.goingAway, 'Server shutting down');
    await cap.close();
  });

  app.get(LIVE_PATH, { websocket: true, config: { policy: { kind: 'public' } }, schema: { hide: true } }, (socket, request) => {
    let connection: Connection | null = null;
    let authenticating = false;
    /** This socket's place under the per-user cap, held from the check until the socket closes. */
    let slot: SlotRelease | null = null;
    let windowStart = Date.now();
    let windowCount = 0;
    const authTimer = setTimeout(() => socket.close(LIVE_CLOSE.unauthenticated, 'Authentication timed out'), LIVE_LIMITS.authTimeoutMs);

    // Listeners are attached synchronously so no early message is lost.
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        windowCount = 0;
      }
      if (++windowCount > LIVE_LIMITS.messagesPerSecond) {
        socket.close(LIVE_CLOSE.policyViolation, 'Too many messages');
        return;
      }
      let parsed;
      try {
        parsed = isBinary ? null : safeParseJsonFrame(LiveClientMessageSchema, raw.toString());
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        send(socket, { type: 'error', code: 'BAD_MESSAGE', message: 'Unrecognised message.' });
        return;
      }
      const message = parsed.data;
      if (message.type === 'ping') {
        send(socket, { type: 'pong' });
        return;
      }
      if (connection || authenticating) {
        send(socket, { type: 'error', code: 'ALREADY_AUTHENTICATED', message: 'Already authenticated.' });
        return;
      }
      authenticating = true;
      clearTimeout(authTimer);
      void (async () => {
        // Held until the replay is done (or the start failed): see STARTS_AT_ONCE.
        const release = await startGate.acquire();
        try {
          if (socket.readyState !== socket.OPEN) return; // gone while it queued
          const claims = await tokens.verify(message.token);
          const principal = await principals.load(claims.sessionId, claims.userId);
          if (!principal) throw new Error('session ended');
          // Check and count in one step: no await between them, so simultaneous opens cannot all pass.
          const slotRelease = await cap.reserve(principal.userId, LIVE_LIMITS.connectionsPerUser);
          if (!slotRelease) {
            socket.close(LIVE_CLOSE.policyViolation, 'Too many connections');
            return;
          }
          if (socket.readyState !== socket.OPEN) {
            slotRelease(); // closed while the slot was being reserved: its close handler has run already
            return;
          }
          slot = slotRelease;
          // Tracked (buffering live events) before the start statement reads the table: an event committed after its
          // snapshot is published after this point and waits in `buffered`; one before it is in the replay or below
          // the resume point.
          const started: Connection = {
            socket,
            principal,
            position: 0,
            floor: 0,
            delivered: new Set(),
            replaying: true,
            buffered: [],
            personalisers: new Map(),
          };
          connection = started;
          track(started);
          // One statement: the latest position, each audience's start and the first replay page (live.repository.ts).
          const resume = message.last_position;
          const start = await readSocketStart(database.db, principal, resume, audiences, LIVE_REPLAY_LIMIT);
          const from = resume ?? start.latest;
          started.position = from;
          started.floor = from;
          audiences.forEach((audience, i) => {
            const personalise = audience.open(principal, start.audiences[i]);
            for (const topic of audience.topics) started.personalisers.set(topic, personalise);
          });
          send(socket, { type: 'auth_ok', version: LIVE_PROTOCOL_VERSION, position: start.latest });
          await catchUp(started, start.replay);
        } catch (error) {
          if (error instanceof ConnectionCapUnavailable || isDatabaseUnavailable(error)) {
            request.log.warn({ err: { message: (error as Error).message } }, 'live socket refused: a dependency is unavailable');
            socket.close(LIVE_CLOSE.tryAgainLater, 'Service temporarily unavailable');
            return;
          }
          request.log.info('live socket authentication failed');
          socket.close(LIVE_CLOSE.unauthenticated, 'Authentication failed');
        } finally {
          release();
        }
      })();
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      if (connection) untrack(connection);
      slot?.();
    });
    // Socket errors (an oversize frame, a dropped peer) go to `handleWebSocketError` (plugins/ws-heartbeat.ts).
  });
}
