/**
 * The HTTP rate limits' counters (`@fastify/rate-limit`) in Redis when REDIS_URL is set, so a limit is
 * per user (or per IP) per cluster, not per node: behind a load balancer spreading requests over N
 * nodes, in-process counters let a client make N times its limit, and a password or OTP guesser N
 * times as many guesses. Without Redis (the embedded single-node default) the plugin's own in-process
 * store stays.
 *
 * The same fixed window as the in-process store: one counter per key and window, made by INCR and
 * expiring with the window (one Lua script, so the count and its expiry are set together). Route
 * limits (`config.rateLimit` on a route) count apart from the global one, keyed by method and URL.
 *
 * When Redis cannot answer, the request is refused with 503 and Retry-After (RELIABILITY #42: fail
 * fast, never fail open): an unlimited API while the shared store is down is what the limit prevents.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { connectRedis, type RedisLogger } from './redis';
import { AppError } from './errors';

/** KEYS: the counter; ARGV: the window in ms. Returns the count in this window and the ms left of it. */
const HIT = `local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

/** KEYS: the counter. The count and the ms left, without counting a hit. */
const READ = `local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface RedisRateLimit {
  /** For the plugin's `store` option. */
  store: FastifyRateLimitStoreCtor;
  close(): Promise<void>;
}

/**
 * Counters on their own Redis connection, under `${namespace}:rate:` (the deployment's bus channel, so
 * deployments and test suites on other databases never share counters).
 */
export async function createRedisRateLimit(url: string, namespace: string, logger: RedisLogger): Promise<RedisRateLimit> {
  const redis = await connectRedis(url, 'rate limit', logger);
  const unavailable = (error: unknown) => {
    logger.warn({ err: { message: (error as Error).message } }, 'rate limit store unavailable: request refused');
    return new AppError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable.', undefined, { 'retry-after': '5' });
  };
  const run = (script: string, key: string, args: number[], callback: Callback) => {
    redis.eval(script, 1, key, ...args).then(
      (result) => {
        const [current, ttl] = result as [number, number];
        callback(null, { current: Number(current), ttl: Number(ttl) });
      },
      (error: unknown) => callback(unavailable(error)),
    );
  };

  class RedisRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = `${namespace}:rate:`,
    ) {}
    incr(key: string, callback: Callback, timeWindow: number) {
      run(HIT, this.prefix + key, [Math.max(1, Math.trunc(timeWindow))], callback);
    }
    /** `{ increment: false }` checks (the plugin's `read`). */
    read(key: string, callback: Callback) {
      run(READ, this.prefix + key, [], callback);
    }
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo;
      return new RedisRateLimitStore(routeOptions, `${this.prefix}${String(route?.method ?? '')}${route?.url ?? ''}-`);
    }
  }

  return {
    store: RedisRateLimitStore,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
