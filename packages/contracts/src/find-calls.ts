/**
 * Find's remaining bond calls (issue 17 §3): market quote, quote calculation, master quote, finstrument
 * info v2, the client's finstrument list and the category facets. What each returns where the spec is
 * silent is documented in apps/server/src/modules/finstruments/README.md "Find calls". Yields are
 * fractions, prices clean per ₹100, dates ISO.
 */
import { z } from 'zod';
import {
  DATE_FILTER_TYPES,
  FINSTRUMENT_DATE_FIELDS,
  FINSTRUMENT_NUMERIC_FIELDS,
  FINSTRUMENT_SORT_FIELDS,
  FinstrumentDetailSchema,
  FinstrumentListRowSchema,
  LIST_PAGE_SIZE_DEFAULT,
  NUMERIC_FILTER_TYPES,
  PaginationSchema,
  PriceInfoSchema,
  PriceRequestSchema,
  SECURITY_TYPES,
} from './finstruments';
import { PRICE_SOURCES } from './price-sources';

/** The categories `/find` filters by (`POST api/categories/`). */
export const FIND_CATEGORIES = ['security_type', 'credit_rating', 'exchange', 'reference_source'] as const;
export type FindCategory = (typeof FIND_CATEGORIES)[number];
export const FIND_CATEGORY_LABELS: Record<FindCategory, string> = {
  security_type: 'Security type',
  credit_rating: 'Rating',
  exchange: 'Exchange',
  reference_source: 'Price source',
};
/** The credit_rating value of bonds without a rating. */
export const NOT_RATED = 'NR';

const isoDate = z.iso.date({ error: 'Should be a date (yyyy-mm-dd).' });
const values = <T extends z.ZodType>(item: T) => z.array(item).max(50, { error: 'At most 50 values.' }).optional();
export const CategoryValuesSchema = z.strictObject({
  security_type: values(z.enum(SECURITY_TYPES, { error: 'Unknown security type.' })),
  credit_rating: values(z.string().trim().min(1).max(20, { error: 'A rating is at most 20 characters.' })),
  exchange: values(z.enum(['NSE', 'BSE'], { error: 'Should be NSE or BSE.' })),
  reference_source: values(z.enum(PRICE_SOURCES, { error: 'Unknown price source.' })),
});
export type CategoryValues = z.infer<typeof CategoryValuesSchema>;

/** The spec's numeric (equals, lessThan, …) and date (is, after, before) filters over the bond fields. */
export const FindFilterSchema = z.union(
  [
    z.strictObject({
      field: z.enum(FINSTRUMENT_NUMERIC_FIELDS),
      type: z.enum(NUMERIC_FILTER_TYPES),
      value: z.number({ error: 'Should be number' }),
    }),
    z.strictObject({ field: z.enum(FINSTRUMENT_DATE_FIELDS), type: z.enum(DATE_FILTER_TYPES), value: isoDate }),
  ],
  {
    error:
      'Unknown filter: use a numeric field with equals/lessThan/lessThanOrEqual/greaterThan/greaterThanOrEqual or a date field with is/after/before.',
  },
);

/** `POST api/categories/`. */
export const CategoriesRequestSchema = z.strictObject({
  category_list: z
    .array(z.enum(FIND_CATEGORIES, { error: `Unknown category: use ${FIND_CATEGORIES.join(', ')}.` }))
    .min(1, { error: 'Name at least one category.' })
    .max(FIND_CATEGORIES.length)
    .default([...FIND_CATEGORIES]),
  category_values: CategoryValuesSchema.default({}),
  filters: z.array(FindFilterSchema).max(20).default([]),
  include_matured: z.boolean().default(false),
});
export const CategoriesResponseSchema = z.object({
  categories: z.array(
    z.object({
      name: z.enum(FIND_CATEGORIES),
      label: z.string(),
      values: z.array(z.object({ value: z.string(), label: z.string(), count: z.number().int() })),
    }),
  ),
});
export type CategoriesResponse = z.infer<typeof CategoriesResponseSchema>;

/** `POST api/client-finstrument-list/`. */
export const ClientFinstrumentListRequestSchema = z.strictObject({
  pagination_params: PaginationSchema.default({ page: 1, page_size: LIST_PAGE_SIZE_DEFAULT }),
  category_values: CategoryValuesSchema.default({}),
  filters: z.array(FindFilterSchema).max(20).default([]),
  sort: z.strictObject({ field: z.enum(FINSTRUMENT_SORT_FIELDS), direction: z.enum(['asc', 'desc']).default('asc') }).optional(),
  search: z.string().trim().max(100).optional(),
  include_matured: z.boolean().default(false),
  /** Only bonds on which the caller's firm has an open quote. */
  mine_only: z.boolean().default(false),
});
export const ClientFinstrumentListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(
    FinstrumentListRowSchema.extend({
      reference_date: z.string().nullable(),
      reference_age_days: z.number().int().nullable(),
      /** Open quotes of the caller's own firm on the bond (never another firm's). */
      client_open_quotes: z.number().int(),
    }),
  ),
});

/** The reference mark with its source and age. */
export const ReferenceMarkSchema = z.object({
  source: z.string(),
  source_label: z.string(),
  price_date: z.string(),
  age_days: z.number().int(),
  bond_yield: z.number(),
  clean_price: z.number().nullable(),
  detail: z.string().nullable(),
});
export const SettlementRequestSchema = z
  .strictObject({
    settlement_date: isoDate.optional(),
    settlement_delta: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'Settlement delta should be 0, 1 or 2.' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.settlement_date !== undefined && value.settlement_delta !== undefined)
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: 'Cannot provide both settlement date and settlement delta' });
  });

const RiskSchema = z.object({
  macaulay_duration: z.number(),
  modified_duration: z.number(),
  convexity: z.number(),
  pv01_per_100: z.number(),
});

/** `POST api/quote/market/{id}/`: the composite mid (the reference mark) priced for settlement. */
export const MarketQuoteSchema = z.object({
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  settlement_date: z.string().nullable(),
  can_be_priced: z.boolean(),
  not_priceable_reason: z.string().nullable(),
  mid: z
    .object({
      clean_price: z.number(),
      bond_yield: z.number(),
      dirty_price: z.number(),
      accrued_interest: z.number(),
      yield_compounding: z.string(),
    })
    .nullable(),
  mark: ReferenceMarkSchema.nullable(),
  /** Spread of the mid yield over the G-sec curve at the bond's tenor, bp (semi-annual basis). */
  spread_to_gsec_bp: z.number().nullable(),
  last_observation: z
    .object({ kind: z.string(), trade_date: z.string(), price: z.number().nullable(), bond_yield: z.number().nullable() })
    .nullable(),
});

/** `POST api/quote/{id}/`: a price/yield calculation with risk, spreads and the consideration. */
export const QuoteCalcRequestSchema = PriceRequestSchema;
export const QuoteCalcSchema = PriceInfoSchema.extend({
  risk: RiskSchema.nullable(),
  /** ₹ change in value of the quantity for a 1 bp rise in yield. */
  pv01_rupees: z.number().nullable(),
  spread_to_gsec_bp: z.number().nullable(),
  /** The quoted yield minus the reference mark's, bp (positive: cheaper than the mark). */
  vs_mark_bp: z.number().nullable(),
});

/** `POST api/v1/finstrument/master/quote/{id}`: every reference source of the waterfall, the chosen first. */
export const MasterQuoteSchema = z.object({
  finstrument_id: z.number().int(),
  isin: z.string(),
  settlement_date: z.string(),
  chosen: ReferenceMarkSchema.nullable(),
  sources: z.array(
    ReferenceMarkSchema.extend({
      priority: z.number().int(),
      chosen: z.boolean(),
      /** The source's yield priced for the settlement date (null if the bond cannot be priced). */
      priced_clean_price: z.number().nullable(),
    }),
  ),
});

/** `GET api/v2/finstrument/info/{id}`: the security header and its T+1 pricing in one answer. */
export const FinstrumentInfoV2Schema = FinstrumentDetailSchema.extend({
  mark: ReferenceMarkSchema.nullable(),
  pricing: PriceInfoSchema,
});
