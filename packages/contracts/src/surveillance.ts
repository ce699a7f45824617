/**
 * Surveillance alerts (issue 16 §1): alerts the server raises from Dart's own data (off-market prices, late or
 * missing exchange reporting, the chat lexicon, chat before trade, quote spoofing / layering, wash trades), each
 * with its evidence and a score 0-100, and their triage by the firm's compliance officers. The spec names no paths;
 * ours are under `api/surveillance/alerts/` (apps/server/src/modules/surveillance/README.md).
 */
import { z } from 'zod';

export const SURVEILLANCE_ALERT_KINDS = [
  'off_market',
  'late_report',
  'chat_lexicon',
  'chat_before_trade',
  'spoofing',
  'wash_trade',
] as const;
export type SurveillanceAlertKind = (typeof SURVEILLANCE_ALERT_KINDS)[number];

export const SURVEILLANCE_ALERT_KIND_LABELS: Record<SurveillanceAlertKind, string> = {
  off_market: 'Off-market price',
  late_report: 'Late or missing exchange reporting',
  chat_lexicon: 'Chat lexicon',
  chat_before_trade: 'Chat before trade',
  spoofing: 'Quote spoofing / layering',
  wash_trade: 'Wash or circular trade',
};

export const SURVEILLANCE_ALERT_STATUSES = ['open', 'assigned', 'escalated', 'closed'] as const;
export type SurveillanceAlertStatus = (typeof SURVEILLANCE_ALERT_STATUSES)[number];
export const SURVEILLANCE_ALERT_STATUS_LABELS: Record<SurveillanceAlertStatus, string> = {
  open: 'Open',
  assigned: 'Assigned',
  escalated: 'Escalated',
  closed: 'Closed',
};

export const SURVEILLANCE_TRIAGE_ACTIONS = ['assign', 'comment', 'escalate', 'close'] as const;
export type SurveillanceTriageAction = (typeof SURVEILLANCE_TRIAGE_ACTIONS)[number];

export const SURVEILLANCE_MESSAGES = {
  date: 'Should be a date (yyyy-mm-dd).',
  dateOrder: 'The end date must be on or after the start date.',
  assignee: 'Choose a compliance officer of your firm.',
  comment: 'Write a comment.',
  commentTooLong: 'A comment is at most 2,000 characters.',
  reason: 'Give the reason for closing the alert.',
  closed: 'This alert is closed.',
  notFound: 'Alert not found.',
  exportTooLarge: 'The export holds at most 10,000 alerts: narrow the dates or filters.',
} as const;

export const SURVEILLANCE_PAGE_SIZE = { default: 20, max: 100 } as const;
export const SURVEILLANCE_EXPORT_MAX_ROWS = 10_000;
export const SURVEILLANCE_COMMENT_MAX = 2_000;

const day = z.iso.date({ error: SURVEILLANCE_MESSAGES.date });
const SurveillanceFilterFields = {
  kind: z.enum(SURVEILLANCE_ALERT_KINDS).optional(),
  status: z.enum(SURVEILLANCE_ALERT_STATUSES).optional(),
  assignee: z.uuid({ error: SURVEILLANCE_MESSAGES.assignee }).optional(),
  /** First day included (IST), on the alert's creation. */
  from: day.optional(),
  /** Last day included (IST). */
  to: day.optional(),
};
const fromBeforeTo = (value: { from?: string | undefined; to?: string | undefined }) => !value.from || !value.to || value.from <= value.to;

export const SurveillanceAlertListQuerySchema = z
  .strictObject({
    ...SurveillanceFilterFields,
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    page_size: z.coerce.number().int().min(1).max(SURVEILLANCE_PAGE_SIZE.max).default(SURVEILLANCE_PAGE_SIZE.default),
    /** `csv`: the filtered alerts as a CSV file (no paging). */
    format: z.enum(['json', 'csv']).default('json'),
  })
  .refine(fromBeforeTo, { path: ['to'], error: SURVEILLANCE_MESSAGES.dateOrder });
export type SurveillanceAlertListQuery = z.infer<typeof SurveillanceAlertListQuerySchema>;

export const SurveillanceAlertIdParamsSchema = z.strictObject({ id: z.uuid() });

/** One piece of evidence: what it is, its id, and a readable excerpt (the firm's own side only). */
export const SurveillanceEvidenceItemSchema = z.object({
  type: z.enum(['chat_message', 'chat_file', 'quote', 'deal', 'ticket', 'order', 'audit']),
  id: z.string(),
  at: z.string().nullable(),
  excerpt: z.string(),
});
export type SurveillanceEvidenceItem = z.infer<typeof SurveillanceEvidenceItemSchema>;

export const SurveillanceAlertSchema = z.object({
  id: z.string(),
  kind: z.enum(SURVEILLANCE_ALERT_KINDS),
  kind_label: z.string(),
  score: z.number().int().min(0).max(100),
  status: z.enum(SURVEILLANCE_ALERT_STATUSES),
  status_label: z.string(),
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  title: z.string(),
  summary: z.string(),
  occurred_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SurveillanceAlert = z.infer<typeof SurveillanceAlertSchema>;

export const SurveillanceAlertListSchema = z.object({ results: z.array(SurveillanceAlertSchema), count: z.number() });
export type SurveillanceAlertList = z.infer<typeof SurveillanceAlertListSchema>;

export const SurveillanceAlertEventSchema = z.object({
  id: z.string(),
  action: z.enum(SURVEILLANCE_TRIAGE_ACTIONS),
  actor_name: z.string(),
  assignee_name: z.string().nullable(),
  comment: z.string().nullable(),
  from_status: z.enum(SURVEILLANCE_ALERT_STATUSES),
  to_status: z.enum(SURVEILLANCE_ALERT_STATUSES),
  at: z.string(),
});
export type SurveillanceAlertEvent = z.infer<typeof SurveillanceAlertEventSchema>;

export const SurveillanceAlertDetailSchema = SurveillanceAlertSchema.extend({
  evidence: z.array(SurveillanceEvidenceItemSchema),
  /** Numbers behind the score (the reference yield and band, the minutes late, the phrases matched …). */
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** Other alerts of the same firm about the same counterparty pair within 7 days (e.g. a lexicon hit, then an off-market deal). */
  linked_alert_ids: z.array(z.string()),
  history: z.array(SurveillanceAlertEventSchema),
});
export type SurveillanceAlertDetail = z.infer<typeof SurveillanceAlertDetailSchema>;

const comment = z
  .string({ error: SURVEILLANCE_MESSAGES.comment })
  .trim()
  .min(1, { error: SURVEILLANCE_MESSAGES.comment })
  .max(SURVEILLANCE_COMMENT_MAX, { error: SURVEILLANCE_MESSAGES.commentTooLong });

export const SurveillanceAssignSchema = z.strictObject({
  assignee_id: z.uuid({ error: SURVEILLANCE_MESSAGES.assignee }),
  comment: comment.optional(),
});
export type SurveillanceAssign = z.infer<typeof SurveillanceAssignSchema>;
export const SurveillanceCommentSchema = z.strictObject({ comment });
export type SurveillanceComment = z.infer<typeof SurveillanceCommentSchema>;
export const SurveillanceEscalateSchema = z.strictObject({ comment: comment.optional() });
export type SurveillanceEscalate = z.infer<typeof SurveillanceEscalateSchema>;
export const SurveillanceCloseSchema = z.strictObject({
  reason: z
    .string({ error: SURVEILLANCE_MESSAGES.reason })
    .trim()
    .min(1, { error: SURVEILLANCE_MESSAGES.reason })
    .max(SURVEILLANCE_COMMENT_MAX, { error: SURVEILLANCE_MESSAGES.commentTooLong }),
});
export type SurveillanceClose = z.infer<typeof SurveillanceCloseSchema>;

/** The CSV export's columns, in order (the header row). */
export const SURVEILLANCE_EXPORT_COLUMNS = [
  'Raised (IST)',
  'Kind',
  'Score',
  'Status',
  'Assignee',
  'Title',
  'Summary',
  'Occurred (IST)',
  'Alert id',
] as const;

/* ---------------------------------------------------------------------------------------------------------------
 * The firm's chats as its compliance officers read them (issue 16 §1: "reads all of the own firm's chats"): every
 * channel with at least one member (past or present) of the firm, and its messages in a period, oldest first. Ours:
 * `GET api/surveillance/chats/` and `GET api/surveillance/chats/{id}/messages/`; the transcript file is the spec's
 * `POST /api/download-chats` (one channel url, a period).
 * ------------------------------------------------------------------------------------------------------------- */

export const SURVEILLANCE_CHAT_MESSAGES = {
  notFound: 'Chat not found.',
  searchTooLong: 'Search is at most 100 characters.',
} as const;
export const SURVEILLANCE_CHAT_PAGE_SIZE = { default: 20, max: 100 } as const;
export const SURVEILLANCE_CHAT_MESSAGE_PAGE_SIZE = { default: 50, max: 200 } as const;

export const SurveillanceChatListQuerySchema = z.strictObject({
  /** Part of the chat's name, or of a member's name or firm (case-insensitive). */
  search: z.string().trim().max(100, { error: SURVEILLANCE_CHAT_MESSAGES.searchTooLong }).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(SURVEILLANCE_CHAT_PAGE_SIZE.max).default(SURVEILLANCE_CHAT_PAGE_SIZE.default),
});
export type SurveillanceChatListQuery = z.infer<typeof SurveillanceChatListQuerySchema>;

export const SurveillanceChatIdParamsSchema = z.strictObject({ id: z.uuid() });

export const SurveillanceChatMemberSchema = z.object({
  name: z.string(),
  firm: z.string(),
  /** A member of the caller's firm. */
  own_firm: z.boolean(),
  /** Platform staff (shown to members under the product name). */
  staff: z.boolean(),
  /** No longer a member (left, declined or banned); past members stay listed for compliance. */
  left: z.boolean(),
});
export type SurveillanceChatMember = z.infer<typeof SurveillanceChatMemberSchema>;

export const SurveillanceChatSchema = z.object({
  id: z.string(),
  /** The channel url: what `POST /api/download-chats` takes. */
  url: z.string(),
  name: z.string(),
  /** The chat's kind as chat stores it: direct, group, trading group or broadcast. */
  type: z.string(),
  whatsapp_linked: z.boolean(),
  members: z.array(SurveillanceChatMemberSchema),
  message_count: z.number().int(),
  last_message_at: z.string().nullable(),
  created_at: z.string(),
});
export type SurveillanceChat = z.infer<typeof SurveillanceChatSchema>;

export const SurveillanceChatListSchema = z.object({ results: z.array(SurveillanceChatSchema), count: z.number() });
export type SurveillanceChatList = z.infer<typeof SurveillanceChatListSchema>;

export const SurveillanceChatMessagesQuerySchema = z
  .strictObject({
    /** First day included (IST), on the message's time. */
    from: day.optional(),
    /** Last day included (IST). */
    to: day.optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    page_size: z.coerce
      .number()
      .int()
      .min(1)
      .max(SURVEILLANCE_CHAT_MESSAGE_PAGE_SIZE.max)
      .default(SURVEILLANCE_CHAT_MESSAGE_PAGE_SIZE.default),
  })
  .refine(fromBeforeTo, { path: ['to'], error: SURVEILLANCE_MESSAGES.dateOrder });
export type SurveillanceChatMessagesQuery = z.infer<typeof SurveillanceChatMessagesQuerySchema>;

export const SurveillanceChatMessageSchema = z.object({
  id: z.string(),
  /** The message's gap-free number in its channel. */
  position: z.number().int(),
  /** user (text), file, or admin (a system line). */
  type: z.string(),
  /** The sender's name; null for a system message. */
  sender_name: z.string().nullable(),
  sender_firm: z.string().nullable(),
  sender_staff: z.boolean(),
  /** The current text (kept after a delete: the compliance copy). */
  text: z.string(),
  file_name: z.string().nullable(),
  file_size: z.number().int().nullable(),
  created_at: z.string(),
  /** Every earlier version of an edited message, oldest first: the text before each edit and when it was edited. */
  edits: z.array(z.object({ previous_text: z.string(), edited_at: z.string() })),
  deleted_at: z.string().nullable(),
});
export type SurveillanceChatMessage = z.infer<typeof SurveillanceChatMessageSchema>;

export const SurveillanceChatMessageListSchema = z.object({
  chat: SurveillanceChatSchema,
  results: z.array(SurveillanceChatMessageSchema),
  count: z.number(),
});
export type SurveillanceChatMessageList = z.infer<typeof SurveillanceChatMessageListSchema>;
