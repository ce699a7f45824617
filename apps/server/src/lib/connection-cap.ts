/**
 * The per-user socket cap of the gateways (RELIABILITY #33), as one atomic check-and-reserve.
 *
 * A gateway reserves a slot before it awaits anything else (token check, database reads), holds it
 * while the socket is open and releases it on close, so simultaneous opens cannot all pass the check
 * before any of them is counted (100 opens at once admit exactly the cap).
 *
 * - In-process (no `REDIS_URL`): a count per key on this node; check and add run in one synchronous step.
 * - Redis: the cap is per user per cluster. One hash per key, field = slot id, value = the time the
 *   slot lapses (Redis's clock); one Lua script drops lapsed slots, counts the rest and adds the new
 *   one only when under the limit, so two nodes cannot both take the last slot. Each node re-stamps
 *   its open slots every 10 s, and deletes a slot when its socket closes; a crashed node's slots lapse
 *   within 30 s. When Redis cannot be reached the reservation fails with `ConnectionCapUnavailable`
 *   (the gateway closes 1013, try again later): the cap neither fails open nor blames the user.
 */
import { randomUUID } from 'node:crypto';
import { connectRedis, type RedisLogger } from './redis';

/** Given back when the socket closes; safe to call more than once. */
export type SlotRelease = () => void;

export interface ConnectionCap {
  /** One of `limit` slots of `key` (a user id), or null when all are held. Rejects with `ConnectionCapUnavailable`. */
  reserve(key: string, limit: number): Promise<SlotRelease | null>;
  close(): Promise<void>;
}

/** The shared store of the cap (Redis) did not answer: the socket is refused with "try again later". */
export class ConnectionCapUnavailable extends Error {
  constructor(cause: unknown) {
    super(`connection cap unavailable: ${(cause as Error).message}`);
    this.name = 'ConnectionCapUnavailable';
  }
}

export function createMemoryConnectionCap(): ConnectionCap {
  const held = new Map<string, number>();
  return {
    // Not `async`: the check and the count happen in the same tick as the call.
    reserve(key, limit) {
      const n = held.get(key) ?? 0;
      if (n >= limit) return Promise.resolve(null);
      held.set(key, n + 1);
      let released = false;
      return Promise.resolve(() => {
        if (released) return;
        released = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      });
    },
    close: async () => undefined,
  };
}

const SLOT_TTL_MS = 30_000;
const SLOT_REFRESH_MS = 10_000;
const REFRESH_BATCH = 500;
/** KEYS: the key's slots hash; ARGV: slot id, ttl ms, limit. 1 = reserved, 0 = full. */
const RESERVE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slots = redis.call('HGETALL', KEYS[1])
local live = 0
for i = 1, #slots, 2 do
  if tonumber(slots[i + 1]) <= now then redis.call('HDEL', KEYS[1], slots[i]) else live = live + 1 end
end
if live >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS: slots hashes; ARGV: ttl ms, then one slot id per key. Re-stamps open slots (re-adds lapsed ones: they are real sockets). */
const REFRESH = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, ARGV[i + 1], now + ttl)
  redis.call('PEXPIRE', key, ttl)
end
return 1`;

/**
 * The cluster-wide cap on its own Redis connection. `namespace` is the deployment's bus channel, so
 * deployments (and test suites) on other databases never share slots; `scope` names the gateway.
 */
export async function createRedisConnectionCap(url: string, namespace: string, scope: string, logger: RedisLogger): Promise<ConnectionCap> {
  const redis = await connectRedis(url, 'socket cap', logger);
  const keyOf = (key: string) => `${namespace}:ws-cap:${scope}:${key}`;
  /** This node's open slots: slot id → Redis key. */
  const open = new Map<string, string>();
  const refresh = setInterval(() => {
    if (open.size === 0) return;
    const entries = [...open];
    for (let i = 0; i < entries.length; i += REFRESH_BATCH) {
      const batch = entries.slice(i, i + REFRESH_BATCH);
      redis
        .eval(REFRESH, batch.length, ...batch.map(([, key]) => key), SLOT_TTL_MS, ...batch.map(([id]) => id))
        .catch((error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'socket cap refresh failed'));
    }
  }, SLOT_REFRESH_MS);
  refresh.unref();
  return {
    async reserve(key, limit) {
      const id = randomUUID();
      const redisKey = keyOf(key);
      let reply: unknown;
      try {
        reply = await redis.eval(RESERVE, 1, redisKey, id, SLOT_TTL_MS, limit);
      } catch (error) {
        throw new ConnectionCapUnavailable(error);
      }
      if (Number(reply) !== 1) return null;
      open.set(id, redisKey);
      return () => {
        if (!open.delete(id)) return;
        // Not reachable now: the slot lapses by itself within SLOT_TTL_MS.
        redis.hdel(redisKey, id).catch(() => undefined);
      };
    },
    async close() {
      clearInterval(refresh);
      const pipeline = redis.pipeline();
      for (const [id, key] of open) pipeline.hdel(key, id);
      open.clear();
      await pipeline.exec().catch(() => undefined);
      redis.disconnect();
    },
  };
}
