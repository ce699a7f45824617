/**
 * The notification centre's surface (issue 15 §3): the inbox calls, the producer that turns outbox events into
 * notifications on the elected node, and the live audience the gateway fans them out to sockets with (README).
 */
import type { FastifyInstance } from 'fastify';
import type { LiveAudience } from '../../lib/live-audience';
import { createNotificationsLiveAudience } from './notifications.live';
import { createNotificationProducer, type NotificationProducer } from './notifications.producer';
import { registerNotificationsRoutes } from './notifications.routes';
import { createNotificationsService, type NotificationsService } from './notifications.service';

export type { NotificationProducer } from './notifications.producer';

export interface NotificationsModule {
  service: NotificationsService;
  /** Tests and the benchmark call `producer.drain()` to make notifications of everything committed so far. */
  producer: NotificationProducer;
  /** For the live gateway: each socket's copy of a `notify.created` (fan-out on read) and its unread count. */
  liveAudience: LiveAudience;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationsModule;
  }
}

export function registerNotifications(app: FastifyInstance, isLeader: () => boolean): NotificationsModule {
  const service = createNotificationsService(app.deps);
  const producer = createNotificationProducer(app.deps, { logger: app.log });
  registerNotificationsRoutes(app, service);
  producer.start(isLeader);
  app.addHook('onClose', async () => {
    await producer.stop();
  });
  const module = { service, producer, liveAudience: createNotificationsLiveAudience() };
  app.decorate('notifications', module);
  return module;
}
