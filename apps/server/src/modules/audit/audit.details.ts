/**
 * The audit row's `before` / `after` JSON as one line a compliance officer reads: field names in
 * words, prices per ₹100 to 4 dp, yields as %, sizes as ₹ lakh / crore, rupees in Indian grouping, and no ids (a
 * UUID says nothing to a person; the entity's name is joined separately).
 */
import { formatFaceValue, formatIndianNumber, PERMISSION_LABELS, ROLE_LABELS } from '@dart/contracts';

/** What the row is about, in words. */
const ENTITY_LABELS: Record<string, string> = {
  user: 'User',
  client: 'Organisation',
  invite: 'Invitation',
  session: 'Sign-in',
  otp: 'One-time password',
  chat_session: 'Chat session',
  chat_channel: 'Chat',
  chat_message: 'Chat message',
  quote: 'Quote',
  negotiation: 'Negotiation',
  cluster: 'Match',
  deal: 'Deal',
  exchange_ref: 'Exchange RFQ',
  support_request: 'Support request',
  contact_message: 'Contact message',
  workspace_layout: 'Workspace layout',
  ticket: 'Ticket',
  order: 'Order',
  exchange_credentials: 'Exchange credentials',
  inventory_book: 'Inventory book',
  inventory_position: 'Holding',
  offline_client: 'Offline counterparty',
  support_ticket: 'Support ticket',
  support_attachment: 'Support attachment',
};

const FIELD_LABELS: Record<string, string> = {
  method: 'Method',
  reason: 'Reason',
  request_type: 'Request',
  channel: 'Channel',
  attempts: 'Attempts',
  name: 'Name',
  client_type: 'Client type',
  email: 'Email',
  roles: 'Roles',
  invite: 'By invitation',
  permissions: 'Permissions',
  first_name: 'First name',
  last_name: 'Last name',
  mobile: 'Mobile',
  revoked: 'Sessions ended',
  has_accepted_chat_terms: 'Chat terms accepted',
  customType: 'Chat type',
  invited: 'Invited',
  add: 'Added',
  remove: 'Removed',
  message: 'Message',
  startTime: 'From',
  endTime: 'To',
  messages: 'Messages',
  as: 'As',
  kind: 'Kind',
  page: 'Page',
  exchange: 'Exchange',
  error: 'Error',
  status: 'Status',
  price: 'Price',
  unit_price_stored: 'Price',
  yield: 'Yield',
  yield_stored: 'Yield',
  quantum: 'Size',
  settlement_date: 'Settlement date',
  consideration: 'Consideration',
  count: 'Quotes',
  side: 'Side',
  expires_at: 'Expires',
  by_client: 'By',
  action: 'Action',
  seed: 'Demo data',
};
/** Fields that only repeat what the row already says (its time) or name an id. */
const SKIPPED_FIELDS = new Set(['at', 'by_user_id', 'user_id', 'buyer', 'seller', 'bid', 'ask', 'replaced_by', 'id']);
const PRICE_FIELDS = new Set(['price', 'unit_price_stored']);
const YIELD_FIELDS = new Set(['yield', 'yield_stored', 'yield_fraction']);
const MAX_TEXT = 120;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

const humanise = (key: string): string => {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[._]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : key;
};

export function entityLabel(entity: string): string {
  return ENTITY_LABELS[entity] ?? humanise(entity);
}

const fieldLabel = (key: string): string => FIELD_LABELS[key] ?? humanise(key);

/** One value in words, or null when it carries nothing readable (an id, an empty value). */
function formatValue(key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (PRICE_FIELDS.has(key)) return value.toFixed(4);
    if (YIELD_FIELDS.has(key)) return `${(value * 100).toFixed(4)}%`;
    if (key === 'consideration') return `₹${formatIndianNumber(value, 2)}`;
    // Face value in rupees (issue 12 §1); rows written before migration 0013 held units and are not rewritten (append-only).
    if (key === 'quantum') return formatFaceValue(value);
    return formatIndianNumber(value, Number.isInteger(value) ? 0 : 2);
  }
  if (typeof value === 'string') {
    if (isUuid(value)) return null;
    // Role and permission codes in their spec labels ('complianceofficer' → 'Compliance Officer').
    if (key === 'roles' && Object.hasOwn(ROLE_LABELS, value)) return ROLE_LABELS[value as keyof typeof ROLE_LABELS];
    if (key === 'permissions' && Object.hasOwn(PERMISSION_LABELS, value)) return PERMISSION_LABELS[value as keyof typeof PERMISSION_LABELS];
    const text = key === 'status' || key === 'side' || key === 'action' ? humanise(value) : value;
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    // A list of people (ids): how many, not who; the names are in the chat itself.
    if (value.every((item) => typeof item === 'string' && isUuid(item))) return value.length === 1 ? '1 person' : `${value.length} people`;
    const items = value.map((item) => formatValue(key, item)).filter((item): item is string => item !== null);
    return items.length ? items.join(', ') : null;
  }
  if (typeof value === 'object') {
    const parts = describeObject(value as Record<string, unknown>);
    return parts.length ? parts.join(', ') : null;
  }
  return null;
}

function describeObject(object: Record<string, unknown>): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (SKIPPED_FIELDS.has(key)) continue;
    const text = formatValue(key, value);
    if (text !== null) parts.push(`${fieldLabel(key)}: ${text}`);
  }
  return parts;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The row's details: each field of `after` in words; a field `before` also holds reads
 * "Label: old → new", and an unchanged one is left out. Parts are joined with " · ".
 */
export function describeAuditDetails(before: unknown, after: unknown): string {
  if (!isRecord(after)) {
    return isRecord(before) ? describeObject(before).join(' · ') : '';
  }
  const parts: string[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (SKIPPED_FIELDS.has(key)) continue;
    const next = formatValue(key, value);
    const previous = isRecord(before) && key in before ? formatValue(key, before[key]) : null;
    if (previous !== null && previous === next) continue;
    if (next === null && previous === null) continue;
    const label = fieldLabel(key);
    parts.push(previous !== null ? `${label}: ${previous} → ${next ?? '—'}` : `${label}: ${next}`);
  }
  return parts.join(' · ');
}
