/**
 * One way to open a Redis connection for request-path work (rate limits, the socket cap, chat presence):
 * fail fast rather than queue. A command waits at most `REDIS_COMMAND_TIMEOUT_MS`, nothing is queued while
 * the connection is down and a failed command is retried once, so a Redis outage turns into a quick 503
 * for the caller instead of a request hanging until its own timeout (RELIABILITY #42).
 */
import { Redis } from 'ioredis';

export const REDIS_COMMAND_TIMEOUT_MS = 2000;

export interface RedisLogger {
  warn: (object: object, message: string) => void;
}

/** A connected client; connection errors are logged as warnings under `purpose` (ioredis reconnects by itself). */
export async function connectRedis(url: string, purpose: string, logger: RedisLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  redis.on('error', (error: Error) => logger.warn({ err: { message: error.message } }, `${purpose} redis error`));
  await redis.connect();
  return redis;
}
