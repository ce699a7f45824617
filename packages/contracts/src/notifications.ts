/**
 * The notification centre (issue 15 §3): a self-hosted inbox behind the bell. The spec names no paths; ours are
 * under `api/notifications/` (apps/server/src/modules/notifications/README.md). Notifications travel live as
 * user-scoped events on `ws/trade/d/` and show in the spec's notification toast group (`suprsend-notif`, top-right,
 * 20rem) with the notification sound.
 */
import { z } from 'zod';

/** What a notification is about; preferences are kept per category. */
export const NOTIFICATION_CATEGORIES = ['rfq', 'negotiation', 'match', 'deal', 'ticket', 'order', 'support', 'chat', 'account'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const NOTIFICATION_CATEGORY_LABELS: Record<NotificationCategory, string> = {
  rfq: 'RFQs received',
  negotiation: 'Counters and negotiations',
  match: 'Matches',
  deal: 'Deals',
  ticket: 'Ticket actions',
  order: 'Orders (reported, rejected, settled, failed)',
  support: 'Support replies',
  chat: 'Chat invites',
  account: 'Account (upgrades)',
};

/**
 * Trade-critical categories: their in-app notifications cannot be switched off (a counter or a failed settlement
 * must never go unseen). Their e-mail and SMS copies may be.
 */
/**
 * Outbox topics made for the notification centre alone (the firm's sockets get them too, so they carry ids only):
 * a chat invitation (`{channel_url, inviter_id, user_ids}`, one event per invitee's firm).
 */
export const NOTIFY_SOURCE_TOPICS = { chatInvited: 'chat_invites.created' } as const;

export const TRADE_CRITICAL_CATEGORIES: readonly NotificationCategory[] = ['negotiation', 'match', 'deal', 'ticket', 'order'];

export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** A user who has set nothing gets in-app notifications only. */
export const DEFAULT_NOTIFICATION_CHANNELS: Record<NotificationChannel, boolean> = { in_app: true, email: false, sms: false };

/** `POST api/notifications/snooze/`: toasts, sound, e-mail and SMS pause this long; the inbox still fills. */
export const NOTIFICATION_SNOOZE_MS = 60 * 60 * 1000;
export const NOTIFICATION_PAGE_SIZE = { default: 20, max: 100 } as const;

export const NOTIFICATION_MESSAGES = {
  tradeCritical: 'Trade-critical notifications cannot be switched off.',
  notFound: 'Notification not found.',
  duplicateCategory: 'Each category may appear once.',
} as const;

/** Live topics (user-scoped events: only the user's own sockets get them, and a reconnect replays them). */
export const NOTIFICATION_TOPICS = {
  /** A new notification: payload `NotificationCreatedPayload`. */
  created: 'notify.created',
  /** Read on some device: payload `NotificationReadPayload`, so every other device clears it too. */
  read: 'notify.read',
} as const;

export const NotificationSchema = z.object({
  id: z.uuid(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** An in-app path to the thing (`/dart`, `/client/transactions`, …), or null. */
  link: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListQuerySchema = z.strictObject({
  unread: z.enum(['true', 'false']).optional(),
  page: z.coerce
    .number({ error: 'Page must be a whole number from 1.' })
    .int()
    .min(1, { error: 'Page must be a whole number from 1.' })
    .optional(),
  page_size: z.coerce
    .number({ error: `Page size must be 1 to ${NOTIFICATION_PAGE_SIZE.max}.` })
    .int()
    .min(1, { error: `Page size must be 1 to ${NOTIFICATION_PAGE_SIZE.max}.` })
    .max(NOTIFICATION_PAGE_SIZE.max, { error: `Page size must be 1 to ${NOTIFICATION_PAGE_SIZE.max}.` })
    .optional(),
});
export const NotificationListSchema = z.object({
  count: z.number().int(),
  unread: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(NotificationSchema),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

export const NotificationUnreadSchema = z.object({ unread: z.number().int() });
export const NotificationIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Notification not found.' }) });
export const NotificationReadResultSchema = z.object({ notification: NotificationSchema, unread: z.number().int() });
export const NotificationReadAllResultSchema = z.object({ updated: z.number().int(), unread: z.number().int() });

export const NotificationCategoryPreferenceSchema = z.object({
  category: z.enum(NOTIFICATION_CATEGORIES),
  label: z.string(),
  trade_critical: z.boolean(),
  in_app: z.boolean(),
  email: z.boolean(),
  sms: z.boolean(),
});
export type NotificationCategoryPreference = z.infer<typeof NotificationCategoryPreferenceSchema>;
export const NotificationPreferencesSchema = z.object({
  categories: z.array(NotificationCategoryPreferenceSchema),
  /** While in the future, new notifications are stored silently (no toast, sound, e-mail or SMS). */
  snoozed_until: z.string().nullable(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

const channelFlag = z.boolean({ error: 'Must be on (true) or off (false).' }).optional();
export const NotificationPreferencesUpdateSchema = z.strictObject({
  categories: z
    .array(
      z.strictObject({
        category: z.enum(NOTIFICATION_CATEGORIES, { error: 'Unknown notification category.' }),
        in_app: channelFlag,
        email: channelFlag,
        sms: channelFlag,
      }),
    )
    .min(1, { error: 'Name at least one category.' })
    .max(NOTIFICATION_CATEGORIES.length, { error: 'Each category may appear once.' }),
});
export type NotificationPreferencesUpdate = z.infer<typeof NotificationPreferencesUpdateSchema>;

export const NotificationSnoozeSchema = z.object({ snoozed_until: z.string() });

export const NotificationCreatedPayloadSchema = z.object({
  notification: NotificationSchema,
  unread: z.number().int(),
  /** True while the user has snoozed: update the bell, but no toast and no sound. */
  silent: z.boolean(),
});
export type NotificationCreatedPayload = z.infer<typeof NotificationCreatedPayloadSchema>;
export const NotificationReadPayloadSchema = z.object({
  /** The ids read, or null when everything was (read-all). */
  ids: z.array(z.uuid()).nullable(),
  read_at: z.string(),
  unread: z.number().int(),
});
export type NotificationReadPayload = z.infer<typeof NotificationReadPayloadSchema>;
