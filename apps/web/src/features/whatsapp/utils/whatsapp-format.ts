/**
 * Words and colours of the WhatsApp link (issue 16 §2) for the consent switch and the message log. The spec names
 * none: ours, kept beside each other so the profile and the log say the same thing.
 */
import type { WhatsAppConsent, WhatsAppConsentEntry, WhatsAppConsentSource, WhatsAppMessageStatus } from '@dart/contracts';

export const WHATSAPP_STATUS_LABELS: Record<WhatsAppMessageStatus, string> = {
  queued: 'Queued',
  accepted: 'Accepted',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  cancelled: 'Cancelled',
  received: 'Received',
  posted: 'Posted to chat',
  unrouted: 'Not routed',
};

/** Mantine colours: grey while waiting, blue on the way, green arrived, red failed, yellow stopped or stranded. */
export const WHATSAPP_STATUS_COLORS: Record<WhatsAppMessageStatus, string> = {
  queued: 'gray',
  accepted: 'gray',
  sent: 'blue',
  delivered: 'teal',
  read: 'green',
  failed: 'red',
  cancelled: 'yellow',
  received: 'blue',
  posted: 'green',
  unrouted: 'yellow',
};

/** Where an answer was given, as the end of "Given …": "from your profile". */
export const CONSENT_SOURCE_TEXT: Record<WhatsAppConsentSource, string> = {
  registration: 'when you registered',
  quote: 'on a quote',
  profile: 'from your profile',
};

/**
 * The standing answer in one line: "Given from your profile on 11/27/26 18:04:10", "Withdrawn …", or "Not given"
 * when the user was never asked.
 * @param formatAt the viewer's date-time format (`formatDateTime`)
 */
export function describeConsent(consent: Pick<WhatsAppConsent, 'consented' | 'source' | 'at'>, formatAt: (iso: string) => string): string {
  if (!consent.source || !consent.at) return consent.consented ? 'Given' : 'Not given';
  return `${consent.consented ? 'Given' : 'Withdrawn'} ${CONSENT_SOURCE_TEXT[consent.source]} on ${formatAt(consent.at)}`;
}

/** One history row: the same words as the standing answer. */
export function describeConsentEntry(entry: WhatsAppConsentEntry, formatAt: (iso: string) => string): string {
  return describeConsent(entry, formatAt);
}

/** A status step for the log: "Failed: 131026 Message undeliverable", "Delivered". */
export function describeStatus(status: WhatsAppMessageStatus, reason: string | null): string {
  return reason ? `${WHATSAPP_STATUS_LABELS[status]}: ${reason}` : WHATSAPP_STATUS_LABELS[status];
}

/** What a template message said, for the log: its template name before the text. */
export function describeBody(message: { kind: 'template' | 'text'; template: string | null; body: string }): string {
  return message.kind === 'template' && message.template ? `[${message.template}] ${message.body}` : message.body;
}

/**
 * When a status step happened, for the log's history column: the time alone on the day the message was created
 * (in the viewer's time zone), else the full date and time.
 * @param formatAt the viewer's date-time format (`formatDateTime`)
 */
export function formatStepTime(at: string, createdAt: string, formatAt: (iso: string) => string): string {
  const step = new Date(at);
  const created = new Date(createdAt);
  if (Number.isNaN(step.getTime()) || Number.isNaN(created.getTime())) return formatAt(at);
  return step.toDateString() === created.toDateString() ? step.toTimeString().slice(0, 8) : formatAt(at);
}
