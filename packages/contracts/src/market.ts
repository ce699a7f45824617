/**
 * Market (issue 5): quotes / expressions of interest (EOI), public and private runs, negotiation,
 * clusters (matches) and deals, and the live-update topics of `ws/trade/d/` that carry them.
 * Wire units: yields are fractions with 6 dp (0.0718 = 7.18 %), prices are clean per ₹100 with 4 dp,
 * quantum is FACE VALUE IN RUPEES (issue 12 §1: a whole number of bonds, at most 12 digits; face-value.ts),
 * money is rupees to the paisa, dates ISO `yyyy-mm-dd`.
 */
import { z } from 'zod';
import { FACE_VALUE_MESSAGES } from './face-value';
import { MESSAGES } from './validation';

const isSet = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
export const QUOTE_TYPES = ['BID', 'ASK'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];
export const QUOTE_SOURCES = ['WEBSITE', 'WHATSAPP', 'UPLOAD', 'API', 'EXCHANGE'] as const;
export const QUOTE_STATES = ['DEFAULT', 'INDICATIVE', 'FIRM'] as const;
export const QUOTE_STATUSES = ['open', 'closed', 'expired', 'replaced', 'filled'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const YIELD_TYPES = ['YTM', 'YTC', 'YTP'] as const;
export const CLEARING_CORPORATIONS = ['NSCCL', 'ICCL'] as const;
export const RFQ_MODES = ['ONE_TO_ONE', 'ONE_TO_MANY'] as const;
export const CLUSTER_STATUSES = ['proposed', 'accepted', 'closed'] as const;
export const NEGOTIATION_STATUSES = ['open', 'accepted', 'rejected'] as const;

/** Spec §9 quote defaults. */
export const QUOTE_DEFAULTS = {
  quote_type: 'BID',
  source: 'WEBSITE',
  state: 'DEFAULT',
  fixed_field: 'yield',
  yield_type: 'YTM',
  validity_minutes: 1440,
} as const;
/** Validity is given in minutes: at least 1, at most 30 days (our bound; the spec states none). */
export const QUOTE_VALIDITY_MAX_MINUTES = 30 * 24 * 60;
export const MARKET_PAGE_SIZE_DEFAULT = 20;
export const MARKET_PAGE_SIZE_MAX = 100;
/** Counterparties a private run may be sent to in one quote. */
export const PRIVATE_RUN_MAX_RECIPIENTS = 50;
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Trade sessions (spec: Mon–Fri business days, 09:00–17:00 IST; configurable T+0 cut-off). */
export const TRADE_TIMINGS = {
  timezone: 'Asia/Kolkata',
  open: '09:00',
  close: '17:00',
  t0_cutoff: '13:00',
  days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
} as const;
export const TRADE_TIMING_RESTRICTION_TEXT =
  'Trading is available to clients with trade access, Monday to Friday on business days, 09:00–17:00 IST. Contact your ops admin or support to enable trade access.';

export const MARKET_MESSAGES = {
  bothPriceAndYield: MESSAGES.bothPriceAndYield,
  bothSettlement: MESSAGES.bothSettlementDateAndDelta,
  priceOverrideNotAllowed: 'Your role cannot override the price.',
  quoteNotOpen: 'This quote is no longer open.',
  ownQuote: 'You cannot trade against your own quote.',
  idempotencyMismatch: 'This Idempotency-Key was already used with a different request.',
  idempotencyKeyInvalid: 'Idempotency-Key should be 1–100 letters, digits, dots, colons, dashes or underscores.',
  idempotencyInFlight: 'A request with this Idempotency-Key is still being processed. Try again shortly.',
  idempotencyAnswerLost:
    'The request with this Idempotency-Key was carried out, but its answer was not kept. Look the result up instead of retrying.',
  idempotencyTakenOver: 'This request ran past its time and a retry with the same Idempotency-Key took over; it changed nothing.',
  priceMin: 'Price should be at least 1',
  wholeRupees: FACE_VALUE_MESSAGES.wholeRupees,
  validity: `Validity should be between 1 and ${QUOTE_VALIDITY_MAX_MINUTES} minutes.`,
} as const;

const requiredOr = (other: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? MESSAGES.required : other;
const isoDate = z.iso.date({ error: 'Should be a date (yyyy-mm-dd).' });
const isoDateTime = z.iso.datetime({ offset: true, error: 'Should be a date-time (ISO 8601).' });

/** Clean price per ₹100 (spec §5: min 0, max 250; the pricing input's minimum 1), rounded to 4 dp. */
export const quotePriceSchema = z
  .number({ error: requiredOr(MESSAGES.shouldBeNumber) })
  .min(0, { error: MESSAGES.cannotBeNegative, abort: true })
  .min(1, { error: MARKET_MESSAGES.priceMin, abort: true })
  .max(250, { error: MESSAGES.priceBelow250 })
  .transform((v) => Number(v.toFixed(4)));
/** Yield as a fraction (spec §5: min 0, max 100 %), rounded to 6 dp. */
export const quoteYieldSchema = z
  .number({ error: requiredOr(MESSAGES.shouldBeNumber) })
  .min(0, { error: MESSAGES.cannotBeNegative, abort: true })
  .max(1, { error: MESSAGES.yieldAbove100 })
  .transform((v) => Number(v.toFixed(6)));
/**
 * Quantum: face value in whole rupees (spec §5: not negative, not zero, at most 12 digits). The
 * whole-bond rule needs the bond, so the server checks it (face-value.ts quantumError).
 */
export const quotedQuantumSchema = z
  .number({ error: requiredOr(MESSAGES.shouldBeNumber) })
  .min(0, { error: MESSAGES.cannotBeNegative, abort: true })
  .refine((v) => v !== 0, { error: MESSAGES.cannotBeZero, abort: true })
  .max(999_999_999_999, { error: MESSAGES.max12Digits, abort: true })
  .int({ error: MARKET_MESSAGES.wholeRupees });

const quoteType = z
  .string({ error: 'Quote type should be BID or ASK.' })
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(QUOTE_TYPES, { error: 'Quote type should be BID or ASK.' }));

/** Spec §3 "Quote / expression-of-interest create payload", plus `counterparties` for private runs. */
export const QuoteCreateShape = {
  quantum: quotedQuantumSchema,
  validity: z
    .number({ error: MESSAGES.shouldBeNumber })
    .int({ error: MARKET_MESSAGES.validity })
    .min(1, { error: MARKET_MESSAGES.validity })
    .max(QUOTE_VALIDITY_MAX_MINUTES, { error: MARKET_MESSAGES.validity })
    .default(QUOTE_DEFAULTS.validity_minutes),
  finstrument_id: z
    .number({ error: requiredOr(MESSAGES.shouldBeNumber) })
    .int()
    .positive(),
  quote_type: quoteType.default(QUOTE_DEFAULTS.quote_type),
  unit_price_stored: quotePriceSchema.nullish(),
  yield_stored: quoteYieldSchema.nullish(),
  expiry_date_stored: isoDateTime.nullish(),
  source: z.enum(QUOTE_SOURCES).default(QUOTE_DEFAULTS.source),
  whatsapp_consent: z.boolean().default(false),
  state: z.enum(QUOTE_STATES).default(QUOTE_DEFAULTS.state),
  mandate_expires_at: isoDateTime.nullish(),
  /** Settlement date; mutually exclusive with `settlement_delta` (spec §5 cross-field rule). */
  settlement: isoDate.nullish(),
  settlement_delta: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'Settlement delta should be 0, 1 or 2.' }).nullish(),
  is_best: z.boolean().default(false),
  replaces: z.uuid({ error: 'Should be a quote id.' }).nullish(),
  user_account_id: z.uuid().nullish(),
  end_client_id: z.string().max(100).nullish(),
  send_to_rfq: z.boolean().default(false),
  fixed_field: z.enum(['yield', 'price']).default(QUOTE_DEFAULTS.fixed_field),
  yield_type: z.enum(YIELD_TYPES).default(QUOTE_DEFAULTS.yield_type),
  price_overridden: z.boolean().default(false),
  broker_id: z.uuid().nullish(),
  clearing_corporation: z.enum(CLEARING_CORPORATIONS).nullish(),
  rfq_mode: z.enum(RFQ_MODES).nullish(),
  oto_participant_details: z.record(z.string(), z.union([z.string().max(200), z.number(), z.boolean(), z.null()])).nullish(),
  origin_trade: z.string().max(100).nullish(),
  /**
   * Exchange RFQs (`send_to_rfq`): hide the quoting firm from the venue's participants (default) or
   * disclose it. Ignored on other quotes.
   */
  rfq_anonymous: z.boolean().optional(),
  /** Client ids that receive this quote as a private run; empty/absent = public run. */
  counterparties: z
    .array(z.uuid({ error: 'Should be a client id.' }))
    .max(PRIVATE_RUN_MAX_RECIPIENTS)
    .default([]),
} as const;

function crossFieldRules(
  value: {
    settlement?: string | null | undefined;
    settlement_delta?: number | null | undefined;
    fixed_field?: string;
    unit_price_stored?: number | null | undefined;
    yield_stored?: number | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (isSet(value.settlement) && isSet(value.settlement_delta))
    ctx.addIssue({ code: 'custom', path: ['settlement'], message: MARKET_MESSAGES.bothSettlement });
  if (value.fixed_field === 'price' && !isSet(value.unit_price_stored))
    ctx.addIssue({ code: 'custom', path: ['unit_price_stored'], message: MESSAGES.required });
  if (value.fixed_field === 'yield' && !isSet(value.yield_stored))
    ctx.addIssue({ code: 'custom', path: ['yield_stored'], message: MESSAGES.required });
}

export const QuoteCreateSchema = z.strictObject(QuoteCreateShape).superRefine(crossFieldRules);
export type QuoteCreate = z.output<typeof QuoteCreateSchema>;

/**
 * `POST api/eoi/add/`: create, or respond to a quote (`respond_to`). A response is on the other
 * side of the quote, sent privately to its owner, by price or by yield but not both.
 */
export const QuoteAddSchema = z
  .strictObject({
    ...QuoteCreateShape,
    finstrument_id: QuoteCreateShape.finstrument_id.optional(),
    quote_type: quoteType.optional(),
    respond_to: z.uuid().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.respond_to && isSet(value.unit_price_stored) && isSet(value.yield_stored))
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: MARKET_MESSAGES.bothPriceAndYield });
    else if (value.respond_to) {
      if (isSet(value.settlement) && isSet(value.settlement_delta))
        ctx.addIssue({ code: 'custom', path: ['settlement'], message: MARKET_MESSAGES.bothSettlement });
      if (!isSet(value.unit_price_stored) && !isSet(value.yield_stored))
        ctx.addIssue({ code: 'custom', path: ['yield_stored'], message: MESSAGES.required });
    } else {
      if (value.finstrument_id === undefined) ctx.addIssue({ code: 'custom', path: ['finstrument_id'], message: MESSAGES.required });
      crossFieldRules(value, ctx);
    }
  });
export type QuoteAdd = z.output<typeof QuoteAddSchema>;

export const QuoteUpdateSchema = z
  .strictObject({
    quantum: quotedQuantumSchema.optional(),
    validity: QuoteCreateShape.validity.optional(),
    expiry_date_stored: isoDateTime.nullish(),
    unit_price_stored: quotePriceSchema.nullish(),
    yield_stored: quoteYieldSchema.nullish(),
    fixed_field: z.enum(['yield', 'price']).optional(),
    is_best: z.boolean().optional(),
    whatsapp_consent: z.boolean().optional(),
    price_overridden: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.fixed_field === undefined && isSet(value.unit_price_stored) && isSet(value.yield_stored))
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: MARKET_MESSAGES.bothPriceAndYield });
  });
export type QuoteUpdate = z.output<typeof QuoteUpdateSchema>;

export const QuoteIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Not found.' }) });
export const QuoteCloseManySchema = z.strictObject({ ids: z.array(z.uuid()).min(1).max(100) });

export const QuoteSchema = z.object({
  id: z.uuid(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  quote_type: z.enum(QUOTE_TYPES),
  quantum: z.number(),
  remaining_quantum: z.number(),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
  unit_price_stored: z.number(),
  yield_stored: z.number(),
  fixed_field: z.enum(['yield', 'price']),
  yield_type: z.string(),
  price_overridden: z.boolean(),
  settlement_date: z.string(),
  settlement_delta: z.number().nullable(),
  validity: z.number(),
  expiry_date_stored: z.string(),
  mandate_expires_at: z.string().nullable(),
  source: z.string(),
  state: z.string(),
  status: z.enum(QUOTE_STATUSES),
  is_best: z.boolean(),
  send_to_rfq: z.boolean(),
  whatsapp_consent: z.boolean(),
  replaces: z.string().nullable(),
  replaced_by: z.string().nullable(),
  respond_to: z.string().nullable(),
  private: z.boolean(),
  /** Set only on the owner's own quotes; others see runs anonymously (RELIABILITY #20). */
  counterparties: z.array(z.string()).nullable(),
  is_mine: z.boolean(),
  /** The quoting firm's name, only on the owner's quotes and on private runs sent to the reader. */
  client_name: z.string().nullable(),
  broker_id: z.string().nullable(),
  clearing_corporation: z.string().nullable(),
  rfq_mode: z.string().nullable(),
  end_client_id: z.string().nullable(),
  origin_trade: z.string().nullable(),
  /** Exchange RFQs only: the venue (NSE / BSE) and its RFQ number; null on Dart's own runs. */
  exchange: z.string().nullable().optional(),
  exchange_ref: z.string().nullable().optional(),
  /** An anonymous exchange RFQ never shows the quoting firm to others (client_name null). */
  rfq_anonymous: z.boolean().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Quote = z.infer<typeof QuoteSchema>;

/** A boolean query-string flag: 'true'/'1' or 'false'/'0'. */
const queryFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const MarketQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MARKET_PAGE_SIZE_MAX, { error: `Page size is at most ${MARKET_PAGE_SIZE_MAX}.` })
    .default(MARKET_PAGE_SIZE_DEFAULT),
  search: z.string().trim().max(100).optional(),
  my_quotes: queryFlag,
  finstrument_id: z.coerce.number().int().positive().optional(),
});
export type MarketQuery = z.output<typeof MarketQuerySchema>;

/**
 * `GET api/trade/eoi/`: the caller's firm's own quotes (every status, newest first) with the market list's
 * paging and filters (`page`, `page_size`, `search` through the bond search index, as the header search, `finstrument_id`) and `status`
 * (`open` = open and not yet due; `expired` includes open quotes past their expiry the sweep has not marked).
 */
export const MyQuotesQuerySchema = MarketQuerySchema.omit({ my_quotes: true }).extend({
  status: z.enum(QUOTE_STATUSES).optional(),
});
export type MyQuotesQuery = z.output<typeof MyQuotesQuerySchema>;

export const QuoteListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(QuoteSchema),
  /** Present (and results empty) when the caller has no trade access. */
  restriction_text: z.string().nullable(),
});

export const TradeTimingsSchema = z.object({
  timezone: z.string(),
  sessions: z.array(z.object({ day: z.string(), open: z.string(), close: z.string() })),
  t0_cutoff: z.string(),
  is_open: z.boolean(),
  is_business_day: z.boolean(),
  trade_date: z.string(),
  restriction_text: z.string(),
});

/* ---------- negotiation ---------- */

export const NegotiationRequestSchema = z
  .strictObject({
    quote_id: z.uuid(),
    /** Continue an existing negotiation (the quote owner countering back, or accepting). */
    negotiation_id: z.uuid().optional(),
    action: z.enum(['counter', 'accept', 'reject']).default('counter'),
    unit_price_stored: quotePriceSchema.optional(),
    yield_stored: quoteYieldSchema.optional(),
    quantum: quotedQuantumSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.unit_price_stored !== undefined && value.yield_stored !== undefined)
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: MARKET_MESSAGES.bothPriceAndYield });
    else if (value.action === 'counter' && value.unit_price_stored === undefined && value.yield_stored === undefined)
      ctx.addIssue({ code: 'custom', path: ['yield_stored'], message: MESSAGES.required });
  });
export type NegotiationRequest = z.output<typeof NegotiationRequestSchema>;

export const CounterSchema = z.object({
  action: z.enum(['counter', 'accept', 'reject']),
  by_client: z.enum(['quoter', 'responder']),
  by_user_id: z.string(),
  at: z.string(),
  unit_price_stored: z.number(),
  yield_stored: z.number(),
  quantum: z.number(),
});

export const DealSchema = z.object({
  id: z.uuid(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  side: z.enum(['buy', 'sell']),
  buyer_client_id: z.string(),
  seller_client_id: z.string(),
  buyer_name: z.string(),
  seller_name: z.string(),
  bid_quote_id: z.string().nullable(),
  ask_quote_id: z.string().nullable(),
  cluster_id: z.string().nullable(),
  negotiation_id: z.string().nullable(),
  price: z.number(),
  yield: z.number(),
  quantum: z.number(),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
  settlement_date: z.string(),
  consideration: z.number(),
  consideration_details: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type Deal = z.infer<typeof DealSchema>;

export const NegotiationSchema = z.object({
  id: z.uuid(),
  quote_id: z.uuid(),
  finstrument_id: z.number().int(),
  status: z.enum(NEGOTIATION_STATUSES),
  /** Whether the caller owns the quote (quoter) or countered it (responder). */
  role: z.enum(['quoter', 'responder']),
  history: z.array(CounterSchema),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
  deal: DealSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/* ---------- clusters ---------- */

export const ClusterSchema = z.object({
  id: z.uuid(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  status: z.enum(CLUSTER_STATUSES),
  bid_quote_id: z.uuid(),
  ask_quote_id: z.uuid(),
  /** The caller's leg (pass it as `lsId` to accept). */
  my_leg_id: z.uuid(),
  my_side: z.enum(['BID', 'ASK']),
  price: z.number(),
  yield: z.number(),
  quantum: z.number(),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
  settlement_date: z.string(),
  bid_accepted: z.boolean(),
  ask_accepted: z.boolean(),
  deal: DealSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Cluster = z.infer<typeof ClusterSchema>;
export const ClusterListQuerySchema = z.strictObject({
  status: z.enum(CLUSTER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MARKET_PAGE_SIZE_MAX).default(MARKET_PAGE_SIZE_DEFAULT),
});
export const ClusterListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(ClusterSchema),
});
export const ClusterUpdateSchema = z.strictObject({ status: z.literal('closed', { error: 'Only status "closed" can be set.' }) });
export const ClusterAcceptQuerySchema = z.strictObject({
  lsId: z.uuid({ error: 'lsId should be your quote id in the cluster.' }).optional(),
});
export const ClusterPriceQuerySchema = z.strictObject({ price: z.coerce.number().pipe(quotePriceSchema).optional() });
export const ClusterPriceSchema = z.object({
  cluster_id: z.uuid(),
  price: z.number(),
  yield: z.number(),
  quantum: z.number(),
  settlement_date: z.string(),
  consideration: z.number(),
  consideration_details: z.record(z.string(), z.unknown()).nullable(),
});

/* ---------- live topics on ws/trade/d/ (payloads of `event` messages) ---------- */

/** The spec's live message types and the topic each travels under. */
export const MARKET_TOPICS = {
  /** A public-run quote changed (created, updated, closed, expired, replaced, filled): every trading user. */
  publicRun: 'market.public_run',
  /** A private-run quote changed: only its owner and recipients. */
  privateRun: 'market.private_run',
  /** Refresh public and private runs (bulk changes such as expiry sweeps). */
  refreshRuns: 'market.refresh_runs',
  /** Own open orders (quotes) changed: the owner's firm only. */
  openOrders: 'market.open_orders',
  /** A negotiation counter/accept/reject: the two parties only. */
  rfqNegotiation: 'market.rfq_negotiation',
  /** A cluster was proposed, accepted by one side, or closed: the two parties only. */
  cluster: 'market.cluster',
  /** A deal was made (consideration fixed): the two parties only. */
  considerationUpdate: 'market.consideration_update',
  /** An exchange RFQ inquiry (simulated exchange): the firm's users. */
  inquiries: 'market.inquiries',
  /** Tickets changed (post-trade): the firm's users. */
  refreshTickets: 'market.refresh_tickets',
} as const;
export type MarketTopic = (typeof MARKET_TOPICS)[keyof typeof MARKET_TOPICS];
export const MARKET_QUOTE_ACTIONS = ['created', 'updated', 'closed', 'expired', 'replaced', 'filled'] as const;

export const QuoteEventPayloadSchema = z.object({
  action: z.enum(MARKET_QUOTE_ACTIONS),
  quote_id: z.uuid(),
  finstrument_id: z.number().int(),
  quote: QuoteSchema.omit({ is_mine: true, client_name: true, counterparties: true }).nullable(),
});
export const RefreshRunsPayloadSchema = z.object({ reason: z.string(), count: z.number().int() });
export const NegotiationEventPayloadSchema = z.object({
  negotiation_id: z.uuid(),
  quote_id: z.uuid(),
  status: z.enum(NEGOTIATION_STATUSES),
  last: CounterSchema,
});
export const ClusterEventPayloadSchema = z.object({
  cluster_id: z.uuid(),
  status: z.enum(CLUSTER_STATUSES),
  bid_quote_id: z.uuid(),
  ask_quote_id: z.uuid(),
  finstrument_id: z.number().int(),
  price: z.number(),
  quantum: z.number(),
});
export const DealEventPayloadSchema = z.object({
  deal_id: z.uuid(),
  finstrument_id: z.number().int(),
  price: z.number(),
  yield: z.number(),
  quantum: z.number(),
  settlement_date: z.string(),
  consideration: z.number(),
});

/** Topics under `market.` reach only users with `client.can_trade` (spec §6). */
export const MARKET_TOPIC_PREFIX = 'market.';

/* ---------- exchange RFQs (NSE RFQ / BSE RFQ through the ExchangeGateway) ---------- */

/** The venue of each clearing corporation: NSE RFQ settles at NSCCL, BSE RFQ at ICCL. */
export const EXCHANGE_OF_CLEARING_CORPORATION = { NSCCL: 'NSE', ICCL: 'BSE' } as const;
export const CLEARING_CORPORATION_OF_EXCHANGE = { NSE: 'NSCCL', BSE: 'ICCL' } as const;
export const EXCHANGE_TRADE_REPORT_STATUSES = ['pending', 'reported', 'failed'] as const;
export const EXCHANGE_SETTLEMENT_STATUSES = ['pending', 'settled', 'failed'] as const;
export const EXCHANGE_MESSAGES = {
  notEnabled: 'Your firm is not enabled for RFQs on this exchange.',
  noRfqExchange: 'Your firm is not enabled for exchange RFQs.',
  oneToOneNeedsOne: 'A one-to-one RFQ goes to exactly one counterparty.',
  unavailable: 'The exchange did not accept the request. Please try again.',
} as const;
/** Shown instead of the other firm on an anonymous exchange RFQ deal. */
export const anonymousParticipant = (exchange: string) => `Anonymous ${exchange} RFQ participant`;

/** `GET api/eoi/rfq-quote/`: open exchange RFQs of the caller's RFQ exchanges. */
export const RfqQuoteQuerySchema = MarketQuerySchema.omit({ finstrument_id: true }).extend({
  /** `false`: one page of up to RFQ_UNPAGINATED_MAX rows, page and page_size ignored. */
  paginate: queryFlag,
  exchange: z.enum(['NSE', 'BSE']).optional(),
});
export type RfqQuoteQuery = z.output<typeof RfqQuoteQuerySchema>;
export const RFQ_UNPAGINATED_MAX = 500;

/** Payload of `market.inquiries`: an exchange RFQ changed (sent to each firm enabled on its exchange). */
export const RfqInquiryPayloadSchema = z.object({
  action: z.enum(MARKET_QUOTE_ACTIONS),
  quote_id: z.uuid(),
  finstrument_id: z.number().int(),
  exchange: z.string(),
  quote: QuoteSchema.omit({ is_mine: true, client_name: true, counterparties: true }).nullable(),
});

/* ---------- lists of the caller's negotiations and deals ---------- */

const listPaging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MARKET_PAGE_SIZE_MAX, { error: `Page size is at most ${MARKET_PAGE_SIZE_MAX}.` })
    .default(MARKET_PAGE_SIZE_DEFAULT),
};

/** `GET api/eoi/negotiations/`: negotiations the caller's firm is part of (quoter or responder), newest first. */
export const NegotiationListQuerySchema = z.strictObject({ ...listPaging, status: z.enum(NEGOTIATION_STATUSES).optional() });
export type NegotiationListQuery = z.output<typeof NegotiationListQuerySchema>;
export const NegotiationListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(NegotiationSchema),
});
export type Negotiation = z.infer<typeof NegotiationSchema>;

/** `GET api/trade/deals/`: deals where the caller's firm is buyer or seller, newest first. */
export const DealListQuerySchema = z.strictObject(listPaging);
export type DealListQuery = z.output<typeof DealListQuerySchema>;
/** A deal seen by one party: the other firm's name, or the anonymous label on an anonymous exchange RFQ. */
export const DealListItemSchema = DealSchema.extend({ counterparty_name: z.string() });
export type DealListItem = z.infer<typeof DealListItemSchema>;
export const DealListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(DealListItemSchema),
});

/* ---------- market depth (premium), instruments in the market, bulk upload, trading hours ---------- */

/** A market-closed refusal (trading hours are enforced: see the server's TRADING_HOURS setting). */
export const MARKET_CLOSED_MESSAGE = 'The market is closed. Trading is open Monday to Friday on business days, 09:00–17:00 IST.';

export const DEPTH_LEVELS_DEFAULT = 10;
export const DEPTH_LEVELS_MAX = 50;
/** `GET api/quote/depth/`: aggregated public interest in one bond (Premium). */
export const DepthQuerySchema = z.strictObject({
  finstrument_id: z.coerce
    .number({ error: MESSAGES.shouldBeNumber })
    .int({ error: 'Should be a bond id.' })
    .positive({ error: 'Should be a bond id.' }),
  /** Only quotes settling on this date (default: every settlement date). */
  settlement_date: z.iso.date({ error: 'Should be a date (yyyy-mm-dd).' }).optional(),
  levels: z.coerce
    .number()
    .int()
    .min(1)
    .max(DEPTH_LEVELS_MAX, { error: `At most ${DEPTH_LEVELS_MAX} levels.` })
    .default(DEPTH_LEVELS_DEFAULT),
});
export type DepthQuery = z.output<typeof DepthQuerySchema>;
/** One price level: every open public quote at this clean price and yield, summed. No firm is named. */
export const DepthLevelSchema = z.object({
  price: z.number(),
  yield: z.number(),
  /** Face value (₹) still available at this level (sum of remaining quantum). */
  quantum: z.number(),
  /** Number of quotes at this level. */
  count: z.number().int(),
});
export type DepthLevel = z.infer<typeof DepthLevelSchema>;
export const DepthSchema = z.object({
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  /** Best (highest price) first. */
  bids: z.array(DepthLevelSchema),
  /** Best (lowest price) first. */
  asks: z.array(DepthLevelSchema),
  /** Totals over every level, not only the ones returned. */
  bid_quantum: z.number(),
  ask_quantum: z.number(),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
  bid_count: z.number().int(),
  ask_count: z.number().int(),
  /** Present (and levels empty) when the caller has no trade access. */
  restriction_text: z.string().nullable(),
});
export type Depth = z.infer<typeof DepthSchema>;

/** Spec §9 "Market instrument list: default page size 20, type Bond". */
export const MARKET_INSTRUMENT_TYPES = ['Bond'] as const;
export const MarketInstrumentQuerySchema = z.strictObject({
  ...listPaging,
  search: z.string().trim().max(100).optional(),
  type: z.enum(MARKET_INSTRUMENT_TYPES, { error: 'Type should be Bond.' }).default('Bond'),
});
export type MarketInstrumentQuery = z.output<typeof MarketInstrumentQuerySchema>;
const BestQuoteSchema = z.object({ price: z.number(), yield: z.number(), quantum: z.number() }).nullable();
export const MarketInstrumentSchema = z.object({
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  /** Highest bid and lowest ask among open public quotes (quantum = the face value left at that best quote). */
  best_bid: BestQuoteSchema,
  best_ask: BestQuoteSchema,
  bid_count: z.number().int(),
  ask_count: z.number().int(),
  bid_quantum: z.number(),
  ask_quantum: z.number(),
  /** Rupees of face value in one bond (₹100 G-secs/SDLs/T-bills, else the bond's face value): bonds = quantum ÷ this. */
  face_value_per_bond: z.number().optional(),
});
export type MarketInstrument = z.infer<typeof MarketInstrumentSchema>;
export const MarketInstrumentListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(MarketInstrumentSchema),
  restriction_text: z.string().nullable(),
});
export type MarketInstrumentList = z.infer<typeof MarketInstrumentListSchema>;

/** `POST api/eoi/upload/`: a CSV or XLSX file as the request body (all rows or none). */
export const QUOTE_UPLOAD_MAX_BYTES = 1_048_576;
export const QUOTE_UPLOAD_MAX_ROWS = 500;
export const QUOTE_UPLOAD_CONTENT_TYPES = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
/**
 * Columns of an upload, in template order. `yield` is in percent as typed on screen (7.18 = 7.18 %);
 * give `price` or `yield`, not both. Empty optional cells take the single-quote defaults.
 */
export const QUOTE_UPLOAD_COLUMNS = [
  'isin',
  'quote_type',
  'quantum',
  'price',
  'yield',
  'validity',
  'settlement_date',
  'settlement_delta',
  'state',
  'end_client_id',
] as const;
export type QuoteUploadColumn = (typeof QUOTE_UPLOAD_COLUMNS)[number];
export const QUOTE_UPLOAD_REQUIRED_COLUMNS = ['isin', 'quantum'] as const;
export const QUOTE_UPLOAD_MESSAGES = {
  empty: 'The file is empty.',
  noRows: 'The file has no quote rows.',
  tooManyRows: `At most ${QUOTE_UPLOAD_MAX_ROWS} quotes per file.`,
  tooLarge: `The file is larger than ${QUOTE_UPLOAD_MAX_BYTES / 1_048_576} MB.`,
  unsupported: 'Upload a CSV or XLSX file.',
  macro: 'Macro-enabled workbooks are not accepted.',
  unreadable: 'The file could not be read as CSV or XLSX.',
  missingColumn: (column: string) => `Missing column: ${column}.`,
  unknownColumn: (column: string) => `Unknown column: ${column}.`,
  rowsInvalid: (rows: number) => `${rows} ${rows === 1 ? 'row has' : 'rows have'} errors; nothing was imported.`,
  bondNotFound: 'Bond not found.',
} as const;
export const UploadRowErrorSchema = z.object({
  /** The spreadsheet row (the header is row 1). */
  row: z.number().int(),
  /** The column (one of QUOTE_UPLOAD_COLUMNS), or `row` for the row as a whole. */
  field: z.string(),
  message: z.string(),
});
export type UploadRowError = z.infer<typeof UploadRowErrorSchema>;
/** The 400 body of a refused upload: the usual error body plus every row error. */
export const QuoteUploadErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  row_errors: z.array(UploadRowErrorSchema),
});
export type QuoteUploadError = z.infer<typeof QuoteUploadErrorSchema>;
export const QuoteUploadResultSchema = z.object({
  created: z.number().int(),
  bid_count: z.number().int(),
  ask_count: z.number().int(),
  quotes: z.array(QuoteSchema),
});
export type QuoteUploadResult = z.infer<typeof QuoteUploadResultSchema>;
export const QuoteUploadTemplateQuerySchema = z.strictObject({ format: z.enum(['csv', 'xlsx']).default('csv') });

/* ---------- ticketing participant search (spec §2 "Ticketing participant search", §7) ---------- */

/** Rows per answer of `GET api/chatter/search-trade-participants`: firms first, then their members. */
export const TRADE_PARTICIPANTS_MAX = 20;
/** Debounce of the participant picker's search box (ms). */
export const TRADE_PARTICIPANT_SEARCH_DEBOUNCE_MS = 250;
/** The spec's group labels: a person at a firm, and the firm itself. */
export const TRADE_PARTICIPANT_GROUPS = { member: 'Member', company: 'Company' } as const;
/** The spec's empty texts, chosen by what the picker asks for (buyers, sellers, or any entity). */
export const TRADE_PARTICIPANT_EMPTY_TEXTS = {
  buyers: 'No Buyers Found',
  sellers: 'No Sellers Found',
  entities: 'No Entities Found',
} as const;

export const TradeParticipantSearchQuerySchema = z.strictObject({
  /** Part of a firm's name or of a person's first or last name; empty = the first firms by name. */
  search_param: z.string().trim().max(100, { error: 'Search is at most 100 characters.' }).default(''),
  /** With `for_rfq`: only firms enabled for RFQs on this exchange. */
  exchange: z.enum(['NSE', 'BSE'], { error: 'Exchange should be NSE or BSE.' }).optional(),
  for_rfq: queryFlag,
});
export type TradeParticipantSearchQuery = z.output<typeof TradeParticipantSearchQuerySchema>;

/**
 * Spec §3 "Counterparty (user or client)". A firm row (group Company) has `user_id`, `user_name` null;
 * a member row is one active user of the firm. `name` is always the firm's name; `client_id` is what a
 * private run's `counterparties` takes. No e-mail, PAN or credential ever travels here.
 */
export const CounterpartySchema = z.strictObject({
  user_id: z.string().nullable(),
  client_id: z.string(),
  /** The person's full name (member rows). */
  user_name: z.string().nullable(),
  /** Trading brand of the firm; Dart stores none yet, so always null. */
  brand_name: z.string().nullable(),
  /** The firm's participant name at NSE Clearing (`clients.nsccl_name`), if set. */
  nsccl_code: z.string().nullable(),
  /** The firm's participant name at ICCL (`clients.iccl_name`), if set. */
  iccl_code: z.string().nullable(),
  /** The firm's name. */
  name: z.string(),
});
export type Counterparty = z.infer<typeof CounterpartySchema>;
export const TradeParticipantListSchema = z.object({ results: z.array(CounterpartySchema) });
export type TradeParticipantList = z.infer<typeof TradeParticipantListSchema>;
