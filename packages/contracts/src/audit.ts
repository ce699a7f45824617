/**
 * The audit trail as compliance reads it (/surveillance): the readable label of every action code the
 * server writes, the categories the page filters by, and the list / export query and answer schemas.
 *
 * Every `action` the server passes to `writeAudit` must have a label here; a server test scans the
 * source for them and fails on a missing one (apps/server/test/audit-labels.test.ts).
 */
import { z } from 'zod';

/** Action families, by the code's prefix (`chat.left` → `chat`), with the label the filter shows. */
export const AUDIT_CATEGORIES = {
  auth: 'Sign-in and security',
  user: 'Users and profiles',
  client: 'Organisation',
  invite: 'Invitations',
  chat: 'Chat',
  quote: 'Quotes',
  negotiation: 'Negotiations',
  cluster: 'Matches',
  deal: 'Deals',
  ticket: 'Tickets',
  order: 'Orders and settlement',
  inventory: 'Inventory',
  rfq: 'Exchange RFQs',
  exchange: 'Exchange',
  workspace: 'Workspace',
  support: 'Support',
  contact: 'Contact form',
  surveillance: 'Surveillance alerts',
  recording: 'Session recording',
} as const;
export type AuditCategory = keyof typeof AUDIT_CATEGORIES;
export const AUDIT_CATEGORY_CODES = Object.keys(AUDIT_CATEGORIES) as [AuditCategory, ...AuditCategory[]];

/** The readable text of each action code, as a sentence fragment ("Quote posted"). */
export const AUDIT_ACTION_LABELS = {
  'auth.login': 'Signed in',
  'auth.login_failed': 'Sign-in failed',
  'auth.logout': 'Signed out',
  'auth.refresh_reused': 'Reused sign-in token refused, session ended',
  'auth.otp_requested': 'One-time password requested',
  'auth.otp_failed': 'Wrong one-time password entered',
  'auth.password_reset_requested': 'Password reset requested',
  'auth.password_changed': 'Password changed',
  'client.created': 'Organisation registered',
  'client.exchange_credentials_set': 'Exchange credentials set (NSCCL / ICCL)',
  'user.created': 'User created',
  'user.registered': 'User registered',
  'user.profile_updated': 'Profile updated',
  'user.security_preference_changed': 'Security preference changed',
  'user.display_preferences_changed': 'Display preferences changed',
  'invite.created': 'User invited',
  'invite.revoked': 'Invitation revoked',
  'invite.resent': 'Invitation sent again',
  'user.roles_changed': 'User roles changed',
  'user.deactivated': 'User deactivated',
  'user.reactivated': 'User reactivated',
  'client.profile_updated': 'Organisation details updated',
  'client.offline_recorded': 'Offline counterparty recorded',
  'chat.session_issued': 'Chat opened for this sign-in',
  'chat.session_removed': 'Chat sessions ended',
  'chat.terms_accepted': 'Chat terms accepted',
  'chat.channel_created': 'Chat created',
  'chat.invited': 'Members invited to chat',
  'chat.invitation_accepted': 'Chat invitation accepted',
  'chat.invitation_declined': 'Chat invitation declined',
  'chat.left': 'Left chat',
  'chat.operators_changed': 'Chat operators changed',
  'chat.banned': 'Member removed from chat',
  'chat.message_edited': 'Chat message edited',
  'chat.message_deleted': 'Chat message deleted',
  'chat.exported': 'Chat exported',
  'chat.whatsapp_link_changed': 'Chat linked or unlinked to WhatsApp',
  'user.whatsapp_consent_changed': 'WhatsApp consent given or withdrawn',
  'quote.created': 'Quote posted',
  'quote.updated': 'Quote updated',
  'quote.closed': 'Quote closed',
  'quote.expired': 'Quote expired',
  'quote.replaced': 'Quote replaced',
  'quote.uploaded': 'Quotes uploaded',
  'negotiation.counter': 'Counter-offer made',
  'negotiation.accept': 'Counter-offer accepted',
  'negotiation.reject': 'Counter-offer rejected',
  'cluster.created': 'Match proposed',
  'cluster.leg_accepted': 'Match accepted by one side',
  'cluster.closed': 'Match closed',
  'deal.created': 'Deal done',
  'ticket.created': 'Ticket created',
  'ticket.send': 'Ticket sent',
  'ticket.price': 'Ticket priced',
  'ticket.edit': 'Ticket terms changed',
  'ticket.members': 'Ticket members changed',
  'ticket.send_to_broker': 'Ticket sent to broker',
  'ticket.brokerage': 'Brokerage set',
  'ticket.accept_consideration': 'Consideration accepted',
  'ticket.confirmed': 'Trade confirmed',
  'ticket.reject': 'Ticket rejected',
  'ticket.cancel': 'Ticket cancelled',
  'ticket.reported': 'Trade reported to the exchange',
  'ticket.report_alert': 'Trade unreported after 10 minutes',
  'ticket.report_escalated': 'Trade unreported at the 15-minute deadline',
  'ticket.settled': 'Trade settled',
  'ticket.settlement_failed': 'Settlement failed',
  'ticket.order_cancelled': 'Trade cancelled',
  'order.created': 'Order booked',
  'order.reported': 'Order reported to the exchange',
  'order.report_failed': 'Order report failed, retrying',
  'order.mismatch': 'Order report refused: terms differ',
  'order.accepted': 'Reported order accepted',
  'order.rejected': 'Reported order rejected (consideration)',
  'order.modified': 'Order modified',
  'order.resubmitted': 'Order report resubmitted',
  'order.cancelled': 'Order cancelled',
  'order.settled': 'Order settled',
  'order.settlement_failed': 'Order settlement failed',
  'order.settlement_retried': 'Settlement retried',
  'exchange.cancel_failed': 'Exchange cancellation failed',
  'inventory.uploaded': 'Holdings uploaded',
  'inventory.external_trade': 'External trade recorded in the book',
  'inventory.order_settled': 'Settled order moved the book',
  'inventory.order_not_booked': 'Settled order not booked (no holding to sell)',
  'inventory.valuation_cost_edited': 'Valuation cost changed',
  'inventory.book_confirmed': "Previous day's book confirmed",
  'support.requested': 'Support requested',
  'support.ticket_created': 'Support ticket raised',
  'support.attachment_uploaded': 'Support attachment uploaded',
  'support.ticket_replied': 'Support ticket replied to',
  'support.ticket_status_changed': 'Support ticket status changed',
  'support.ticket_read': 'Support replies read',
  'support.upgrade_granted': 'Upgrade to Premium granted',
  'contact.submitted': 'Contact form sent',
  'surveillance.alert_assigned': 'Surveillance alert assigned',
  'surveillance.alert_commented': 'Surveillance alert commented on',
  'surveillance.alert_escalated': 'Surveillance alert escalated',
  'surveillance.alert_closed': 'Surveillance alert closed',
  'surveillance.alerts_exported': 'Surveillance alerts exported',
  'surveillance.evidence_downloaded': 'Surveillance evidence pack downloaded',
  'surveillance.chat_read': 'Chat read by compliance',
  'recording.started': 'Session recording started',
  'recording.viewed': 'Recorded session replayed',
} as const satisfies Record<string, string>;
export type AuditActionCode = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTION_LABELS) as [AuditActionCode, ...AuditActionCode[]];

export function isAuditActionCode(code: string): code is AuditActionCode {
  return Object.hasOwn(AUDIT_ACTION_LABELS, code);
}

/**
 * The readable text of an action code. A code without a label (a row older than its label, which the
 * label test prevents for new code) reads as words rather than as the code: `rfq.raised` → "Rfq raised".
 */
export function auditActionLabel(code: string): string {
  if (isAuditActionCode(code)) return AUDIT_ACTION_LABELS[code];
  const words = code.replace(/[._]+/g, ' ').trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : 'Unknown action';
}

/** The category of an action code (its prefix), or null for a prefix the filter does not know. */
export function auditCategoryOf(code: string): AuditCategory | null {
  const prefix = code.split('.')[0] ?? '';
  return Object.hasOwn(AUDIT_CATEGORIES, prefix) ? (prefix as AuditCategory) : null;
}

/** Filters the surveillance list and its export share. Days are India Standard Time calendar days. */
export const AUDIT_FILTER_MESSAGES = {
  dateOrder: 'The end date must be on or after the start date.',
  date: 'Should be a date (yyyy-mm-dd).',
  user: 'Choose a user from the list.',
  search: 'Search is at most 100 characters.',
  exportTooLarge: 'The export holds at most 50,000 entries: narrow the dates or filters.',
} as const;

const auditDay = z.iso.date({ error: AUDIT_FILTER_MESSAGES.date });
const AuditFilterFields = {
  /** First day included (IST). */
  from: auditDay.optional(),
  /** Last day included (IST). */
  to: auditDay.optional(),
  user_id: z.uuid({ error: AUDIT_FILTER_MESSAGES.user }).optional(),
  category: z.enum(AUDIT_CATEGORY_CODES).optional(),
  action: z.enum(AUDIT_ACTION_CODES).optional(),
  /** Free text: matched against the user's name and e-mail, the firm, the action's text and the entity's name. */
  q: z.string().trim().max(100, { error: AUDIT_FILTER_MESSAGES.search }).optional(),
};
const fromBeforeTo = (value: { from?: string | undefined; to?: string | undefined }) => !value.from || !value.to || value.from <= value.to;

export const AUDIT_PAGE_SIZE_MAX = 100;
/** Rows one CSV export holds at most; a longer trail is narrowed with the filters first. */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

export const AuditExportQuerySchema = z
  .strictObject(AuditFilterFields)
  .refine(fromBeforeTo, { path: ['to'], error: AUDIT_FILTER_MESSAGES.dateOrder });
export type AuditExportQuery = z.infer<typeof AuditExportQuerySchema>;

export const AuditListQuerySchema = z
  .strictObject({
    ...AuditFilterFields,
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    page_size: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(20),
  })
  .refine(fromBeforeTo, { path: ['to'], error: AUDIT_FILTER_MESSAGES.dateOrder });
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

/** One trail entry, readable: names instead of ids, the action in words, the details as text. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Acting user's full name; null for the system or an anonymous caller. */
  actor_name: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** Acting user's firm. */
  actor_client_name: z.string().nullable(),
  action: z.string(),
  action_label: z.string(),
  category: z.enum(AUDIT_CATEGORY_CODES).nullable(),
  /** What the action was on, in words ("Quote", "Chat", "Deal"). */
  entity_label: z.string(),
  /** The entity's human name where it has one: bond name, chat name, person or firm. */
  entity_name: z.string().nullable(),
  /** Readable details ("Price 101.2500 · Yield 7.1200%"); empty when there are none. */
  details: z.string(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListSchema = z.object({ results: z.array(AuditEntrySchema), count: z.number() });
export type AuditList = z.infer<typeof AuditListSchema>;

/** The people of the caller's firm, for the user filter. */
export const AuditUserListSchema = z.object({
  results: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })),
});
export type AuditUserList = z.infer<typeof AuditUserListSchema>;

/** The CSV export's columns, in order (the header row). */
export const AUDIT_EXPORT_COLUMNS = ['When (IST)', 'User', 'Email', 'Firm', 'Action', 'On', 'Name', 'Details', 'IP address'] as const;

/**
 * `GET api/surveillance/audit/integrity/`: the whole trail's tamper evidence checked now (every row's hash and every
 * seal, `verifyAuditChain`). `intact` false: a row was changed, removed, added or moved. `sealed_through`: when the
 * last seal was made (rows after it are protected by their hash and the append-only triggers until the next one).
 */
export const AuditIntegritySchema = z.object({
  intact: z.boolean(),
  checked_at: z.string(),
  sealed_through: z.string().nullable(),
});
export type AuditIntegrity = z.infer<typeof AuditIntegritySchema>;
