/**
 * The WhatsApp link (issue 16 §2; spec: `whatsapp_consent` in registration and quotes, `is_whatsapp_linked_channel`).
 * The spec names no paths; ours are under `api/whatsapp/` (apps/server/src/modules/whatsapp/README.md). Consent is
 * kept as a history (time and source); every message that crossed the bridge is kept for compliance.
 */
import { z } from 'zod';

/** Where a consent (or its withdrawal) was given. */
export const WHATSAPP_CONSENT_SOURCES = ['registration', 'quote', 'profile'] as const;
export type WhatsAppConsentSource = (typeof WHATSAPP_CONSENT_SOURCES)[number];

/**
 * A bridged message's status. `queued` and `accepted` are ours (waiting for the bridge; taken by the provider); `sent`,
 * `delivered`, `read` and `failed` are the provider's receipts; `cancelled`: never sent (consent withdrawn before it
 * left, or the user has no mobile any more). Inbound: `received`, then `posted` (in the chat channel) or `unrouted`.
 */
export const WHATSAPP_MESSAGE_STATUSES = [
  'queued',
  'accepted',
  'sent',
  'delivered',
  'read',
  'failed',
  'cancelled',
  'received',
  'posted',
  'unrouted',
] as const;
export type WhatsAppMessageStatus = (typeof WHATSAPP_MESSAGE_STATUSES)[number];
export const WHATSAPP_DIRECTIONS = ['outbound', 'inbound'] as const;
export type WhatsAppDirection = (typeof WHATSAPP_DIRECTIONS)[number];

export const WHATSAPP_PAGE_SIZE = { default: 50, max: 200 } as const;

export const WHATSAPP_MESSAGES = {
  channelNotFound: 'Channel not found.',
  operatorsOnly: 'Only operators of the channel can link it to WhatsApp.',
  directOrGroupOnly: 'Broadcast channels cannot be linked to WhatsApp.',
  pageSize: `Page size must be 1 to ${WHATSAPP_PAGE_SIZE.max}.`,
  page: 'Page must be a whole number from 1.',
} as const;

export const WhatsAppConsentEntrySchema = z.object({
  consented: z.boolean(),
  source: z.enum(WHATSAPP_CONSENT_SOURCES),
  /** The quote id when the source is a quote. */
  source_ref: z.string().nullable(),
  at: z.string(),
});
export type WhatsAppConsentEntry = z.infer<typeof WhatsAppConsentEntrySchema>;

/** `GET` / `PUT api/whatsapp/consent/`: the caller's own consent, as it stands, and its history (newest first). */
export const WhatsAppConsentSchema = z.object({
  consented: z.boolean(),
  /** Where the standing answer was given; null when never asked (no consent). */
  source: z.enum(WHATSAPP_CONSENT_SOURCES).nullable(),
  at: z.string().nullable(),
  /** A mobile number is needed to receive anything. */
  has_mobile: z.boolean(),
  history: z.array(WhatsAppConsentEntrySchema),
});
export type WhatsAppConsent = z.infer<typeof WhatsAppConsentSchema>;

/** `PUT api/whatsapp/consent/`: given or withdrawn from the profile; a withdrawal stops the next message at once. */
export const WhatsAppConsentUpdateSchema = z.strictObject({
  consented: z.boolean({ error: 'Say whether WhatsApp messages may be sent.' }),
});
export type WhatsAppConsentUpdate = z.infer<typeof WhatsAppConsentUpdateSchema>;

export const WhatsAppStatusEntrySchema = z.object({
  status: z.enum(WHATSAPP_MESSAGE_STATUSES),
  at: z.string(),
  reason: z.string().nullable(),
});

export const WhatsAppBridgedMessageSchema = z.object({
  id: z.uuid(),
  direction: z.enum(WHATSAPP_DIRECTIONS),
  user_id: z.uuid().nullable(),
  user_name: z.string().nullable(),
  /** The WhatsApp number, masked but for the last four digits. */
  phone: z.string(),
  channel_url: z.string().nullable(),
  chat_message_id: z.uuid().nullable(),
  kind: z.enum(['template', 'text']),
  template: z.string().nullable(),
  body: z.string(),
  provider_message_id: z.string().nullable(),
  status: z.enum(WHATSAPP_MESSAGE_STATUSES),
  failure_reason: z.string().nullable(),
  status_history: z.array(WhatsAppStatusEntrySchema),
  created_at: z.string(),
});
export type WhatsAppBridgedMessage = z.infer<typeof WhatsAppBridgedMessageSchema>;

export const WhatsAppMessageListQuerySchema = z.strictObject({
  direction: z.enum(WHATSAPP_DIRECTIONS).optional(),
  page: z.coerce.number({ error: WHATSAPP_MESSAGES.page }).int().min(1, { error: WHATSAPP_MESSAGES.page }).optional(),
  page_size: z.coerce
    .number({ error: WHATSAPP_MESSAGES.pageSize })
    .int()
    .min(1, { error: WHATSAPP_MESSAGES.pageSize })
    .max(WHATSAPP_PAGE_SIZE.max, { error: WHATSAPP_MESSAGES.pageSize })
    .optional(),
});

/** `GET api/whatsapp/messages/`: the own firm's bridged messages, newest first (compliance and ops). */
export const WhatsAppMessageListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(WhatsAppBridgedMessageSchema),
});
export type WhatsAppMessageList = z.infer<typeof WhatsAppMessageListSchema>;

export const WhatsAppChannelParamsSchema = z.strictObject({ url: z.string().min(1).max(200) });
/** `PUT api/whatsapp/channels/{url}/link/`: an operator links (or unlinks) a chat channel to WhatsApp. */
export const WhatsAppChannelLinkSchema = z.strictObject({
  linked: z.boolean({ error: 'Say whether the channel is linked to WhatsApp.' }),
});
export const WhatsAppChannelLinkResultSchema = z.object({ url: z.string(), is_whatsapp_linked_channel: z.boolean() });

/**
 * The simulator's inbound webhook (development and tests only, never in production): a user replies on WhatsApp.
 * `context_message_id` is the provider id of the message replied to (WhatsApp's `context.id`).
 */
export const WhatsAppSimulatedInboundSchema = z.strictObject({
  from: z.string().regex(/^\+?\d{10,15}$/, { error: 'Should be a mobile number.' }),
  text: z.string().trim().min(1, { error: 'Type a message.' }).max(4096),
  context_message_id: z.string().max(200).optional(),
});
export const WhatsAppSimulatedInboundResultSchema = z.object({ provider_message_id: z.string() });

/** `GET api/dev/whatsapp/outbox/?to=` (development and tests only): what the simulated endpoint accepted, oldest first. */
export const WhatsAppSimulatedOutboxQuerySchema = z.strictObject({
  to: z
    .string()
    .regex(/^\+?\d{10,15}$/, { error: 'Should be a mobile number.' })
    .optional(),
});
export const WhatsAppSimulatedOutboxSchema = z.object({
  results: z.array(
    z.object({
      provider_message_id: z.string(),
      /** The WhatsApp number, in full: the simulator is the phone's side. */
      to: z.string(),
      kind: z.enum(['template', 'text']),
      template: z.string().nullable(),
      body: z.string(),
      accepted_at: z.string(),
      /** The receipts the simulated phone has produced so far, in order. */
      statuses: z.array(z.enum(['sent', 'delivered', 'read', 'failed'])),
    }),
  ),
});
export type WhatsAppSimulatedOutbox = z.infer<typeof WhatsAppSimulatedOutboxSchema>;
/** `POST api/dev/whatsapp/settle/` (development and tests only): queued and sent everything committed, receipts produced. */
export const WhatsAppSimulatedSettleResultSchema = z.object({ accepted: z.number().int() });
