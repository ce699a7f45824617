/**
 * EventBus: fan-out between nodes. In-process by default; Redis pub/sub when REDIS_URL is set.
 * Pub/sub is at-most-once, so every message carries a position and consumers catch up from the
 * events table after a reconnect. Messages published while this node's subscription was down are lost
 * to it: `onResync` tells subscribers once the subscription is back, so caches that other nodes clear
 * through the bus (market runs/depth, principals) are cleared then.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface BusMessage {
  topic: string;
  position?: number;
  clientId?: string | null;
  /** A user-scoped event (a notification): only that user's sockets get it. */
  userId?: string | null;
  payload: unknown;
}

export interface EventBus {
  kind: 'memory' | 'redis';
  publish(message: BusMessage): Promise<void>;
  subscribe(handler: (message: BusMessage) => void): () => void;
  /**
   * Called each time the subscription is (re)established after a connection loss, once messages flow
   * again: anything published in between may have been missed, so bus-invalidated caches must be
   * dropped. Never called for the in-process bus (it cannot miss a message). Returns the unsubscribe.
   */
  onResync(handler: () => void): () => void;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export function createMemoryBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    publish: async (message) => {
      emitter.emit('message', message);
    },
    subscribe: (handler) => {
      emitter.on('message', handler);
      return () => emitter.off('message', handler);
    },
    onResync: () => () => undefined,
    healthy: async () => true,
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * `channel` must be shared by exactly the nodes that share one database (app.ts derives it from the
 * database identity), so deployments or test suites on other databases never see each other's events.
 */
export async function createRedisBus(url: string, logger: Logger, channel: string): Promise<EventBus> {
  // Redis down: commands fail at once (no offline queue); Redis slow: after 2 s. Either way a publish
  // rejects instead of hanging, and publishers treat it as a lost publish (consumers catch up by position).
  const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2000 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  for (const connection of [publisher, subscriber])
    connection.on('error', (error: Error) => logger.warn({ err: { message: error.message } }, 'redis connection error'));
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Set<(message: BusMessage) => void>();
  subscriber.on('message', (_channel: string, raw: string) => {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    for (const handler of handlers) handler(message);
  });
  await subscriber.subscribe(channel);
  // ioredis reconnects on its own and resubscribes; on every 'ready' after the first we subscribe again
  // ourselves (a repeated SUBSCRIBE is harmless) and, once Redis confirms it, tell the subscribers that
  // messages may have been missed while the connection was down.
  const resyncHandlers = new Set<() => void>();
  let closed = false;
  subscriber.on('ready', () => {
    if (closed) return;
    subscriber
      .subscribe(channel)
      .then(() => {
        logger.info({ channel }, 'redis bus resubscribed: clearing bus-invalidated caches');
        for (const handler of resyncHandlers) handler();
      })
      .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'redis bus resubscribe failed'));
  });
  return {
    kind: 'redis',
    publish: async (message) => {
      await publisher.publish(channel, JSON.stringify(message));
    },
    subscribe: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    onResync: (handler) => {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
    healthy: async () => {
      try {
        return (await publisher.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    close: async () => {
      closed = true;
      handlers.clear();
      resyncHandlers.clear();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
