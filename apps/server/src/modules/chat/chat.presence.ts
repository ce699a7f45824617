/**
 * Cross-node state the database does not hold: the per-user send rate limit and who is online.
 * With Redis (REDIS_URL) both are shared by every node; without it they are in-process (one node).
 *
 * - Rate limit: a sliding one-second window per user (a Redis sorted set updated by one Lua script,
 *   so the check-and-add is atomic across nodes).
 * - Presence: one Redis hash per user, field = node id, value = the time the entry lapses. A node
 *   writes its entry when the user's first socket opens there, refreshes all its entries every
 *   10 s, and deletes it when the user's last socket there closes. A user is online when any
 *   entry has not lapsed, so a crashed node's users go offline within 30 s.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export interface RateLimiter {
  /** Records one attempt; false when `limit` attempts were already made in the last `windowMs`. */
  take(key: string, limit: number, windowMs: number): Promise<boolean>;
}

export interface Presence {
  connected(userId: string): void;
  disconnected(userId: string): void;
  online(userIds: readonly string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

const PRESENCE_TTL_MS = 30_000;
const PRESENCE_REFRESH_MS = 10_000;

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

export function createMemoryPresence(): Presence {
  const counts = new Map<string, number>();
  return {
    connected: (userId) => void counts.set(userId, (counts.get(userId) ?? 0) + 1),
    disconnected(userId) {
      const n = (counts.get(userId) ?? 1) - 1;
      if (n <= 0) counts.delete(userId);
      else counts.set(userId, n);
    },
    online: async (userIds) => new Set(userIds.filter((id) => counts.has(id))),
    close: async () => undefined,
  };
}

/** Redis-backed limiter and presence on one connection; keys are namespaced by the deployment's bus channel. */
export async function createRedisRealtime(
  url: string,
  namespace: string,
  logger: { warn: (object: object, message: string) => void },
): Promise<{ limiter: RateLimiter; presence: Presence; close(): Promise<void> }> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error: Error) => logger.warn({ err: { message: error.message } }, 'chat redis error'));
  await redis.connect();
  const nodeId = randomUUID();
  const counts = new Map<string, number>();
  const presenceKey = (userId: string) => `${namespace}:chat:presence:${userId}`;
  const write = (userIds: readonly string[]) => {
    if (userIds.length === 0) return;
    const pipeline = redis.pipeline();
    const until = String(Date.now() + PRESENCE_TTL_MS);
    for (const userId of userIds) {
      pipeline.hset(presenceKey(userId), nodeId, until);
      pipeline.pexpire(presenceKey(userId), PRESENCE_TTL_MS);
    }
    pipeline.exec().catch(() => undefined);
  };
  const refresh = setInterval(() => write([...counts.keys()]), PRESENCE_REFRESH_MS);
  refresh.unref();

  const limiter: RateLimiter = {
    async take(key, limit, windowMs) {
      try {
        const result = await redis.eval(SLIDING_WINDOW, 1, `${namespace}:chat:rate:${key}`, Date.now(), windowMs, limit, randomUUID());
        return Number(result) === 1;
      } catch (error) {
        // Fail closed: when Redis is down nobody may flood the channels.
        logger.warn({ err: { message: (error as Error).message } }, 'chat rate limiter unavailable');
        return false;
      }
    },
  };
  const presence: Presence = {
    connected(userId) {
      const n = (counts.get(userId) ?? 0) + 1;
      counts.set(userId, n);
      if (n === 1) write([userId]);
    },
    disconnected(userId) {
      const n = (counts.get(userId) ?? 1) - 1;
      if (n > 0) {
        counts.set(userId, n);
        return;
      }
      counts.delete(userId);
      redis.hdel(presenceKey(userId), nodeId).catch(() => undefined);
    },
    async online(userIds) {
      const result = new Set<string>();
      if (userIds.length === 0) return result;
      try {
        const pipeline = redis.pipeline();
        for (const userId of userIds) pipeline.hvals(presenceKey(userId));
        const replies = (await pipeline.exec()) ?? [];
        const now = Date.now();
        replies.forEach(([error, values], i) => {
          if (!error && (values as string[]).some((v) => Number(v) > now)) result.add(userIds[i]!);
        });
      } catch {
        for (const userId of userIds) if (counts.has(userId)) result.add(userId);
      }
      return result;
    },
    close: async () => undefined,
  };
  return {
    limiter,
    presence,
    close: async () => {
      clearInterval(refresh);
      const pipeline = redis.pipeline();
      for (const userId of counts.keys()) pipeline.hdel(presenceKey(userId), nodeId);
      await pipeline.exec().catch(() => undefined);
      redis.disconnect();
    },
  };
}
