/**
 * How a ticket reads from the user's side: which party the user's firm is, the counterparty, the order
 * of the panel (tickets needing my action first), the reporting countdown and the labels of actions.
 * Pure (the clock is passed in), unit-tested beside.
 */
import { MESSAGES, TICKET_HISTORY_LABELS, type Ticket, type TicketHistoryAction, type TicketState } from '@dart/contracts';

export type TicketRole = 'buyer' | 'seller' | 'buyer_broker' | 'seller_broker';

/** The user's firm on the ticket: a principal first, else a broker (with the side it works); null if neither. */
export function myRole(ticket: Pick<Ticket, 'buyer_details' | 'seller_details' | 'broker_details'>, clientId: string): TicketRole | null {
  if (ticket.seller_details.client_id === clientId) return 'seller';
  if (ticket.buyer_details.client_id === clientId) return 'buyer';
  const broker = ticket.broker_details.find((entry) => entry.client_id === clientId);
  if (!broker) return null;
  return broker.buy_or_sell === 'buy' ? 'buyer_broker' : 'seller_broker';
}

export const ROLE_LABELS: Record<TicketRole, string> = {
  buyer: 'Buyer',
  seller: 'Seller',
  buyer_broker: 'Buyer’s broker',
  seller_broker: 'Seller’s broker',
};

/**
 * Who the user deals with: the other principal for a buyer or a seller; for a broker, both principals
 * ("Demo Capital → Second Bank", seller first).
 */
export function counterpartyLabel(ticket: Pick<Ticket, 'buyer_details' | 'seller_details' | 'broker_details'>, clientId: string): string {
  const role = myRole(ticket, clientId);
  if (role === 'seller') return ticket.buyer_details.name;
  if (role === 'buyer') return ticket.seller_details.name;
  return `${ticket.seller_details.name} → ${ticket.buyer_details.name}`;
}

/**
 * The actions that move a ticket forward and wait on the user: send a draft, price a ticket awaiting its
 * price, accept the consideration. The others the server lists (edit, members, send to broker, brokerage,
 * reject, cancel) are open to a principal all along and do not make a ticket "need" anyone.
 */
export function needsAction(ticket: Pick<Ticket, 'my_actions' | 'state'>): boolean {
  const actions = ticket.my_actions;
  return actions.includes('send') || actions.includes('accept_consideration') || (ticket.state === 'sent' && actions.includes('price'));
}

/** Tickets needing the user's action first, then by the reporting deadline (soonest first), then newest. */
export function sortTickets<T extends Pick<Ticket, 'my_actions' | 'state' | 'report_deadline' | 'number'>>(tickets: readonly T[]): T[] {
  return [...tickets].sort((a, b) => {
    const needA = needsAction(a) ? 0 : 1;
    const needB = needsAction(b) ? 0 : 1;
    if (needA !== needB) return needA - needB;
    if (a.report_deadline !== b.report_deadline) return a.report_deadline < b.report_deadline ? -1 : 1;
    return a.number < b.number ? 1 : a.number > b.number ? -1 : 0;
  });
}

/** States in which the trade still has to be reported to the exchange (the deadline matters). */
export const UNREPORTED_STATES: readonly TicketState[] = ['draft', 'sent', 'priced', 'reporting'];

/** Under this many milliseconds to the deadline the countdown turns red. */
export const DEADLINE_URGENT_MS = 5 * 60_000;

export interface DeadlineState {
  /** `12:04`, `1:02:03`, or `Overdue 0:41`. */
  label: string;
  urgent: boolean;
  overdue: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * Time left to report the trade (SEBI: within 15 minutes of the deal): red under 5 minutes, then
 * `Overdue` with the time past the deadline.
 */
export function deadlineState(deadline: string, now: number): DeadlineState {
  const left = Date.parse(deadline) - now;
  if (left <= 0) return { label: `Overdue ${clock(-left)}`, urgent: true, overdue: true };
  return { label: clock(Math.ceil(left / 1000) * 1000), urgent: left < DEADLINE_URGENT_MS, overdue: false };
}

export const STATE_COLORS: Record<TicketState, string> = {
  draft: 'gray',
  sent: 'yellow',
  priced: 'blue',
  reporting: 'violet',
  reported: 'teal',
  settled: 'green',
  failed: 'red',
  cancelled: 'gray',
  rejected: 'gray',
};

/** The button for each action the server lists in `my_actions`. */
export const ACTION_LABELS: Partial<Record<TicketHistoryAction, string>> = {
  send: 'Send',
  price: 'Confirm price',
  accept_consideration: 'Accept consideration',
  edit: 'Edit terms',
  members: 'Change dealer',
  send_to_broker: 'Send to broker',
  brokerage: 'Set brokerage',
  reject: 'Reject',
  cancel: 'Cancel ticket',
};

/** The actions the panel's rows offer in one click (the rest are in the ticket dialog), in this order. */
export const ROW_ACTIONS: readonly TicketHistoryAction[] = ['send', 'price', 'accept_consideration', 'reject', 'cancel'];

export const historyLabel = (action: TicketHistoryAction) => TICKET_HISTORY_LABELS[action];

/** Whether the side of `role` has accepted the consideration (brokers: their principal's side). */
export function sideAccepted(ticket: Pick<Ticket, 'buyer_acceptance' | 'seller_acceptance'>, role: TicketRole | null): boolean {
  if (role === 'buyer' || role === 'buyer_broker') return ticket.buyer_acceptance.accepted_at !== null;
  if (role === 'seller' || role === 'seller_broker') return ticket.seller_acceptance.accepted_at !== null;
  return false;
}

/**
 * The settlement as T+n (0, 1 or 2 weekdays after today) for the pricing input, which prices at a
 * settlement delta; a date further out prices at T+2.
 */
export function settlementDeltaOf(settlementDate: string, today: string): 0 | 1 | 2 {
  const start = Date.parse(`${today}T00:00:00Z`);
  const end = Date.parse(`${settlementDate}T00:00:00Z`);
  if (!(end > start)) return 0;
  let weekdays = 0;
  for (let t = start + 86_400_000; t <= end && weekdays < 2; t += 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) weekdays += 1;
  }
  return weekdays >= 2 ? 2 : (weekdays as 0 | 1);
}

/** Today's calendar date in India (IST), `YYYY-MM-DD`. */
export function todayInIndia(now: number): string {
  return new Date(now + 5.5 * 3600_000).toISOString().slice(0, 10);
}

export type PricingField = 'yield' | 'price';
const NUMBER_PATTERN = /^\d*\.?\d+$|^\d+\.$/;

/** The typed price (per ₹100) or yield (%, sent as a fraction); a message when it is not a number. */
export function readPricing(field: PricingField, text: string): { value: number } | { message: string } {
  const trimmed = text.trim().replace(/%$/, '').trim();
  if (trimmed === '') return { message: field === 'yield' ? MESSAGES.yieldRequired : MESSAGES.priceRequired };
  if (!NUMBER_PATTERN.test(trimmed)) return { message: MESSAGES.shouldBeNumber };
  const value = Number(trimmed);
  return { value: field === 'yield' ? Number((value / 100).toFixed(8)) : value };
}
