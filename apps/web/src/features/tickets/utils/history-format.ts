/**
 * A ticket's history in words, for the Bloomberg-style stamps of the ticket dialog: the stamp (the contracts'
 * `TICKET_HISTORY_LABELS`), its colour, and "what changed" read from the entry's `changes` — the server writes a
 * changed field as `[old, new]` (or `{ from, to }`) and a set field as its value. Pure, unit-tested beside.
 */
import {
  formatRupees,
  TICKET_HISTORY_LABELS,
  TICKET_STATE_LABELS,
  TICKET_STATES,
  type TicketHistoryAction,
  type TicketHistoryEntry,
  type TicketState,
} from '@dart/contracts';
import { formatDate, formatPrice, formatSize, formatYield } from '../../../lib/format';

/** The stamp of an entry: the contracts' label for the action (the server's own label if it is newer than ours). */
export function stampLabel(entry: Pick<TicketHistoryEntry, 'action' | 'label'>): string {
  return TICKET_HISTORY_LABELS[entry.action] ?? entry.label;
}

/** Stamp colours: green for the steps that complete the trade, red for the ones that end or threaten it. */
export function stampColor(action: TicketHistoryAction): string {
  switch (action) {
    case 'confirmed':
    case 'reported':
    case 'settled':
      return 'teal';
    case 'accept_consideration':
    case 'price':
    case 'send':
      return 'blue';
    case 'reject':
    case 'cancel':
    case 'order_cancelled':
    case 'settlement_failed':
    case 'report_escalated':
      return 'red';
    case 'report_alert':
      return 'orange';
    default:
      return 'gray';
  }
}

/** How each known field of `changes` is named and written. */
const FIELDS: Record<string, { label: string; write: (value: unknown) => string }> = {
  price: { label: 'Price', write: (v) => (typeof v === 'number' ? formatPrice(v) : text(v)) },
  yield: { label: 'Yield', write: (v) => (typeof v === 'number' ? formatYield(v) : text(v)) },
  quantum: { label: 'Face value', write: (v) => (typeof v === 'number' ? formatSize(v) : text(v)) },
  settlement_date: { label: 'Settlement', write: (v) => (typeof v === 'string' ? formatDate(v) : text(v)) },
  exchange: { label: 'Exchange', write: text },
  consideration: { label: 'Consideration', write: rupees },
  stamp_duty: { label: 'Stamp duty', write: rupees },
  brokerage: { label: 'Brokerage', write: rupees },
  custodian: { label: 'Custodian', write: text },
  custodian_name: { label: 'Custodian', write: text },
  side: { label: 'Side', write: text },
  dealer: { label: 'Dealer', write: text },
  user_name: { label: 'Dealer', write: text },
  broker: { label: 'Broker', write: text },
  broker_name: { label: 'Broker', write: text },
  exchange_trade_id: { label: 'Exchange trade id', write: text },
  state: { label: 'State', write: (v) => (isTicketState(v) ? TICKET_STATE_LABELS[v] : text(v)) },
};

function isTicketState(value: unknown): value is TicketState {
  return typeof value === 'string' && (TICKET_STATES as readonly string[]).includes(value);
}

function rupees(value: unknown): string {
  return typeof value === 'number' ? formatRupees(value) : text(value);
}

function text(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** `settlement_date` → 'Settlement date' for a field we do not know. */
function fieldLabel(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The old and new value of a change written as `[old, new]` or `{ from, to }`; null for a plain value. */
function pairOf(value: unknown): [unknown, unknown] | null {
  if (Array.isArray(value) && value.length === 2) return [value[0], value[1]];
  if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
    const pair = value as { from: unknown; to: unknown };
    return [pair.from, pair.to];
  }
  return null;
}

/**
 * The lines of "what changed": `Price 99.5000 → 100.2500`, `Custodian HDFC Bank`. Internal ids (`*_id`, other
 * than the exchange's trade id) and the version are left out: they mean nothing to a reader.
 */
export function describeChanges(changes: TicketHistoryEntry['changes']): string[] {
  if (!changes) return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    const known = FIELDS[key];
    if (!known && (key === 'version' || key === 'id' || key.endsWith('_id'))) continue;
    const field = known ?? { label: fieldLabel(key), write: text };
    const pair = pairOf(value);
    lines.push(pair ? `${field.label} ${field.write(pair[0])} → ${field.write(pair[1])}` : `${field.label} ${field.write(value)}`);
  }
  return lines;
}

/** `Priced → Reporting`, or null when the state did not move (an edit within a state). */
export function stateMove(entry: Pick<TicketHistoryEntry, 'from_state' | 'to_state'>): string | null {
  if (entry.from_state === null || entry.from_state === entry.to_state) return null;
  return `${TICKET_STATE_LABELS[entry.from_state]} → ${TICKET_STATE_LABELS[entry.to_state]}`;
}

/** Oldest first, by the server's sequence (the order the stamps were made). */
export function sortHistory<T extends Pick<TicketHistoryEntry, 'seq'>>(history: readonly T[]): T[] {
  return [...history].sort((a, b) => a.seq - b.seq);
}
