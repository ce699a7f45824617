/**
 * Finstruments (issue 4, "Find"): bond search, price info / calculation, cash flows, bonds by the same
 * issuer, trades, ratings and the PDF downloads. Yields on the wire are fractions (0.0718 = 7.18 %),
 * prices are clean per ₹100 face, money is rupees rounded to the paisa, dates are ISO `yyyy-mm-dd`.
 */
import { z } from 'zod';

export const MIN_SEARCH_CHARACTERS = 3;
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MAX_RESULTS = 50;
export const SEARCH_PLACEHOLDER = 'Search for Bonds by Name, ISIN, Issuer...';
export const SEARCH_EMPTY_STATES = { idle: 'Start typing to search...', none: 'No bonds found' } as const;
export const MATURED_LABEL = '(MATURED) ';
export const UNLISTED_LABEL = '(UNLISTED) ';
export const NOT_AVAILABLE = { text: 'NA', tooltip: 'Not Available' } as const;
export const IM_DOWNLOAD_HINT = 'You can download IM directly from here.';
export const IM_DOWNLOAD_SUCCESS = 'Congratulations! You have downloaded the IM successfully';
/**
 * Pricing input mode switch (spec §4 "threshold: not shown"; our choice): a typed value at or above
 * 30 is a clean price (no Indian bond yields 30 %; few prices fall below 30), below it a yield in %.
 */
export const PRICE_YIELD_SWITCH_THRESHOLD = 30;
export const SETTLEMENT_DELTAS = [0, 1, 2] as const;
export const DEFAULT_SETTLEMENT_DELTA = 1;
export const LIST_PAGE_SIZE_MAX = 100;
export const LIST_PAGE_SIZE_DEFAULT = 20;

export const PRICING_MESSAGES = {
  bothPriceAndYield: 'Cannot provide both price and yield',
  bothSettlement: 'Cannot provide both settlement date and settlement delta',
  searchTooShort: `Enter at least ${MIN_SEARCH_CHARACTERS} characters to search.`,
  notPriceable: 'This bond cannot be priced.',
} as const;

const isoDate = z.iso.date({ error: 'Should be a date (yyyy-mm-dd).' });
const ISIN_PATTERN = /^IN[A-Z0-9]{10}$/;
export const isinSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(ISIN_PATTERN, { error: 'Please enter a valid ISIN (12 characters, starting IN).' });
/** A path id: the numeric finstrument id or its ISIN. */
export const FinstrumentIdParamsSchema = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .regex(/^(\d{1,9}|IN[A-Za-z0-9]{10})$/, { error: 'Should be a finstrument id or an ISIN.' }),
});

export const SECURITY_TYPES = [
  'G-Sec',
  'SDL',
  'T-Bill',
  'G-Sec STRIPS',
  'G-Sec FRB',
  'SGB',
  'Bond/NCD',
  'Commercial Paper',
  'Certificate of Deposit',
  'Securitised Debt (PTC)',
  'Security Receipt',
  'Municipal Bond',
  'ZCZP (Social Stock Exchange)',
] as const;

/* ---------- search ---------- */

export const FinstrumentSearchQuerySchema = z.strictObject({
  searchKey: z
    .string({ error: PRICING_MESSAGES.searchTooShort })
    .trim()
    .min(MIN_SEARCH_CHARACTERS, { error: PRICING_MESSAGES.searchTooShort })
    .max(100, { error: 'Search is at most 100 characters.' }),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_RESULTS).default(20),
});

/** The spec's Finstrument plus what the search list and the header need. */
export const FinstrumentSummarySchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  /** display_name prefixed '(MATURED) ' or '(UNLISTED) ' (spec §4). */
  label: z.string(),
  /** False when matured or unlisted: not selectable. */
  available: z.boolean(),
  identifiers: z.object({ ISIN: z.string() }),
  contract_parameters: z.object({ is_listed: z.boolean(), maturity_date: z.string().nullable() }),
  security_type: z.string(),
  issuer_name: z.string().nullable(),
  coupon_rate: z.number().nullable(),
  credit_rating: z.string().nullable(),
  is_matured: z.boolean(),
});
export type FinstrumentSummary = z.infer<typeof FinstrumentSummarySchema>;
export const FinstrumentSearchResponseSchema = z.object({ finstruments: z.array(FinstrumentSummarySchema) });

/* ---------- detail ---------- */

const ScheduleEntrySchema = z.object({ date: z.string(), price: z.number() });
export const RatingSchema = z.object({ agency: z.string(), rating: z.string(), as_of: z.string().nullable(), source: z.string() });
export const ReferencePriceSchema = z.object({
  source: z.string(),
  price_date: z.string(),
  clean_price: z.number().nullable(),
  bond_yield: z.number(),
  detail: z.string().nullable(),
});
export const FinstrumentDetailSchema = FinstrumentSummarySchema.extend({
  long_name: z.string().nullable(),
  issuer_key: z.string().nullable(),
  coupon_frequency: z.number().int().nullable(),
  day_count: z.string().nullable(),
  face_value: z.number().nullable(),
  paid_up_value: z.number().nullable(),
  issue_date: z.string().nullable(),
  listing_date: z.string().nullable(),
  maturity_year: z.number().int().nullable(),
  perpetual: z.boolean(),
  call_schedule: z.array(ScheduleEntrySchema),
  put_schedule: z.array(ScheduleEntrySchema),
  exchanges: z.array(z.string()),
  nse_symbol: z.string().nullable(),
  nse_series: z.string().nullable(),
  bse_scrip_code: z.string().nullable(),
  bse_symbol: z.string().nullable(),
  isin_status: z.string().nullable(),
  rating_agency: z.string().nullable(),
  rating_as_of: z.string().nullable(),
  /** field → source column/file the value came from. */
  provenance: z.record(z.string(), z.string()),
  /** Fields filled by a documented default, not by the data. */
  assumed: z.array(z.string()),
  can_be_priced: z.boolean(),
  not_priceable_reason: z.string().nullable(),
  reference: ReferencePriceSchema.nullable(),
});
export type FinstrumentDetail = z.infer<typeof FinstrumentDetailSchema>;

/* ---------- pricing ---------- */

export const PriceRequestSchema = z
  .strictObject({
    /** Yield as a fraction (6 dp on the wire). */
    yield: z.number({ error: 'Should be number' }).min(0, { error: 'Cannot be negative' }).max(1, { error: 'Yield above 100%' }).optional(),
    /** Clean price per ₹100 (4 dp). */
    price: z
      .number({ error: 'Should be number' })
      .min(1, { error: 'Price should be at least 1' })
      .max(250, { error: 'Should be less than 250' })
      .optional(),
    settlement_date: isoDate.optional(),
    settlement_delta: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'Settlement delta should be 0, 1 or 2.' }).optional(),
    /** Units (bonds) for the consideration. */
    quantity: z
      .number({ error: 'Should be number' })
      .int({ error: 'Should be a whole number of units.' })
      .min(1, { error: 'Cannot be zero' })
      .max(999_999_999_999, { error: 'Max 12 digits' })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.yield !== undefined && value.price !== undefined)
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: PRICING_MESSAGES.bothPriceAndYield });
    if (value.settlement_date !== undefined && value.settlement_delta !== undefined)
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: PRICING_MESSAGES.bothSettlement });
  });
export type PriceRequest = z.infer<typeof PriceRequestSchema>;

export const ConsiderationDetailsSchema = z.object({
  quantity: z.number().int(),
  face_value_per_unit: z.number(),
  face_amount: z.number(),
  clean_price: z.number(),
  accrued_interest_per_100: z.number(),
  accrued_days: z.number().int(),
  /** ₹, rounded to the paisa. */
  principal: z.number(),
  accrued_interest: z.number(),
  consideration: z.number(),
  stamp_duty: z.number(),
  total: z.number(),
});
export type ConsiderationDetails = z.infer<typeof ConsiderationDetailsSchema>;

export const PriceInfoSchema = z.object({
  finstrument_id: z.number().int(),
  price: z.object({
    unit_clean_price: z.number().nullable(),
    /** Fraction (0.0718), in the bond's own compounding. */
    bond_yield: z.number().nullable(),
    settlement_date: z.string().nullable(),
    dirty_price: z.number().nullable(),
    accrued_interest: z.number().nullable(),
    yield_compounding: z.string().nullable(),
  }),
  fixed_field: z.enum(['yield', 'price']),
  trade_date: z.string(),
  settlement_delta: z.number().int().nullable(),
  can_be_priced: z.boolean(),
  allow_price_modification: z.boolean(),
  not_priceable_reason: z.string().nullable(),
  reference: ReferencePriceSchema.nullable(),
  consideration_details: ConsiderationDetailsSchema.nullable(),
  warnings: z.array(z.string()),
});
export type PriceInfo = z.infer<typeof PriceInfoSchema>;

/* ---------- cash flows ---------- */

export const CashflowRequestSchema = z.strictObject({
  quantity: z
    .number({ error: 'Should be number' })
    .int({ error: 'Should be a whole number of units.' })
    .min(1, { error: 'Cannot be zero' })
    .max(999_999_999_999, { error: 'Max 12 digits' }),
  /** Reference (settlement) date: flows after it are shown; default the T+1 settlement date. */
  ref_date: isoDate.optional(),
});
export const CashflowScheduleSchema = z.object({
  finstrument_id: z.number().int(),
  quantity: z.number().int(),
  ref_date: z.string(),
  cashflows: z.array(
    z.object({
      due_date: z.string(),
      payment_date: z.string(),
      record_date: z.string().nullable(),
      coupon_rate: z.number(),
      interest: z.number(),
      principal: z.number(),
      total: z.number(),
    }),
  ),
  totals: z.object({ interest: z.number(), principal: z.number(), total: z.number() }),
});

/* ---------- lists: bonds by the same issuer, trades, the Find grid ---------- */

export const NUMERIC_FILTER_TYPES = ['equals', 'lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual'] as const;
export const DATE_FILTER_TYPES = ['is', 'after', 'before'] as const;
export const PaginationSchema = z.strictObject({
  page: z.number().int().min(1).max(100_000).default(1),
  page_size: z
    .number()
    .int()
    .min(1)
    .max(LIST_PAGE_SIZE_MAX, { error: `Page size is at most ${LIST_PAGE_SIZE_MAX}.` })
    .default(LIST_PAGE_SIZE_DEFAULT),
});

function listRequest<
  N extends readonly [string, ...string[]],
  D extends readonly [string, ...string[]],
  S extends readonly [string, ...string[]],
>(numeric: N, dates: D, sortable: S) {
  const filter = z.union(
    [
      z.strictObject({ field: z.enum(numeric), type: z.enum(NUMERIC_FILTER_TYPES), value: z.number({ error: 'Should be number' }) }),
      z.strictObject({ field: z.enum(dates), type: z.enum(DATE_FILTER_TYPES), value: isoDate }),
    ],
    {
      error:
        'Unknown filter: use a numeric field with equals/lessThan/lessThanOrEqual/greaterThan/greaterThanOrEqual or a date field with is/after/before.',
    },
  );
  return {
    pagination: PaginationSchema.default({ page: 1, page_size: LIST_PAGE_SIZE_DEFAULT }),
    sort: z.strictObject({ field: z.enum(sortable), direction: z.enum(['asc', 'desc']).default('asc') }).optional(),
    filters: z.array(filter).max(20).default([]),
  };
}

export const FINSTRUMENT_NUMERIC_FIELDS = ['coupon_rate', 'face_value', 'bond_yield', 'years_to_maturity'] as const;
export const FINSTRUMENT_DATE_FIELDS = ['maturity_date', 'listing_date'] as const;
export const FINSTRUMENT_SORT_FIELDS = [
  'maturity_date',
  'coupon_rate',
  'display_name',
  'bond_yield',
  'face_value',
  'listing_date',
  'isin',
] as const;

/** `POST api/bonds-by-same-issuer/{id}/`. */
export const IssuerBondsRequestSchema = z.strictObject({
  ...listRequest(FINSTRUMENT_NUMERIC_FIELDS, FINSTRUMENT_DATE_FIELDS, FINSTRUMENT_SORT_FIELDS),
  include_matured: z.boolean().default(false),
});

/** `POST api/finstruments/` — the Find page grid over the whole universe. */
export const FinstrumentListRequestSchema = z.strictObject({
  ...listRequest(FINSTRUMENT_NUMERIC_FIELDS, FINSTRUMENT_DATE_FIELDS, FINSTRUMENT_SORT_FIELDS),
  include_matured: z.boolean().default(false),
  search: z.string().trim().max(100).optional(),
  security_types: z.array(z.enum(SECURITY_TYPES)).max(SECURITY_TYPES.length).optional(),
  ratings: z.array(z.string().trim().min(1).max(20)).max(30).optional(),
  listed: z.boolean().optional(),
  exchange: z.enum(['NSE', 'BSE']).optional(),
});

export const FinstrumentListRowSchema = FinstrumentSummarySchema.extend({
  face_value: z.number().nullable(),
  listing_date: z.string().nullable(),
  exchanges: z.array(z.string()),
  bond_yield: z.number().nullable(),
  reference_source: z.string().nullable(),
});
export const FinstrumentListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(FinstrumentListRowSchema),
});

export const TRADE_NUMERIC_FIELDS = ['price', 'bond_yield', 'value_inr', 'num_trades'] as const;
export const TRADE_DATE_FIELDS = ['trade_date'] as const;
export const TRADE_SORT_FIELDS = ['trade_date', 'price', 'bond_yield', 'value_inr'] as const;
/** `POST api/trades/{id}/`. */
export const TradesRequestSchema = z.strictObject(listRequest(TRADE_NUMERIC_FIELDS, TRADE_DATE_FIELDS, TRADE_SORT_FIELDS));
export const TradeRowSchema = z.object({
  trade_date: z.string(),
  /** NSE_CM_CLOSE (exchange close), NSE_OTC_TRADE (reported OTC deals), MF_VALUATION (fund valuation yield). */
  kind: z.string(),
  price: z.number().nullable(),
  bond_yield: z.number().nullable(),
  value_inr: z.number().nullable(),
  num_trades: z.number().int().nullable(),
  detail: z.string().nullable(),
  source: z.string(),
});
export const TradeListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(TradeRowSchema),
});

export const CreditRationaleSchema = z.object({ finstrument_id: z.number().int(), ratings: z.array(RatingSchema) });

/* ---------- downloads ---------- */

export const ImDownloadRequestSchema = z.strictObject({ isin: isinSchema });
/** `POST api/quote/{id}/download/`: the same inputs as a price calculation. */
export const QuoteDownloadRequestSchema = PriceRequestSchema;
