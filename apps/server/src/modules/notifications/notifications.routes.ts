/**
 * The notification centre's HTTP edge (ours; the spec names no paths; README "Calls"). Every caller is signed in
 * and acts on their own inbox; view-only roles may read and mark read (the inbox is not a business write).
 */
import {
  NotificationIdParamsSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationPreferencesSchema,
  NotificationPreferencesUpdateSchema,
  NotificationReadAllResultSchema,
  NotificationReadResultSchema,
  NotificationSnoozeSchema,
  NotificationUnreadSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { NotificationsService } from './notifications.service';

/** Any signed-in user, view-only roles included: their own inbox and preferences only. */
const SIGNED_IN: AccessPolicy = { kind: 'authenticated' };

export function registerNotificationsRoutes(app: FastifyInstance, service: NotificationsService): void {
  const tags = ['notifications'];
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { policy: SIGNED_IN };

  r.get(
    '/api/notifications/',
    {
      config,
      schema: {
        tags,
        summary: 'My notifications, newest first, paged (unread=true: unread only)',
        querystring: NotificationListQuerySchema,
        response: { 200: NotificationListSchema },
      },
    },
    async (request) => service.list(request.principal!, request.query),
  );
  r.get(
    '/api/notifications/unread-count/',
    {
      config,
      schema: { tags, summary: 'How many of my notifications are unread (the bell)', response: { 200: NotificationUnreadSchema } },
    },
    async (request) => service.unread(request.principal!),
  );
  r.post(
    '/api/notifications/:id/read/',
    {
      config,
      schema: {
        tags,
        summary: 'Marks one of my notifications read, on every device',
        params: NotificationIdParamsSchema,
        response: { 200: NotificationReadResultSchema },
      },
    },
    async (request) => service.markRead(request.principal!, request.params.id),
  );
  r.post(
    '/api/notifications/read-all/',
    {
      config,
      schema: { tags, summary: 'Marks all my notifications read, on every device', response: { 200: NotificationReadAllResultSchema } },
    },
    async (request) => service.markAllRead(request.principal!),
  );
  r.get(
    '/api/notifications/preferences/',
    {
      config,
      schema: { tags, summary: 'My notification preferences per category and channel', response: { 200: NotificationPreferencesSchema } },
    },
    async (request) => service.preferences(request.principal!),
  );
  r.put(
    '/api/notifications/preferences/',
    {
      config,
      schema: {
        tags,
        summary: "Changes channels per category; a trade-critical category's in-app channel cannot be switched off",
        body: NotificationPreferencesUpdateSchema,
        response: { 200: NotificationPreferencesSchema },
      },
    },
    async (request) => service.updatePreferences(request.principal!, request.body),
  );
  r.post(
    '/api/notifications/snooze/',
    {
      config,
      schema: {
        tags,
        summary: 'Silences toasts, sound, e-mail and SMS for an hour (the inbox still fills)',
        response: { 200: NotificationSnoozeSchema },
      },
    },
    async (request) => service.snooze(request.principal!),
  );
}
