/**
 * Cross-node state the database does not hold: the per-user send rate limit and who is online.
 * With Redis (REDIS_URL) both are shared by every node; without it they are in-process (one node).
 *
 * - Rate limit: a sliding one-second window per user (a Redis sorted set updated by one Lua script,
 *   so the check-and-add is atomic across nodes). When Redis does not answer (down, or slower than
 *   `REDIS_COMMAND_TIMEOUT_MS` in lib/redis.ts) `take` rejects with `RateLimiterUnavailable`: the send is refused as a
 *   503 / an unavailable nack (fail closed, RELIABILITY #42), never as "too fast".
 * - Socket cap: the chat socket's per-user cap, per cluster (lib/connection-cap.ts, its own connection).
 * - Delivered-receipt throttle: one write per user and channel per 1000 ms for the whole cluster, a
 *   `SET key NX PX 1000` (with the PTTL left when taken); without Redis, or while it does not answer,
 *   each node throttles on its own (a receipt is never refused for it).
 * - Presence: one Redis hash per user, field = node id, value = the time the entry lapses. A node
 *   writes its entry when the user's first socket opens there, refreshes all its entries every
 *   10 s, and deletes it when the user's last socket there closes; so a crashed node's entries
 *   lapse within 30 s.
 * - Presence changes are decided once for the whole cluster. A sorted set holds the users announced
 *   online (score = their latest lapse time). The Lua script that writes a node's entry adds the user
 *   to it, and a user who was not in it has just come online. When a node closes a user's last socket
 *   there, it deletes its entry and, `presenceOfflineDelayMs` later, runs a script that removes the
 *   user from the set only if no node holds a live entry: that removal is the offline change, so a
 *   reconnect within the delay (on any node) changes nothing. Every refresh also sweeps the set for
 *   users whose entries all lapsed (a crashed node's, or a node that stopped before its delay ran
 *   out). Each change takes the next number of a per-user counter in the same script, so receivers
 *   can drop a change that overtakes a later one on the bus. The scripts read Redis's clock, so the
 *   nodes' clocks need not agree.
 */
import { randomUUID } from 'node:crypto';
import { CHAT_LIMITS, type ConnectionStatus } from '@dart/contracts';
import { connectRedis, type RedisLogger } from '../../lib/redis';
import { createRedisConnectionCap, type ConnectionCap } from '../../lib/connection-cap';

export interface RateLimiter {
  /**
   * Records one attempt; false when `limit` attempts were already made in the last `windowMs`.
   * Rejects with `RateLimiterUnavailable` when it cannot tell (its store is down).
   */
  take(key: string, limit: number, windowMs: number): Promise<boolean>;
}

/**
 * A cluster-wide "at most once per window" slot (the delivered-receipt throttle, spec §9): `claim` takes
 * the slot for `key` and resolves 0, or resolves how many ms remain until the current holder's window
 * ends (then the caller keeps its work and claims again after that long).
 */
export interface WindowThrottle {
  claim(key: string, windowMs: number): Promise<number>;
}

/** One node: the windows in a map (dropped when it grows large; a lost entry only lets one write through early). */
export function createMemoryWindowThrottle(now: () => number = Date.now): WindowThrottle {
  const until = new Map<string, number>();
  return {
    async claim(key, windowMs) {
      const at = now();
      const ends = until.get(key) ?? 0;
      if (at < ends) return ends - at;
      if (until.size > 50_000) for (const [k, v] of until) if (v <= at) until.delete(k);
      until.set(key, at + windowMs);
      return 0;
    },
  };
}

/** The limiter's store (Redis) did not answer: nobody knows whether the user is over the limit. */
export class RateLimiterUnavailable extends Error {
  constructor(cause: unknown) {
    super(`rate limiter unavailable: ${(cause as Error).message}`);
    this.name = 'RateLimiterUnavailable';
  }
}

/** A cluster-wide presence change, decided on this node. `seq` grows with each change of the user. */
export interface PresenceChange {
  userId: string;
  status: ConnectionStatus;
  seq: number;
}

export interface Presence {
  /** A chat socket of the user opened on this node. */
  connected(userId: string): void;
  /** A chat socket of the user closed on this node. */
  disconnected(userId: string): void;
  /** Of `userIds`, those announced online (what the presence changes last said). */
  online(userIds: readonly string[]): Promise<Set<string>>;
  /** The listener of the changes this node decides (one listener). */
  onChange(listener: (change: PresenceChange) => void): void;
  close(): Promise<void>;
}

const PRESENCE_TTL_MS = 30_000;
const PRESENCE_REFRESH_MS = 10_000;
/** Most users one sweep announces offline; the rest wait for the next sweep. */
const SWEEP_BATCH = 500;

/** SET NX PX: 0 when this caller took the window, else the ms left in the holder's window (at least 1). */
const WINDOW_CLAIM = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 1 then return 1 end
return left`;

const SLIDING_WINDOW = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1`;

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, number[]>();
  return {
    async take(key, limit, windowMs) {
      const now = Date.now();
      const recent = (windows.get(key) ?? []).filter((t) => t > now - windowMs);
      if (recent.length >= limit) {
        windows.set(key, recent);
        return false;
      }
      recent.push(now);
      windows.set(key, recent);
      if (windows.size > 50_000) for (const [k, v] of windows) if (v.every((t) => t <= now - windowMs)) windows.delete(k);
      return true;
    },
  };
}

/** One node: a user is online while they have a socket here, or for `offlineDelayMs` after the last one closed. */
export function createMemoryPresence(offlineDelayMs: number = CHAT_LIMITS.presenceOfflineDelayMs): Presence {
  const counts = new Map<string, number>();
  const announced = new Set<string>();
  const pendingOffline = new Map<string, NodeJS.Timeout>();
  let listener: ((change: PresenceChange) => void) | null = null;
  let seq = 0;
  let closed = false;
  const announce = (userId: string, status: ConnectionStatus) => listener?.({ userId, status, seq: ++seq });
  return {
    connected(userId) {
      if (closed) return;
      counts.set(userId, (counts.get(userId) ?? 0) + 1);
      const timer = pendingOffline.get(userId);
      if (timer) clearTimeout(timer);
      pendingOffline.delete(userId);
      if (announced.has(userId)) return;
      announced.add(userId);
      announce(userId, 'online');
    },
    disconnected(userId) {
      if (closed) return;
      const n = (counts.get(userId) ?? 1) - 1;
      if (n > 0) {
        counts.set(userId, n);
        return;
      }
      counts.delete(userId);
      if (!announced.has(userId) || pendingOffline.has(userId)) return;
      const timer = setTimeout(() => {
        pendingOffline.delete(userId);
        if (counts.has(userId) || !announced.delete(userId)) return;
        announce(userId, 'offline');
      }, offlineDelayMs);
      timer.unref();
      pendingOffline.set(userId, timer);
    },
    online: async (userIds) => new Set(userIds.filter((id) => announced.has(id))),
    onChange(next) {
      listener = next;
    },
    close: async () => {
      closed = true;
      for (const timer of pendingOffline.values()) clearTimeout(timer);
      pendingOffline.clear();
    },
  };
}

/** Redis's clock in milliseconds (scripts only: the nodes' clocks may disagree). */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * A node's entry for a user (KEYS: entries hash, online set, counters hash; ARGV: node id, ttl ms,
 * user id). Returns the change number when the user was not announced online (they came online), else 0.
 */
const PRESENCE_UP = `${REDIS_NOW}
local lapse = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], ARGV[1], lapse)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local score = redis.call('ZSCORE', KEYS[2], ARGV[3])
if score and tonumber(score) >= lapse then return 0 end
redis.call('ZADD', KEYS[2], lapse, ARGV[3])
if score then return 0 end
return redis.call('HINCRBY', KEYS[3], ARGV[3], 1)`;

/**
 * After the offline delay (KEYS: entries hash, online set, counters hash; ARGV: user id): the change
 * number when no node holds a live entry and the user was announced online (they went offline), else 0.
 */
const PRESENCE_DOWN = `${REDIS_NOW}
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  if tonumber(v) > now then return 0 end
end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
return redis.call('HINCRBY', KEYS[3], ARGV[1], 1)`;

/**
 * Users announced online whose every entry lapsed (KEYS: online set, counters hash; ARGV: entries key
 * prefix, batch size): removes them and returns user id, change number, user id, change number ...
 */
const PRESENCE_SWEEP = `${REDIS_NOW}
local out = {}
for _, user in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))) do
  local live = 0
  for _, v in ipairs(redis.call('HVALS', ARGV[1] .. user)) do
    local lapse = tonumber(v)
    if lapse > now and lapse > live then live = lapse end
  end
  if live > 0 then
    redis.call('ZADD', KEYS[1], live, user)
  else
    redis.call('ZREM', KEYS[1], user)
    table.insert(out, user)
    table.insert(out, redis.call('HINCRBY', KEYS[2], user, 1))
  end
end
return out`;

/** Redis-backed limiter and presence on one connection; keys are namespaced by the deployment's bus channel. */
export async function createRedisRealtime(
  url: string,
  namespace: string,
  logger: RedisLogger,
  offlineDelayMs: number = CHAT_LIMITS.presenceOfflineDelayMs,
): Promise<{ limiter: RateLimiter; presence: Presence; connections: ConnectionCap; throttle: WindowThrottle; close(): Promise<void> }> {
  const redis = await connectRedis(url, 'chat', logger);
  const connections = await createRedisConnectionCap(url, namespace, 'chat', logger);
  const nodeId = randomUUID();
  const counts = new Map<string, number>();
  const pendingOffline = new Map<string, NodeJS.Timeout>();
  let listener: ((change: PresenceChange) => void) | null = null;
  let closed = false;
  const entriesPrefix = `${namespace}:chat:presence:`;
  const entriesKey = (userId: string) => `${entriesPrefix}${userId}`;
  const onlineKey = `${namespace}:chat:presence-online`;
  const countersKey = `${namespace}:chat:presence-changes`;
  const warn = (error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'chat presence unavailable');
  const announce = (userId: string, status: ConnectionStatus, seq: unknown) => {
    if (Number(seq) > 0) listener?.({ userId, status, seq: Number(seq) });
  };

  /** Writes this node's entries (first socket, refresh); announces the users who were not online. */
  const up = (userIds: readonly string[]) => {
    if (userIds.length === 0) return;
    const pipeline = redis.pipeline();
    for (const userId of userIds)
      pipeline.eval(PRESENCE_UP, 3, entriesKey(userId), onlineKey, countersKey, nodeId, PRESENCE_TTL_MS, userId);
    pipeline
      .exec()
      .then((replies) => replies?.forEach(([error, seq], i) => !error && announce(userIds[i]!, 'online', seq)))
      .catch(warn);
  };
  const down = (userId: string) => {
    pendingOffline.delete(userId);
    if (closed || counts.has(userId)) return;
    redis
      .eval(PRESENCE_DOWN, 3, entriesKey(userId), onlineKey, countersKey, userId)
      .then((seq) => announce(userId, 'offline', seq))
      .catch(warn);
  };
  const sweep = () => {
    redis
      .eval(PRESENCE_SWEEP, 2, onlineKey, countersKey, entriesPrefix, SWEEP_BATCH)
      .then((reply) => {
        const flat = reply as Array<string | number>;
        for (let i = 0; i + 1 < flat.length; i += 2) announce(String(flat[i]), 'offline', flat[i + 1]);
      })
      .catch(warn);
  };
  const refresh = setInterval(() => {
    up([...counts.keys()]);
    sweep();
  }, PRESENCE_REFRESH_MS);
  refresh.unref();

  const limiter: RateLimiter = {
    async take(key, limit, windowMs) {
      try {
        const result = await redis.eval(SLIDING_WINDOW, 1, `${namespace}:chat:rate:${key}`, Date.now(), windowMs, limit, randomUUID());
        return Number(result) === 1;
      } catch (error) {
        // Fail closed (nobody may flood the channels while Redis is down), but say why: unavailable, not "too fast".
        logger.warn({ err: { message: (error as Error).message } }, 'chat rate limiter unavailable');
        throw new RateLimiterUnavailable(error);
      }
    },
  };
  // Redis unreachable: delivered receipts are not worth refusing, so each node throttles on its own until it returns.
  const localThrottle = createMemoryWindowThrottle();
  const throttle: WindowThrottle = {
    async claim(key, windowMs) {
      try {
        return Number(await redis.eval(WINDOW_CLAIM, 1, `${namespace}:chat:window:${key}`, windowMs));
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'chat throttle unavailable: throttling on this node');
        return localThrottle.claim(key, windowMs);
      }
    },
  };
  const presence: Presence = {
    connected(userId) {
      if (closed) return;
      const n = (counts.get(userId) ?? 0) + 1;
      counts.set(userId, n);
      const timer = pendingOffline.get(userId);
      if (timer) clearTimeout(timer);
      pendingOffline.delete(userId);
      if (n === 1) up([userId]);
    },
    disconnected(userId) {
      if (closed) return;
      const n = (counts.get(userId) ?? 1) - 1;
      if (n > 0) {
        counts.set(userId, n);
        return;
      }
      counts.delete(userId);
      redis.hdel(entriesKey(userId), nodeId).catch(warn);
      if (pendingOffline.has(userId)) return;
      const timer = setTimeout(() => down(userId), offlineDelayMs);
      timer.unref();
      pendingOffline.set(userId, timer);
    },
    async online(userIds) {
      const result = new Set<string>();
      if (userIds.length === 0) return result;
      try {
        const scores = await redis.zmscore(onlineKey, ...userIds);
        scores.forEach((score, i) => score !== null && result.add(userIds[i]!));
      } catch {
        for (const userId of userIds) if (counts.has(userId)) result.add(userId);
      }
      return result;
    },
    onChange(next) {
      listener = next;
    },
    close: async () => undefined,
  };
  return {
    limiter,
    presence,
    connections,
    throttle,
    close: async () => {
      await connections.close();
      closed = true;
      clearInterval(refresh);
      for (const timer of pendingOffline.values()) clearTimeout(timer);
      pendingOffline.clear();
      // The users' entries go; another node's sweep announces them offline once their lapse time passes,
      // unless they reconnect elsewhere first (a rolling restart does not flap them).
      const pipeline = redis.pipeline();
      for (const userId of counts.keys()) pipeline.hdel(entriesKey(userId), nodeId);
      await pipeline.exec().catch(() => undefined);
      redis.disconnect();
    },
  };
}
