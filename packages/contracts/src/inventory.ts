/**
 * Inventory (issue 14, "The book"; spec trading-domain §7 Inventory): a firm's bond positions per ISIN and
 * account, valued on the reference price waterfall with bond-math. Wire format, messages and limits.
 * Face values are whole rupees (as a quote's quantum); money is rupees with paise on the wire, integer paise
 * in the database; prices clean per ₹100 (4 dp); yields fractions (6 dp) in the bond's own compounding.
 */
import { z } from 'zod';
import { quotedQuantumSchema, quotePriceSchema, quoteYieldSchema, CLEARING_CORPORATIONS, PRIVATE_RUN_MAX_RECIPIENTS } from './market';
import { isinSchema } from './finstruments';

export const INVENTORY_UPLOAD_MAX_BYTES = 1_048_576;
export const INVENTORY_UPLOAD_MAX_ROWS = 10_000;
export const INVENTORY_PAGE_SIZE_DEFAULT = 100;
export const INVENTORY_PAGE_SIZE_MAX = 1_000;
/** The account a holding is booked under when the file or the call names none. */
export const INVENTORY_DEFAULT_ACCOUNT = 'MAIN';
export const INVENTORY_ACCOUNT_MAX_LENGTH = 60;
export const INVENTORY_UPLOAD_COLUMNS = ['isin', 'face_value', 'valuation_cost', 'date', 'account'] as const;
export type InventoryUploadColumn = (typeof INVENTORY_UPLOAD_COLUMNS)[number];
export const INVENTORY_UPLOAD_REQUIRED_COLUMNS = ['isin', 'face_value', 'valuation_cost'] as const;
/** Maturity buckets of the breakdown (years to maturity from the valuation date). */
export const MATURITY_BUCKETS = ['< 1Y', '1-3Y', '3-5Y', '5-10Y', '10Y+', 'Perpetual'] as const;
export type MaturityBucket = (typeof MATURITY_BUCKETS)[number];
export const INVENTORY_OFFER_KINDS = ['public_run', 'private_run', 'exchange_rfq'] as const;
export type InventoryOfferKind = (typeof INVENTORY_OFFER_KINDS)[number];
export const EXTERNAL_TRADE_SIDES = ['BUY', 'SELL'] as const;
export const CASHFLOW_HORIZONS = [30, 90] as const;

export const INVENTORY_MESSAGES = {
  empty: 'The file is empty.',
  noRows: 'The file has no holding rows.',
  tooManyRows: `At most ${INVENTORY_UPLOAD_MAX_ROWS} holdings per file.`,
  tooLarge: `The file is larger than ${INVENTORY_UPLOAD_MAX_BYTES / 1_048_576} MB.`,
  unsupported: 'Upload a CSV or XLSX file.',
  unknownColumn: (column: string) => `Unknown column '${column}'.`,
  missingColumn: (column: string) => `The column '${column}' is missing.`,
  rowsInvalid: (rows: number) => `${rows} row${rows === 1 ? '' : 's'} could not be imported; nothing was imported.`,
  bondNotFound: 'No bond with this ISIN.',
  duplicateRow: 'This ISIN and account appear earlier in the file.',
  dateInFuture: 'The holding date cannot be in the future.',
  account: `Account should be 1–${INVENTORY_ACCOUNT_MAX_LENGTH} letters, digits, spaces or - _ / .`,
  positionNotFound: 'Holding not found.',
  negativeHolding: (held: string) => `This would take the holding below zero: only ${held} is held.`,
  offerTooLarge: (held: string) => `You cannot offer more than you hold (${held}).`,
  privateRunNeedsCounterparties: 'Choose at least one counterparty for a private run.',
  bookAlreadyConfirmed: "Today's book is already confirmed.",
  bookDateStale: 'The book date has moved on: reload the book and review it again.',
  nothingToChange: 'Nothing to change.',
  notPriceable: 'This holding cannot be valued, so it cannot be offered near valuation: give a price or a yield.',
} as const;

const isoDate = z.iso.date({ error: 'Should be a date (yyyy-mm-dd).' });
export const inventoryAccountSchema = z
  .string()
  .trim()
  .min(1, { error: INVENTORY_MESSAGES.account })
  .max(INVENTORY_ACCOUNT_MAX_LENGTH, { error: INVENTORY_MESSAGES.account })
  .regex(/^[A-Za-z0-9 _\-/.]+$/, { error: INVENTORY_MESSAGES.account })
  .transform((v) => v.toUpperCase());

/** One upload row as the server checks it (after the size shorthand is read). */
export const InventoryUploadRowSchema = z.strictObject({
  isin: isinSchema,
  face_value: quotedQuantumSchema,
  valuation_cost: quotePriceSchema,
  date: isoDate.optional(),
  account: inventoryAccountSchema.default(INVENTORY_DEFAULT_ACCOUNT),
});
export type InventoryUploadRow = z.output<typeof InventoryUploadRowSchema>;

export const InventoryUploadRowErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export const InventoryUploadErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  row_errors: z.array(InventoryUploadRowErrorSchema).optional(),
});
export const InventoryUploadResultSchema = z.object({
  imported: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  book_date: z.string(),
});
export type InventoryUploadResult = z.infer<typeof InventoryUploadResultSchema>;
export const InventoryTemplateQuerySchema = z.strictObject({ format: z.enum(['csv', 'xlsx']).default('csv') });

export const InventoryListQuerySchema = z.strictObject({
  account: inventoryAccountSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(INVENTORY_PAGE_SIZE_MAX).default(INVENTORY_PAGE_SIZE_DEFAULT),
});
export type InventoryListQuery = z.output<typeof InventoryListQuerySchema>;

export const ValuationSchema = z.object({
  /** NSE_CM_CLOSE | NSE_OTC_TRADE | MF_VALUATION | MATRIX (price-sources.ts), null when none applies. */
  source: z.string().nullable(),
  price_date: z.string().nullable(),
  /** Calendar days from the price date to the valuation date. */
  age_days: z.number().int().nullable(),
  clean_price: z.number().nullable(),
  bond_yield: z.number().nullable(),
  /** Why the holding has no valuation (the bond cannot be priced, or no reference price). */
  not_valued_reason: z.string().nullable(),
});

export const PositionSchema = z.object({
  id: z.uuid(),
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  issuer: z.string().nullable(),
  rating: z.string().nullable(),
  security_type: z.string(),
  maturity_date: z.string().nullable(),
  maturity_bucket: z.enum(MATURITY_BUCKETS).nullable(),
  account: z.string(),
  /** ₹ face value held (whole rupees). */
  face_value: z.number(),
  number_of_bonds: z.number(),
  /** Weighted-average cost, clean per ₹100 (the valuation cost). */
  average_cost: z.number(),
  cost: z.number(),
  as_of: z.string(),
  valuation: ValuationSchema,
  /** ₹: clean market value, accrued interest, dirty value, unrealised P&L (clean value − cost). */
  market_value: z.number().nullable(),
  accrued_interest: z.number().nullable(),
  dirty_value: z.number().nullable(),
  unrealised_pnl: z.number().nullable(),
  realised_pnl: z.number(),
  modified_duration: z.number().nullable(),
  /** ₹ fall in value for a 1 bp rise in yield. */
  pv01: z.number().nullable(),
  updated_at: z.string(),
});
export type Position = z.infer<typeof PositionSchema>;

export const BookTotalsSchema = z.object({
  positions: z.number().int(),
  face_value: z.number(),
  cost: z.number(),
  market_value: z.number(),
  accrued_interest: z.number(),
  unrealised_pnl: z.number(),
  realised_pnl: z.number(),
  pv01: z.number(),
  /** Market-value-weighted over the valued holdings. */
  bond_yield: z.number().nullable(),
  modified_duration: z.number().nullable(),
  not_valued: z.number().int(),
});
export const BreakdownRowSchema = z.object({
  key: z.string(),
  positions: z.number().int(),
  face_value: z.number(),
  market_value: z.number(),
  unrealised_pnl: z.number(),
  pv01: z.number(),
});
export const InventorySchema = z.object({
  book_date: z.string(),
  valuation_date: z.string(),
  /** True when the book date is before today: confirm-previous carries it forward. */
  needs_confirmation: z.boolean(),
  confirmed_at: z.string().nullable(),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(PositionSchema),
  totals: BookTotalsSchema,
  breakdowns: z.object({
    issuer: z.array(BreakdownRowSchema),
    rating: z.array(BreakdownRowSchema),
    sector: z.array(BreakdownRowSchema),
    maturity_bucket: z.array(BreakdownRowSchema),
  }),
});
export type Inventory = z.infer<typeof InventorySchema>;

export const EditValuationCostSchema = z.strictObject({
  position_id: z.uuid({ error: INVENTORY_MESSAGES.positionNotFound }),
  valuation_cost: quotePriceSchema,
});
export type EditValuationCost = z.output<typeof EditValuationCostSchema>;

export const ConfirmPreviousSchema = z.strictObject({
  /** The book date the caller reviewed (the book's current date); a stale one is refused. */
  book_date: isoDate,
});
export const ConfirmPreviousResultSchema = z.object({
  previous_book_date: z.string(),
  book_date: z.string(),
  positions: z.number().int(),
  confirmed_at: z.string(),
});

export const ExternalTradeSchema = z.strictObject({
  isin: isinSchema,
  account: inventoryAccountSchema.default(INVENTORY_DEFAULT_ACCOUNT),
  side: z.enum(EXTERNAL_TRADE_SIDES, { error: 'Side should be BUY or SELL.' }),
  face_value: quotedQuantumSchema,
  price: quotePriceSchema,
  trade_date: isoDate,
  counterparty: z.string().trim().max(200).optional(),
  reference: z.string().trim().max(100).optional(),
});
export type ExternalTrade = z.output<typeof ExternalTradeSchema>;
export const InventoryMovementSchema = z.object({
  id: z.uuid(),
  /** The holding after the trade, valued. */
  position: PositionSchema,
  side: z.enum(EXTERNAL_TRADE_SIDES),
  face_value: z.number(),
  price: z.number(),
  trade_date: z.string(),
  /** ₹ realised on a sell against the weighted-average cost; 0 on a buy. */
  realised_pnl: z.number(),
  source: z.string(),
});
export type InventoryMovement = z.infer<typeof InventoryMovementSchema>;

export const InventoryOfferSchema = z
  .strictObject({
    position_id: z.uuid({ error: INVENTORY_MESSAGES.positionNotFound }),
    kind: z.enum(INVENTORY_OFFER_KINDS, { error: 'Offer as public_run, private_run or exchange_rfq.' }),
    /** Default: the whole holding. */
    face_value: quotedQuantumSchema.optional(),
    /** Default: the valuation yield. */
    price: quotePriceSchema.optional(),
    yield: quoteYieldSchema.optional(),
    counterparties: z
      .array(z.uuid({ error: 'Should be a client id.' }))
      .max(PRIVATE_RUN_MAX_RECIPIENTS)
      .default([]),
    clearing_corporation: z.enum(CLEARING_CORPORATIONS).default('NSCCL'),
    validity: z
      .number()
      .int()
      .min(1)
      .max(30 * 24 * 60)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.price !== undefined && value.yield !== undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'Cannot provide both price and yield' });
    if (value.kind === 'private_run' && value.counterparties.length === 0)
      ctx.addIssue({ code: 'custom', path: ['counterparties'], message: INVENTORY_MESSAGES.privateRunNeedsCounterparties });
  });
export type InventoryOffer = z.output<typeof InventoryOfferSchema>;

export const CashflowCalendarQuerySchema = z.strictObject({
  days: z.coerce
    .number()
    .int()
    .refine((v) => v === 30 || v === 90, { error: 'days should be 30 or 90.' })
    .default(30),
});
export const CashflowCalendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  results: z.array(
    z.object({
      payment_date: z.string(),
      isin: z.string(),
      display_name: z.string(),
      account: z.string(),
      face_value: z.number(),
      interest: z.number(),
      principal: z.number(),
      total: z.number(),
    }),
  ),
  totals: z.object({ interest: z.number(), principal: z.number(), total: z.number() }),
});
export type CashflowCalendar = z.infer<typeof CashflowCalendarSchema>;

/* ---------- live updates on ws/trade/d/ ---------- */

/** Live topics of the book (server modules/inventory/README.md "Speed"). */
export const INVENTORY_TOPICS = {
  /**
   * The valuation inputs of bonds the firm holds changed (a new reference price, a bond's terms): its book is
   * re-valued; payload `InventoryRevalued`. Sent to the holding firm only.
   */
  revalued: 'inventory.revalued',
} as const;

export const InventoryRevaluedSchema = z.object({
  /** The valuation inputs' version the book was re-valued for. */
  inputs_version: z.number().int(),
  /** How many of the firm's bonds changed (every bond it holds when the change log no longer reached that far). */
  bonds: z.number().int(),
});
export type InventoryRevalued = z.infer<typeof InventoryRevaluedSchema>;
