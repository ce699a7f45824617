/**
 * The support desk (spec trading-domain §3 "Support ticket types", §7 "Support", §8 toasts; issue 15 §2):
 * ticket types and their ids, the eleven request types and the type each is raised as, the `ext/` calls'
 * payloads, and the spec's toasts and errors word for word. Server and web share them.
 */
import { z } from 'zod';

/** The four ticket types (spec §3). */
export const SUPPORT_TICKET_TYPES = ['query', 'issue', 'access', 'feedback'] as const;
export type SupportTicketType = (typeof SUPPORT_TICKET_TYPES)[number];

/** Ticket type ids, spec §3: the development desk's and production's. `SUPPORT_TICKET_IDS` picks ("3/1/4/2"). */
export const SUPPORT_TICKET_IDS_DEV: Readonly<Record<SupportTicketType, number>> = { query: 3, issue: 1, access: 4, feedback: 2 };
export const SUPPORT_TICKET_IDS_PRODUCTION: Readonly<Record<SupportTicketType, number>> = { query: 5, issue: 1, access: 8, feedback: 6 };

/**
 * Parses `SUPPORT_TICKET_IDS`: four positive integers separated by `/`, in the spec's order query / issue /
 * access / feedback, all different. Throws a readable error otherwise.
 */
export function parseSupportTicketIds(value: string): Record<SupportTicketType, number> {
  const parts = value.split('/').map((part) => part.trim());
  const ids = parts.map(Number);
  if (parts.length !== 4 || ids.some((id) => !Number.isInteger(id) || id <= 0) || new Set(ids).size !== 4)
    throw new Error(
      `SUPPORT_TICKET_IDS must be four different positive integers "query/issue/access/feedback" (e.g. 3/1/4/2), not "${value}"`,
    );
  return { query: ids[0]!, issue: ids[1]!, access: ids[2]!, feedback: ids[3]! };
}

/** The ticket type an id stands for under the given ids, or null. */
export function supportTicketTypeOf(ids: Readonly<Record<SupportTicketType, number>>, id: number): SupportTicketType | null {
  return SUPPORT_TICKET_TYPES.find((type) => ids[type] === id) ?? null;
}

/** The eleven request types (spec §7 "Filters and request types"), as sent on the wire. */
export const SUPPORT_REQUEST_TYPES = [
  'pricing',
  'report_issue',
  'access_to_trade',
  'live_market_upgrade',
  'depth_feature',
  'business_migrate',
  'access',
  'inventory_access',
  'cashflow_upgrade',
  'contact_form',
  'integrate_with_exchange',
] as const;
export type SupportRequestType = (typeof SUPPORT_REQUEST_TYPES)[number];

export const SUPPORT_REQUEST_TYPE_LABELS: Record<SupportRequestType, string> = {
  pricing: 'Pricing',
  report_issue: 'Report issue',
  access_to_trade: 'Access to trade',
  live_market_upgrade: 'Live market upgrade',
  depth_feature: 'Depth feature',
  business_migrate: 'Business migrate',
  access: 'Access',
  inventory_access: 'Inventory access',
  cashflow_upgrade: 'Cashflow upgrade',
  contact_form: 'Contact form',
  integrate_with_exchange: 'Integrate with exchange',
};

/**
 * The ticket type each request type is raised as (the spec lists both but not the pairing; ours): a wrong
 * price or bond detail is an issue; anything that unlocks a feature, a page or a plan is an access request;
 * questions (pricing plans, migrating a business, connecting an exchange, the contact form) are queries.
 * Feedback has no request type: it is raised with the feedback type id alone.
 */
export const SUPPORT_REQUEST_TYPE_TICKET_TYPES: Record<SupportRequestType, SupportTicketType> = {
  pricing: 'query',
  report_issue: 'issue',
  access_to_trade: 'access',
  live_market_upgrade: 'access',
  depth_feature: 'access',
  business_migrate: 'query',
  access: 'access',
  inventory_access: 'access',
  cashflow_upgrade: 'access',
  contact_form: 'query',
  integrate_with_exchange: 'query',
};

/** The request type of an upgrade asked for on a page: the book has its own, a bond's cash flows theirs, every other page asks for access. */
export function upgradeRequestTypeFor(page: string): SupportRequestType {
  if (page.startsWith('/inventory')) return 'inventory_access';
  if (page.startsWith('/security/')) return 'cashflow_upgrade';
  return 'access';
}

/**
 * `POST api/support/requests/` (ours, kept for API clients): its three kinds as desk tickets. An upgrade is an access
 * request by page (above), a report is an issue, a plain support request is a query under the contact form's type.
 */
export const LEGACY_SUPPORT_KIND_REQUEST_TYPES = {
  upgrade: upgradeRequestTypeFor,
  report_issue: () => 'report_issue',
  support: () => 'contact_form',
} as const satisfies Record<'upgrade' | 'report_issue' | 'support', (page: string) => SupportRequestType>;
/** The description a legacy request gets when it has no message. */
export const LEGACY_SUPPORT_DEFAULT_TEXT = {
  upgrade: 'Please upgrade our organisation to the Premium plan.',
  report_issue: 'Reported from the app.',
  support: 'Support requested from the app.',
} as const;

/** Spec §8 toasts, word for word. */
export const SUPPORT_TOASTS = {
  query: 'Your query has been noted. We will respond shortly via email.',
  issue: 'Thank you for reporting the issue. We will update you shortly via email.',
  access: 'Your request has been noted. We will update you shortly via email.',
  feedback: 'Thank you for your valuable feedback',
  contactForm: 'Your message has been noted',
} as const;

/** The toast a created ticket shows: the contact form's own, else its type's. */
export function supportToastFor(type: SupportTicketType, requestType: SupportRequestType | null): string {
  return requestType === 'contact_form' ? SUPPORT_TOASTS.contactForm : SUPPORT_TOASTS[type];
}

/** Spec §8 fallbacks when a response carries no message; ours for the field rules (the spec has none). */
export const SUPPORT_MESSAGES = {
  ticketError: 'Error creating intercom ticket',
  uploadError: 'Error uploading file',
  unknownTicketType: 'Choose a valid ticket type.',
  typeMismatch: (requestType: string, type: SupportTicketType) => `A ${requestType} request is raised as a ${type} ticket.`,
  requestTypeRequired: 'Choose a request type.',
  textRequired: 'Please describe your request.',
  textTooLong: 'Please keep it under 5000 characters.',
  contactsSelf: 'A ticket is raised for your own account.',
  attachmentNotFound: 'Attachment not found.',
  upgradeNotAccess: 'Only an access request can grant an upgrade.',
  alreadyPremium: 'This organisation is already on the Premium plan.',
  tooManyAttachments: 'At most 5 attachments.',
  fileEmpty: 'The file is empty.',
  fileTooLarge: 'Files can be at most 10 MB.',
  fileTypeNotAllowed: 'This file type cannot be attached.',
  ticketNotFound: 'Ticket not found.',
  staffOnly: 'Only Dart Support can do this.',
  firmScopeOpsAdmin: "Only an ops admin sees the organisation's requests.",
  closed: 'This request is closed. Please raise a new one.',
  replyRequired: 'Please write a reply.',
} as const;

export const SUPPORT_LIMITS = { textMaxChars: 5000, attachmentsMax: 5, fileMaxBytes: 10 * 1024 * 1024 } as const;

/** Attachment types (screenshots, documents, sheets). */
export const SUPPORT_FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
] as const;

/** A ticket's life: open → in progress ⇄ waiting on you → resolved → closed (staff move it; see the module README). */
export const SUPPORT_TICKET_STATUSES = ['open', 'in_progress', 'waiting_on_customer', 'resolved', 'closed'] as const;
export type SupportTicketStatus = (typeof SUPPORT_TICKET_STATUSES)[number];
export const SUPPORT_TICKET_STATUS_LABELS: Record<SupportTicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  waiting_on_customer: 'Waiting on you',
  resolved: 'Resolved',
  closed: 'Closed',
};

const attachmentIds = z
  .array(z.uuid({ error: SUPPORT_MESSAGES.attachmentNotFound }))
  .max(SUPPORT_LIMITS.attachmentsMax, { error: SUPPORT_MESSAGES.tooManyAttachments })
  .default([]);
const text = z
  .string({ error: SUPPORT_MESSAGES.textRequired })
  .trim()
  .min(1, { error: SUPPORT_MESSAGES.textRequired })
  .max(SUPPORT_LIMITS.textMaxChars, { error: SUPPORT_MESSAGES.textTooLong });

/** Extras: what the modal adds (the report-issue checkboxes, the bond, the page, pricing details shared with consent). */
export const SupportExtrasSchema = z
  .record(z.string().max(60), z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.string().max(200)).max(20)]))
  .refine((value) => Object.keys(value).length <= 30, { error: 'Too many details.' })
  .default({});

/** `POST ext/tickets/` (spec §7: ticket_type_id, contacts, ticket_attributes; the app's request type, text and extras). */
export const SupportTicketCreateSchema = z.strictObject({
  ticket_type_id: z.number({ error: SUPPORT_MESSAGES.unknownTicketType }).int({ error: SUPPORT_MESSAGES.unknownTicketType }),
  /** Who the ticket is for: the caller (by `id` or `email`); omitted means the caller. */
  contacts: z
    .array(z.strictObject({ id: z.string().max(64).optional(), email: z.string().max(254).optional() }))
    .max(1, { error: SUPPORT_MESSAGES.contactsSelf })
    .default([]),
  ticket_attributes: z.strictObject({
    _default_title_: z.string().trim().max(200).optional(),
    _default_description_: text,
    request_type: z.enum(SUPPORT_REQUEST_TYPES, { error: SUPPORT_MESSAGES.requestTypeRequired }).nullable().optional(),
    extras: SupportExtrasSchema,
    attachment_ids: attachmentIds,
  }),
});
export type SupportTicketCreate = z.input<typeof SupportTicketCreateSchema>;

export const SupportTicketCreatedSchema = z.object({
  id: z.string(),
  number: z.number(),
  ticket_type: z.enum(SUPPORT_TICKET_TYPES),
  ticket_type_id: z.number(),
  request_type: z.enum(SUPPORT_REQUEST_TYPES).nullable(),
  status: z.enum(SUPPORT_TICKET_STATUSES),
  /** The toast to show (spec §8). */
  detail: z.string(),
});

export const SupportAttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
  /** Download path once on a ticket (callers who may see the ticket); null while not yet attached. */
  url: z.string().nullable(),
});
export type SupportAttachment = z.infer<typeof SupportAttachmentSchema>;

export const SupportUploadQuerySchema = z.strictObject({
  fileName: z.string({ error: 'File name is required.' }).trim().min(1, { error: 'File name is required.' }).max(200),
});

export const SupportMessageSchema = z.object({
  id: z.string(),
  /** `staff`: Dart Support (shown under the product name); `user`: the requester or a colleague. */
  author: z.enum(['staff', 'user']),
  author_name: z.string(),
  body: z.string(),
  attachments: z.array(SupportAttachmentSchema),
  created_at: z.string(),
});

export const SupportTicketSummarySchema = z.object({
  id: z.string(),
  number: z.number(),
  title: z.string(),
  ticket_type: z.enum(SUPPORT_TICKET_TYPES),
  ticket_type_id: z.number(),
  request_type: z.enum(SUPPORT_REQUEST_TYPES).nullable(),
  status: z.enum(SUPPORT_TICKET_STATUSES),
  status_label: z.string(),
  requester: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    /** The firm's plan now (staff grant an upgrade on an access request of a Basic firm). */
    client_tier: z.enum(['BASIC', 'PREMIUM']),
  }),
  reply_count: z.number(),
  /** Staff replies the requester has not opened yet (0 for everyone else). */
  unread_replies: z.number(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SupportTicketSummary = z.infer<typeof SupportTicketSummarySchema>;

export const SupportTicketSchema = SupportTicketSummarySchema.extend({
  description: z.string(),
  extras: z.record(z.string(), z.unknown()),
  attachments: z.array(SupportAttachmentSchema),
  messages: z.array(SupportMessageSchema),
});
export type SupportTicket = z.infer<typeof SupportTicketSchema>;

export const SupportTicketListQuerySchema = z.strictObject({
  status: z.enum(SUPPORT_TICKET_STATUSES).optional(),
  /** `mine` (default) or `firm` (ops admins: every request of the organisation). */
  scope: z.enum(['mine', 'firm']).default('mine'),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const SupportQueueQuerySchema = z.strictObject({
  status: z.enum(SUPPORT_TICKET_STATUSES).optional(),
  /** Open work only (open, in progress, waiting on customer) unless a status is given. */
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const SupportTicketListSchema = z.object({
  count: z.number(),
  page: z.number(),
  page_size: z.number(),
  results: z.array(SupportTicketSummarySchema),
});

export const SupportUnreadSchema = z.object({ unread: z.number(), tickets: z.number() });

export const SupportTicketIdParamsSchema = z.strictObject({ id: z.uuid({ error: SUPPORT_MESSAGES.ticketNotFound }) });
export const SupportAttachmentParamsSchema = z.strictObject({
  id: z.uuid({ error: SUPPORT_MESSAGES.ticketNotFound }),
  attachmentId: z.uuid({ error: SUPPORT_MESSAGES.attachmentNotFound }),
});

export const SupportReplySchema = z.strictObject({
  body: z
    .string({ error: SUPPORT_MESSAGES.replyRequired })
    .trim()
    .min(1, { error: SUPPORT_MESSAGES.replyRequired })
    .max(SUPPORT_LIMITS.textMaxChars, { error: SUPPORT_MESSAGES.textTooLong }),
  attachment_ids: attachmentIds,
});

export const SupportStatusChangeSchema = z.strictObject({
  status: z.enum(SUPPORT_TICKET_STATUSES, { error: 'Choose a valid status.' }),
  /** The ticket version the caller read: a stale one is 409. */
  version: z.number().int().min(1),
});

/** `POST ext/tickets/{id}/grant-upgrade/` (ours, Dart Support): the requester's firm moves to Premium; the ticket is resolved. */
export const SupportGrantUpgradeSchema = z.strictObject({
  /** The ticket version the caller read: a stale one is 409. */
  version: z.number().int().min(1),
});
/** The event of a granted upgrade (`account.upgrade_granted`, the firm's outbox): the notification centre tells its users. */
export const ACCOUNT_TOPICS = { upgradeGranted: 'account.upgrade_granted' } as const;

/** `GET ext/support/settings/`: the ticket type ids the desk accepts (`SUPPORT_TICKET_IDS`) and whether the caller is Dart Support staff. */
export const SupportSettingsSchema = z.object({
  ticket_type_ids: z.object({ query: z.number(), issue: z.number(), access: z.number(), feedback: z.number() }),
  staff: z.boolean(),
});
export type SupportSettings = z.infer<typeof SupportSettingsSchema>;
