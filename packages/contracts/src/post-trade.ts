/**
 * Post-trade (issue 13; spec trading-domain §3 "Ticket", §4 "Orders, quotes, clusters, tickets", §7 "Chat and
 * tickets", "Orders", "Trade"): tickets, orders and procurement orders, exchange reporting and settlement.
 *
 * - A **ticket** is the agreed terms of one trade between a buyer and a seller (each a firm and its dealer), with
 *   at most one broker on each side. It is created from a deal (one per deal), or by hand. Its state machine is
 *   `TICKET_TRANSITIONS` below (apps/server/src/modules/tickets/README.md has it as a table).
 * - When both sides have accepted the consideration the trade is **confirmed** and Dart books it on both sides:
 *   an **order** on the seller's side (the firm sells out of its book: it delivers securities and receives funds)
 *   and a **procurement order** on the buyer's side (the firm procures bonds into its book: it pays funds and
 *   receives securities). Each is reported to the exchange's reporting platform (NSE or BSE) and settled DVP-I at
 *   the clearing corporation (NSCCL or ICCL).
 * Money is carried in rupees with paise (2 decimals) on the wire, computed and stored in integer paise.
 */
import { z } from 'zod';
import { MESSAGES } from './validation';
import { quotedQuantumSchema, quotePriceSchema, quoteYieldSchema } from './market';
import { DATE_FILTER_TYPES, NUMERIC_FILTER_TYPES } from './finstruments';

/* ---------------------------------------------------------------- tickets ---------------------------------------------------------------- */

/**
 * Ticket states, in order of progress. `confirmed` is not a resting state: the accept that confirms a ticket
 * creates its order and procurement order in the same transaction and the ticket is `reporting` from then on.
 */
export const TICKET_STATES = ['draft', 'sent', 'priced', 'reporting', 'reported', 'settled', 'failed', 'cancelled', 'rejected'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export const TICKET_STATE_LABELS: Record<TicketState, string> = {
  draft: 'Draft',
  sent: 'Awaiting price',
  priced: 'Priced',
  reporting: 'Reporting',
  reported: 'Reported',
  settled: 'Settled',
  failed: 'Settlement failed',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
};
/** States after which nothing more happens to a ticket. */
export const TICKET_FINAL_STATES: readonly TicketState[] = ['settled', 'cancelled', 'rejected'];

/** Where a ticket came from. */
export const TICKET_SOURCES = ['negotiation', 'cluster', 'exchange_rfq', 'private_run', 'deal', 'manual'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

/**
 * Actions of `PATCH api/chatter/trade/actions/{id}/{action}/` (the generic action endpoint). The other ticket
 * calls are actions too and appear in the history under these names: `price` (PATCH …/price/), `accept_consideration`
 * (PATCH …/accept-consideration/), `edit` (PATCH …/{id}/), `members` (PATCH api/trade/members/), `send_to_broker`,
 * `brokerage`; and the system's own: `created`, `confirmed`, `reported`, `settled`, `settlement_failed`, `report_alert`,
 * `report_escalated`, `order_cancelled`.
 */
export const TICKET_ACTIONS = ['send', 'reject', 'cancel'] as const;
export type TicketAction = (typeof TICKET_ACTIONS)[number];
export const TICKET_HISTORY_ACTIONS = [
  'created',
  'send',
  'price',
  'edit',
  'members',
  'send_to_broker',
  'brokerage',
  'accept_consideration',
  'confirmed',
  'reject',
  'cancel',
  'reported',
  'report_alert',
  'report_escalated',
  'settled',
  'settlement_failed',
  'order_cancelled',
] as const;
export type TicketHistoryAction = (typeof TICKET_HISTORY_ACTIONS)[number];
/** The Bloomberg-style stamp shown for each history entry. */
export const TICKET_HISTORY_LABELS: Record<TicketHistoryAction, string> = {
  created: 'Received',
  send: 'Sent',
  price: 'Quoted',
  edit: 'Terms changed',
  members: 'Members changed',
  send_to_broker: 'Sent to broker',
  brokerage: 'Brokerage set',
  accept_consideration: 'Consideration accepted',
  confirmed: 'Final',
  reject: 'Rejected',
  cancel: 'Cancelled',
  reported: 'Reported',
  report_alert: 'Reporting alert',
  report_escalated: 'Reporting escalated',
  settled: 'Settled',
  settlement_failed: 'Settlement failed',
  order_cancelled: 'Order cancelled',
};

/**
 * Who acts. `creator`: the firm that created a manual ticket. `counterparty`: the other principal firm.
 * `principal`: the buyer's or the seller's firm. `price_setter`: the seller or the buyer's broker (see
 * `isSellerOrBuyerBroker`). `system`: Dart itself (jobs, deals).
 */
export type TicketActor = 'creator' | 'counterparty' | 'principal' | 'price_setter' | 'system';

/**
 * The state machine: for each state, the actions allowed and where they lead (state × action → state, who).
 * Any action not listed for the current state is refused with 409 and the state named (`TICKET_MESSAGES.notAllowed`).
 * `accept_consideration` stays in `priced` until both sides have accepted; the second acceptance confirms the
 * ticket (→ `reporting`). `price`, `edit` and `members` in `priced` clear both acceptances (a consideration update).
 */
export const TICKET_TRANSITIONS: Record<TicketState, Partial<Record<TicketHistoryAction, { to: TicketState; by: TicketActor }>>> = {
  draft: {
    send: { to: 'sent', by: 'creator' },
    edit: { to: 'draft', by: 'creator' },
    members: { to: 'draft', by: 'principal' },
    send_to_broker: { to: 'draft', by: 'principal' },
    cancel: { to: 'cancelled', by: 'creator' },
  },
  sent: {
    price: { to: 'priced', by: 'price_setter' },
    edit: { to: 'sent', by: 'principal' },
    members: { to: 'sent', by: 'principal' },
    send_to_broker: { to: 'sent', by: 'principal' },
    brokerage: { to: 'sent', by: 'principal' },
    reject: { to: 'rejected', by: 'counterparty' },
    cancel: { to: 'cancelled', by: 'principal' },
  },
  priced: {
    price: { to: 'priced', by: 'price_setter' },
    edit: { to: 'priced', by: 'principal' },
    members: { to: 'priced', by: 'principal' },
    send_to_broker: { to: 'priced', by: 'principal' },
    brokerage: { to: 'priced', by: 'principal' },
    accept_consideration: { to: 'priced', by: 'principal' },
    confirmed: { to: 'reporting', by: 'system' },
    reject: { to: 'rejected', by: 'principal' },
    cancel: { to: 'cancelled', by: 'principal' },
  },
  reporting: {
    brokerage: { to: 'reporting', by: 'principal' },
    reported: { to: 'reported', by: 'system' },
    report_alert: { to: 'reporting', by: 'system' },
    report_escalated: { to: 'reporting', by: 'system' },
    order_cancelled: { to: 'cancelled', by: 'system' },
  },
  reported: {
    brokerage: { to: 'reported', by: 'principal' },
    settled: { to: 'settled', by: 'system' },
    settlement_failed: { to: 'failed', by: 'system' },
    order_cancelled: { to: 'cancelled', by: 'system' },
  },
  failed: {
    settled: { to: 'settled', by: 'system' },
    settlement_failed: { to: 'failed', by: 'system' },
    order_cancelled: { to: 'cancelled', by: 'system' },
  },
  settled: {},
  cancelled: {},
  rejected: {},
};

/** Reporting deadline (SEBI: OTC trades in corporate bonds are reported within 15 minutes of the deal). */
export const REPORTING_DEADLINE_MINUTES = 15;
/** An unreported ticket raises an alert this long after the deal, and is escalated at the deadline. */
export const REPORTING_ALERT_MINUTES = 10;

export const TICKET_MESSAGES = {
  notFound: 'Ticket not found.',
  notAllowed: (state: TicketState, action: string) =>
    `This ticket is ${TICKET_STATE_LABELS[state].toLowerCase()}: ${action} is not allowed.`,
  notYourTurn: 'Only the other side can do this on this ticket.',
  priceSetterOnly: 'Only the seller or the buyer’s broker can price this ticket.',
  brokerOnly: 'Only a broker on this ticket can set brokerage.',
  reasonRequired: 'Please give a reason.',
  custodianRequired: 'Please choose a custodian.',
  custodianUnknown: 'Unknown custodian.',
  sameFirm: 'The buyer and the seller must be different firms.',
  brokerNotBroker: 'This firm is not a broker.',
  userNotInFirm: 'This user does not belong to that firm.',
  notConfirmed: 'This trade is not confirmed yet.',
  staleVersion: 'This ticket was changed by someone else. Reload it and try again.',
  alreadyAccepted: 'You have already accepted this consideration.',
  bothPriceAndYield: 'Cannot provide both price and yield',
  priceOrYieldRequired: 'Provide a price or a yield.',
  created: 'Ticket created',
  exists: 'This trade already has a ticket',
} as const;

const reasonSchema = z
  .string({ error: TICKET_MESSAGES.reasonRequired })
  .trim()
  .min(1, { error: TICKET_MESSAGES.reasonRequired })
  .max(500, { error: 'At most 500 characters.' });
const isoDateSchema = z.iso.date({ error: 'Please enter a valid date.' });
const exchangeSchema = z.enum(['NSE', 'BSE'], { error: 'Exchange should be NSE or BSE.' });
const settlementDeltaSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'Settlement should be T+0, T+1 or T+2.' });

/** One party of a ticket (spec §3 "Counterparty" fields). */
export const TicketPartySchema = z.object({
  client_id: z.uuid(),
  name: z.string(),
  user_id: z.uuid().nullable(),
  user_name: z.string().nullable(),
  nsccl_code: z.string().nullable(),
  iccl_code: z.string().nullable(),
});
export type TicketParty = z.infer<typeof TicketPartySchema>;
/** spec §3 Ticket `broker_details`: each entry with user_id and a buy or sell flag (the side it works for). */
export const TicketBrokerSchema = TicketPartySchema.extend({
  buy_or_sell: z.enum(['buy', 'sell']),
  /** ₹ brokerage this broker charges its principal (outside the consideration), or null. */
  brokerage: z.number().nullable(),
});
export type TicketBroker = z.infer<typeof TicketBrokerSchema>;

/** Consideration in ₹ to the paisa, from bond-math (spec: consideration details). */
export const TicketConsiderationSchema = z.object({
  face_value: z.number(),
  bonds: z.number().int(),
  clean_price: z.number(),
  accrued_days: z.number().int(),
  accrued_interest: z.number(),
  principal: z.number(),
  /** principal + accrued interest. */
  consideration: z.number(),
  /** Paid by the buyer: 0.0001 % of the consideration, nil on G-secs. */
  stamp_duty: z.number(),
  /** consideration + stamp duty. */
  buyer_pays: z.number(),
  /** What the seller receives: the consideration. */
  seller_receives: z.number(),
});
export type TicketConsideration = z.infer<typeof TicketConsiderationSchema>;

export const TicketHistoryEntrySchema = z.object({
  seq: z.number().int(),
  action: z.enum(TICKET_HISTORY_ACTIONS),
  label: z.string(),
  from_state: z.enum(TICKET_STATES).nullable(),
  to_state: z.enum(TICKET_STATES),
  actor_name: z.string(),
  actor_firm: z.string().nullable(),
  at: z.string(),
  changes: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
});
export type TicketHistoryEntry = z.infer<typeof TicketHistoryEntrySchema>;

export const TicketSideAcceptanceSchema = z.object({
  accepted_at: z.string().nullable(),
  accepted_by: z.string().nullable(),
  custodian_id: z.uuid().nullable(),
  custodian_name: z.string().nullable(),
});

/** A ticket as one participant sees it. */
export const TicketSchema = z.object({
  id: z.uuid(),
  /** `TKT-000123`. */
  number: z.string(),
  deal_id: z.uuid().nullable(),
  source: z.enum(TICKET_SOURCES),
  state: z.enum(TICKET_STATES),
  state_label: z.string(),
  version: z.number().int(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  bond_name: z.string(),
  security_type: z.string().nullable(),
  /** From the reader's side: 'sell' for the seller and the buyer's broker, else 'buy' (spec §3, `isSellerOrBuyerBroker`). */
  buy_or_sell: z.enum(['buy', 'sell']),
  buyer_details: TicketPartySchema,
  seller_details: TicketPartySchema,
  broker_details: z.array(TicketBrokerSchema),
  price: z.number(),
  /** Fraction (0.0712 = 7.12 %). */
  yield: z.number(),
  /** Face value in ₹. */
  quantum: z.number(),
  face_value_per_bond: z.number(),
  settlement_date: z.string(),
  exchange: exchangeSchema,
  clearing_corporation: z.enum(['NSCCL', 'ICCL']),
  consideration: TicketConsiderationSchema,
  buyer_acceptance: TicketSideAcceptanceSchema,
  seller_acceptance: TicketSideAcceptanceSchema,
  price_confirmed_at: z.string().nullable(),
  traded_at: z.string(),
  /** traded_at + 15 minutes. */
  report_deadline: z.string(),
  report_alert: z.enum(['alert', 'escalated']).nullable(),
  reason: z.string().nullable(),
  /** What the reader may do now (actions of the state machine the reader's role allows). */
  my_actions: z.array(z.enum(TICKET_HISTORY_ACTIONS)),
  /** The order / procurement order once confirmed. */
  order_ids: z.object({ order: z.uuid().nullable(), procurement: z.uuid().nullable() }),
  created_at: z.string(),
  updated_at: z.string(),
  history: z.array(TicketHistoryEntrySchema).optional(),
});
export type Ticket = z.infer<typeof TicketSchema>;

export const TICKET_PAGE_SIZE_MAX = 100;
export const TicketListQuerySchema = z.strictObject({
  state: z.enum(TICKET_STATES).optional(),
  /** `true`: only tickets where the reader has an action to take. */
  needs_action: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /** `true`: tickets not yet settled, cancelled or rejected. */
  open: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(TICKET_PAGE_SIZE_MAX).default(50),
});
export type TicketListQuery = z.output<typeof TicketListQuerySchema>;
export const TicketListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(TicketSchema),
});

/** `POST api/chatter/trade/`: the ticket of a deal (200 with the existing one, 201 when new). */
export const TicketFromDealSchema = z.strictObject({ deal_id: z.uuid({ error: 'Unknown deal.' }) });

/** `POST api/chatter/trade/manual-ticket/`: a ticket for a trade agreed outside Dart's market (phone, chat). */
export const ManualTicketSchema = z
  .strictObject({
    finstrument_id: z.number({ error: 'Please choose a bond.' }).int().positive(),
    buy_or_sell: z.enum(['buy', 'sell'], { error: 'Choose buy or sell.' }),
    /** The other principal firm (from `users-clients-unified`). */
    counterparty_client_id: z.uuid({ error: 'Please choose a counterparty.' }),
    counterparty_user_id: z.uuid().optional(),
    quantum: quotedQuantumSchema,
    price: quotePriceSchema.optional(),
    yield: quoteYieldSchema.optional(),
    settlement_date: isoDateSchema.optional(),
    settlement_delta: settlementDeltaSchema.optional(),
    exchange: exchangeSchema.default('NSE'),
    /** A broker firm's user working the creator's side (optional). */
    broker_user_id: z.uuid().optional(),
    /** Trade time HH:MM (IST, today): earlier than now (spec §5 tradeTime). Default now. */
    trade_time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Please enter valid time in HH:MM 24-hour format' })
      .optional(),
  })
  .refine((v) => !(v.price !== undefined && v.yield !== undefined), { error: TICKET_MESSAGES.bothPriceAndYield, path: ['price'] })
  .refine((v) => v.price !== undefined || v.yield !== undefined, { error: TICKET_MESSAGES.priceOrYieldRequired, path: ['price'] })
  .refine((v) => !(v.settlement_date !== undefined && v.settlement_delta !== undefined), {
    error: 'Cannot provide both settlement date and settlement delta',
    path: ['settlement_date'],
  });
export type ManualTicket = z.output<typeof ManualTicketSchema>;
/** spec §5 tradeTime. */
export const TRADE_TIME_LATER_MESSAGE = 'Trade time cannot be later than the current time.';

/** `PATCH api/chatter/trade/{id}/`: change terms (size, settlement, exchange). `version` guards lost updates. */
export const TicketEditSchema = z
  .strictObject({
    version: z.number().int().positive(),
    quantum: quotedQuantumSchema.optional(),
    settlement_date: isoDateSchema.optional(),
    settlement_delta: settlementDeltaSchema.optional(),
    exchange: exchangeSchema.optional(),
  })
  .refine((v) => !(v.settlement_date !== undefined && v.settlement_delta !== undefined), {
    error: 'Cannot provide both settlement date and settlement delta',
    path: ['settlement_date'],
  });
export type TicketEdit = z.output<typeof TicketEditSchema>;

/** `PATCH api/chatter/trade/{id}/price/`: the price setter quotes (or confirms) the price, by price or yield. */
export const TicketPriceSchema = z
  .strictObject({ version: z.number().int().positive(), price: quotePriceSchema.optional(), yield: quoteYieldSchema.optional() })
  .refine((v) => !(v.price !== undefined && v.yield !== undefined), { error: TICKET_MESSAGES.bothPriceAndYield, path: ['price'] })
  .refine((v) => v.price !== undefined || v.yield !== undefined, { error: TICKET_MESSAGES.priceOrYieldRequired, path: ['price'] });
export type TicketPrice = z.output<typeof TicketPriceSchema>;

/** `PATCH api/chatter/trade/accept-consideration/{id}/` with custodian_id. */
export const AcceptConsiderationSchema = z.strictObject({
  version: z.number().int().positive(),
  custodian_id: z.uuid({ error: TICKET_MESSAGES.custodianRequired }),
});
/** `PATCH api/chatter/trade/actions/{id}/{action}/` body (reason required for reject and cancel). */
export const TicketActionBodySchema = z.strictObject({ version: z.number().int().positive(), reason: reasonSchema.optional() });
export const TicketActionParamsSchema = z.strictObject({ id: z.uuid({ error: TICKET_MESSAGES.notFound }), action: z.enum(TICKET_ACTIONS) });
/** `PATCH api/chatter/trade/send-to-broker/{id}/`: the caller's firm hands its side to a broker firm's user. */
export const SendToBrokerSchema = z.strictObject({ version: z.number().int().positive(), broker_user_id: z.uuid() });
/** `PATCH api/trade/members/{id}/`: the dealer on the caller's side, and its broker (null removes it). */
export const TicketMembersSchema = z.strictObject({
  version: z.number().int().positive(),
  user_id: z.uuid().optional(),
  broker_user_id: z.uuid().nullable().optional(),
});
/** `PATCH api/trade/{id}/brokerage/`: a broker on the ticket sets its brokerage in ₹ (paise). */
export const TicketBrokerageSchema = z.strictObject({
  version: z.number().int().positive(),
  brokerage: z
    .number({ error: MESSAGES.shouldBeNumber })
    .min(0, { error: MESSAGES.cannotBeNegative })
    .max(99_999_999_999, { error: MESSAGES.max12Digits })
    .refine((v) => Math.round(v * 100) === Number((v * 100).toFixed(6)), { error: 'At most 2 decimals (paise).' }),
});
export const TicketIdParamsSchema = z.strictObject({ id: z.uuid({ error: TICKET_MESSAGES.notFound }) });

/** `GET api/chatter/trade/confirmed-trade/{id}/`: the trade confirmation (after both accepted the consideration). */
export const ConfirmedTradeSchema = z.object({
  ticket: TicketSchema,
  confirmed_at: z.string(),
  buyer_custodian: z.string(),
  seller_custodian: z.string(),
  order: z.lazy(() => OrderSchema).nullable(),
  procurement_order: z.lazy(() => OrderSchema).nullable(),
});

/* ----------------------------------------------------- participant searches ----------------------------------------------------- */

/** `GET api/chatter/users-clients-unified/` (search_param, broker): users and firms to put on a ticket. */
export const UsersClientsUnifiedQuerySchema = z.strictObject({
  search_param: z.string().trim().max(100).default(''),
  /** `true`: broker firms and their users only. */
  broker: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export const UnifiedUserSchema = z.object({
  user_id: z.uuid(),
  user_name: z.string(),
  client_id: z.uuid(),
  brand_name: z.string(),
  is_broker: z.boolean(),
});
export const UnifiedClientSchema = z.object({
  client_id: z.uuid(),
  name: z.string(),
  is_broker: z.boolean(),
  nsccl_code: z.string().nullable(),
  iccl_code: z.string().nullable(),
});
export const UsersClientsUnifiedSchema = z.object({ users: z.array(UnifiedUserSchema), clients: z.array(UnifiedClientSchema) });
/** `GET api/chatter/search-brokers/{id}` ({id}: a ticket): broker users who may work the caller's side of it. */
export const BrokerSearchQuerySchema = z.strictObject({ search_param: z.string().trim().max(100).default('') });
/** `GET /api/client/search-custodians/` (search_param): SEBI-registered custodians. */
export const CustodianSearchQuerySchema = z.strictObject({ search_param: z.string().trim().max(100).default('') });
export const CustodianSchema = z.object({ client_id: z.uuid(), name: z.string() });
export const CustodianListSchema = z.array(CustodianSchema);
/** `GET api/trade/client/users/{id}/`: the active users of a firm on the ticket (to choose the dealer). */
export const ClientTradeUserSchema = z.object({ user_id: z.uuid(), user_name: z.string(), email: z.string() });

/* ------------------------------------------------------ orders and procurement orders ------------------------------------------------------ */

/** `order`: the seller's side of a confirmed ticket; `procurement`: the buyer's side. */
export const ORDER_KINDS = ['order', 'procurement'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_KIND_LABELS: Record<OrderKind, string> = { order: 'Order (sell)', procurement: 'Procurement order (buy)' };

/**
 * Order states. `reporting`: queued or being sent to the exchange's reporting platform (retried with back-off
 * while the venue is down); `mismatch`: the venue refused the report because the two sides' terms differ (the
 * reason says which; `modify` fixes it); `reported`: both sides' reports matched, the venue's trade number is set;
 * `accepted` / `rejected`: the firm's answer to the reported trade (`reported_order_status`, REJECTED = rejecting
 * the consideration, which cancels the trade); `settled`, `failed` (shortage of funds or securities, with the
 * reason), `cancelled`.
 */
export const ORDER_STATES = ['reporting', 'mismatch', 'reported', 'accepted', 'rejected', 'settled', 'failed', 'cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  reporting: 'Reporting',
  mismatch: 'Report mismatch',
  reported: 'Reported',
  accepted: 'Accepted',
  rejected: 'Rejected',
  settled: 'Settled',
  failed: 'Settlement failed',
  cancelled: 'Cancelled',
};
/** spec §3 "Reported order status". */
export const REPORTED_ORDER_STATUSES = ['ACCEPTED', 'REJECTED'] as const;
export type ReportedOrderStatus = (typeof REPORTED_ORDER_STATUSES)[number];
export const SETTLEMENT_FAILURE_REASONS = {
  funds: 'Shortage of funds at pay-in',
  securities: 'Shortage of securities at pay-in',
} as const;

export const ORDER_MESSAGES = {
  notFound: 'Order not found.',
  notAllowed: (state: OrderState, action: string) => `This order is ${ORDER_STATE_LABELS[state].toLowerCase()}: ${action} is not allowed.`,
  ticketNotConfirmed: 'This ticket is not confirmed yet: both sides must accept the consideration first.',
  wrongSide: (kind: OrderKind) => (kind === 'order' ? 'Only the seller reports an order.' : 'Only the buyer reports a procurement order.'),
  reasonRequired: 'Please give a reason.',
  staleVersion: 'This order was changed by someone else. Reload it and try again.',
  alreadySettled: 'This trade has already settled at the clearing corporation.',
  exportTooLarge: 'The export holds at most 50,000 orders: narrow the filters.',
} as const;

export const OrderSchema = z.object({
  id: z.uuid(),
  kind: z.enum(ORDER_KINDS),
  /** `ORD-000123` or `PRO-000123`. */
  number: z.string(),
  ticket_id: z.uuid(),
  ticket_number: z.string(),
  state: z.enum(ORDER_STATES),
  state_label: z.string(),
  reported_order_status: z.enum(REPORTED_ORDER_STATUSES).nullable(),
  version: z.number().int(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  bond_name: z.string(),
  buy_or_sell: z.enum(['buy', 'sell']),
  counterparty_name: z.string(),
  price: z.number(),
  yield: z.number(),
  quantum: z.number(),
  settlement_date: z.string(),
  trade_date: z.string(),
  exchange: exchangeSchema,
  clearing_corporation: z.enum(['NSCCL', 'ICCL']),
  consideration: TicketConsiderationSchema,
  custodian_name: z.string().nullable(),
  exchange_trade_id: z.string().nullable(),
  reported_at: z.string().nullable(),
  settled_at: z.string().nullable(),
  /** Why the venue refused the report, or why settlement failed / the trade was cancelled. */
  reason: z.string().nullable(),
  report_deadline: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Order = z.infer<typeof OrderSchema>;

/** `POST api/orders/` (seller) / `POST api/procurement-orders/` (buyer): report the firm's side of a confirmed ticket. */
export const OrderReportSchema = z.strictObject({ ticket_id: z.uuid({ error: TICKET_MESSAGES.notFound }) });
/** `PUT api/orders/{id}/accept-reject/` and the procurement-orders twin. */
export const OrderAcceptRejectSchema = z.strictObject({
  version: z.number().int().positive(),
  reported_order_status: z.enum(REPORTED_ORDER_STATUSES, { error: 'reported_order_status should be ACCEPTED or REJECTED.' }),
  reason: reasonSchema.optional(),
});
export const OrderCancelSchema = z.strictObject({ version: z.number().int().positive(), reason: reasonSchema });
/** `PUT api/orders/{id}/modify/` / `PATCH api/procurement-orders/{id}/modify/`: this side's report before the venue matched it. */
export const OrderModifySchema = z
  .strictObject({
    version: z.number().int().positive(),
    price: quotePriceSchema.optional(),
    quantum: quotedQuantumSchema.optional(),
    settlement_date: isoDateSchema.optional(),
    custodian_id: z.uuid().optional(),
  })
  .refine((v) => Object.keys(v).length > 1, { error: 'Nothing to change.', path: ['version'] });
export const SETTLE_CANCEL_ACTIONS = ['settle', 'cancel'] as const;
/** `PATCH api/orders/settle-cancel/{id}/{action}/`: `settle` retries a failed settlement, `cancel` cancels it. */
export const SettleCancelParamsSchema = z.strictObject({
  id: z.uuid({ error: ORDER_MESSAGES.notFound }),
  action: z.enum(SETTLE_CANCEL_ACTIONS),
});
export const SettleCancelBodySchema = z.strictObject({ version: z.number().int().positive(), reason: reasonSchema.optional() });
export const OrderIdParamsSchema = z.strictObject({ id: z.uuid({ error: ORDER_MESSAGES.notFound }) });

/** Filterable columns of the unified blotter (spec §7 "Filters": numeric and date filter types). */
export const ORDER_NUMERIC_FIELDS = ['price', 'yield', 'quantum', 'consideration'] as const;
export const ORDER_DATE_FIELDS = ['trade_date', 'settlement_date'] as const;
export const OrderFilterSchema = z.union([
  z.strictObject({
    field: z.enum(ORDER_NUMERIC_FIELDS),
    type: z.enum(NUMERIC_FILTER_TYPES),
    value: z.number({ error: 'Should be number' }),
  }),
  z.strictObject({ field: z.enum(ORDER_DATE_FIELDS), type: z.enum(DATE_FILTER_TYPES), value: isoDateSchema }),
]);
export type OrderFilter = z.infer<typeof OrderFilterSchema>;
export const ORDER_PAGE_SIZE_MAX = 500;
/**
 * `GET api/orders/unified/` (state, page, page_size, paginate) plus ours: `kind`, `search` (ISIN or bond name),
 * `filters` (a JSON array of OrderFilter). `paginate=false` returns at most ORDER_PAGE_SIZE_MAX rows.
 */
export const OrderUnifiedQuerySchema = z.strictObject({
  state: z.enum(ORDER_STATES).optional(),
  kind: z.enum(ORDER_KINDS).optional(),
  search: z.string().trim().max(100).optional(),
  filters: z
    .string()
    .max(4000)
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filters should be a JSON array.' });
        return z.NEVER;
      }
    })
    .pipe(z.array(OrderFilterSchema).max(10))
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(ORDER_PAGE_SIZE_MAX).default(50),
  paginate: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(true),
});
export type OrderUnifiedQuery = z.output<typeof OrderUnifiedQuerySchema>;
export const OrderListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(OrderSchema),
});
/** `GET api/orders/unified/export/?format=csv|xlsx&…` (ours): the filtered blotter as a file. */
export const ORDER_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const ORDER_EXPORT_MAX_ROWS = 50_000;

/* ------------------------------------------------------------- live updates ------------------------------------------------------------- */

/**
 * Live topics on `ws/trade/d/` (spec §7 "Live updates": refresh tickets, consideration update, open orders).
 * Each event goes to every participant firm of the trade (buyer, seller, their brokers) and to no one else.
 */
export const POST_TRADE_TOPICS = {
  /**
   * A ticket was created or changed state: payload { ticket_id, number, state, action, actor_client_id } (the firm
   * whose user acted; null for the system's steps: reporting, settlement, deadlines, a ticket made from a deal).
   */
  refreshTickets: 'trade.refresh_tickets',
  /**
   * Price, size or settlement date changed (the consideration changed): payload { ticket_id, price, yield, quantum,
   * settlement_date, consideration, stamp_duty, actor_client_id }.
   */
  considerationUpdate: 'trade.consideration_update',
  /**
   * An order or procurement order changed: payload { order_id, ticket_id, kind, state, client_id } (client_id: the
   * firm whose order it is; the event still reaches every participant firm, so each side's screens refresh).
   */
  openOrders: 'trade.open_orders',
} as const;

/* --------------------------------------------------------------- the rule --------------------------------------------------------------- */

/**
 * spec §3 Ticket: "a check decides whether the current user is the seller or the buyer broker using the
 * broker_details user ids and seller_details; the exact rule: not shown". Ours: the user is the seller if
 * `seller_details.user_id` is the user, or the user's firm is `seller_details.client_id` (any dealer of the selling
 * firm acts for it); the user is the buyer's broker if a `broker_details` entry flagged `buy` names the user, or
 * the user's firm (a broker firm working the buyer's side). The seller and the buyer's broker face the buyer as
 * sellers: they see the ticket as a sale (`buy_or_sell: 'sell'`) and they quote its price.
 */
export function isSellerOrBuyerBroker(
  ticket: {
    seller_details: { user_id: string | null; client_id: string };
    broker_details: readonly { user_id: string | null; client_id: string; buy_or_sell: 'buy' | 'sell' }[];
  },
  user: { user_id: string; client_id: string },
): boolean {
  const s = ticket.seller_details;
  if (s.user_id === user.user_id || s.client_id === user.client_id) return true;
  return ticket.broker_details.some((b) => b.buy_or_sell === 'buy' && (b.user_id === user.user_id || b.client_id === user.client_id));
}

/** `TKT-000123`, `ORD-000123`, `PRO-000123`. */
export const ticketNumber = (n: number) => `TKT-${String(n).padStart(6, '0')}`;
export const orderNumber = (kind: OrderKind, n: number) => `${kind === 'order' ? 'ORD' : 'PRO'}-${String(n).padStart(6, '0')}`;
