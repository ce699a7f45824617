/** How an alert reads on screen: colours, evidence labels, the triage history in words (the facts: contracts `readableFacts`). */
import type { SurveillanceAlertEvent, SurveillanceAlertStatus, SurveillanceEvidenceItem } from '@dart/contracts';
import { SURVEILLANCE_ALERT_STATUS_LABELS } from '@dart/contracts';

export const ALERT_STATUS_COLORS: Record<SurveillanceAlertStatus, string> = {
  open: 'blue',
  assigned: 'yellow',
  escalated: 'red',
  closed: 'gray',
};

/** 80 and above: red; 60 and above: orange; else yellow. */
export function scoreColor(score: number): string {
  if (score >= 80) return 'red';
  if (score >= 60) return 'orange';
  return 'yellow';
}

export const EVIDENCE_TYPE_LABELS: Record<SurveillanceEvidenceItem['type'], string> = {
  chat_message: 'Chat message',
  chat_file: 'Chat file',
  quote: 'Quote',
  deal: 'Deal',
  ticket: 'Ticket',
  order: 'Order',
  audit: 'Audit entry',
};

/** The order the evidence is read in: what was said, then what was quoted, dealt, ticketed and ordered, then the trail. */
const EVIDENCE_ORDER: readonly SurveillanceEvidenceItem['type'][] = [
  'chat_message',
  'chat_file',
  'quote',
  'deal',
  'ticket',
  'order',
  'audit',
];

export interface EvidenceGroup {
  type: SurveillanceEvidenceItem['type'];
  label: string;
  items: SurveillanceEvidenceItem[];
}

/** The evidence grouped by type in reading order, each group oldest first (items without a time keep their place). */
export function groupEvidence(items: readonly SurveillanceEvidenceItem[]): EvidenceGroup[] {
  return EVIDENCE_ORDER.map((type) => ({
    type,
    label: EVIDENCE_TYPE_LABELS[type],
    items: items.filter((item) => item.type === type),
  })).filter((group) => group.items.length > 0);
}

const ACTION_WORDS: Record<SurveillanceAlertEvent['action'], string> = {
  assign: 'assigned it',
  comment: 'commented',
  escalate: 'escalated it',
  close: 'closed it',
};

/** One line of the triage history: "Vikram Iyer assigned it to Vikram Iyer (Open → Assigned)". */
export function describeTriageEvent(event: SurveillanceAlertEvent): string {
  const to = event.action === 'assign' && event.assignee_name ? ` to ${event.assignee_name}` : '';
  const moved =
    event.from_status === event.to_status
      ? ''
      : ` (${SURVEILLANCE_ALERT_STATUS_LABELS[event.from_status]} → ${SURVEILLANCE_ALERT_STATUS_LABELS[event.to_status]})`;
  return `${event.actor_name} ${ACTION_WORDS[event.action]}${to}${moved}`;
}
