/** How an alert reads on screen: colours, evidence labels, the facts behind the score, the triage history in words. */
import type { SurveillanceAlertDetail, SurveillanceAlertEvent, SurveillanceAlertStatus, SurveillanceEvidenceItem } from '@dart/contracts';
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

const FACT_LABELS: Record<string, string> = {
  isin: 'ISIN',
  yield: 'Yield',
  reference_yield: 'Reference yield',
  deviation_bp: 'Deviation',
  band_bp: 'Band',
  rating_group: 'Rating group',
  order: 'Order',
  exchange: 'Exchange',
  missing: 'Not reported',
  minutes_late: 'Minutes late',
  state: 'State',
  terms: 'Phrases matched',
  categories: 'Categories',
  messages: 'Messages naming the bond',
  minutes_before_deal: 'Minutes before the deal',
  pulled_quotes: 'Quotes pulled',
};

/** Facts that are ids: they mean nothing to a reader (the evidence items show what they point at). */
const HIDDEN_FACT = /(^|_)id$|^(first|second)_deal$/;

const words = (key: string) => {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

function factValue(key: string, value: string | number | boolean | null): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (key === 'yield' || key === 'reference_yield') return `${(value * 100).toFixed(4)}%`;
    if (key.endsWith('_bp')) return `${value} bp`;
    return value.toLocaleString('en-IN');
  }
  return value;
}

/** The facts behind the score as label and value, in words (ids left out). */
export function readableFacts(facts: SurveillanceAlertDetail['facts']): Array<{ key: string; label: string; value: string }> {
  return Object.entries(facts)
    .filter(([key]) => !HIDDEN_FACT.test(key))
    .map(([key, value]) => ({ key, label: FACT_LABELS[key] ?? words(key), value: factValue(key, value) }));
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
