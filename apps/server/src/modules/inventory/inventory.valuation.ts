/**
 * Values a book (README "Valuation"): every figure from bond-math through the finstruments module's bond
 * builder. The valuation yield is the reference price waterfall's pick (NSE close → OTC trades → MF valuations
 * → matrix); the valuation date is the pricing panel's default settlement (T+1 of today's trade date in IST).
 * Pure apart from the inputs: no database, no clock.
 */
import {
  DEFAULT_SETTLEMENT_DELTA,
  InventorySchema,
  MATURITY_BUCKETS,
  type Inventory,
  type MaturityBucket,
  type Position,
} from '@dart/contracts';
import {
  BondMathError,
  cleanPrice,
  getConsideration,
  getRiskMeasures,
  makeDate,
  makeYield,
  roundRupeesToPaise,
  type CalendarDate,
} from '@dart/bond-math';
import type { z } from 'zod';
import {
  buildBond,
  formatDate,
  getSettlementForDelta,
  getTradeDate,
  parseDate,
  priceBond,
  yearsBetween,
} from '../finstruments/finstruments.pricing';
import { termsOf } from '../finstruments/finstruments.service';
import { perBondOf } from '../market';
import {
  pricedBondOf,
  type BondTermsRow,
  type BookBond,
  type BookPosition,
  type HeldBond,
  type HeldReference,
} from './inventory.repository';

const NO_REFERENCE = 'No traded price, valuation or matrix yield is available.';
const round = (value: number, places: number) => Number(value.toFixed(places));
export const rupees = (paise: number) => paise / 100;

export interface ValuationDates {
  tradeDate: CalendarDate;
  settlement: CalendarDate;
}

export function valuationDates(now: Date): ValuationDates {
  const tradeDate = getTradeDate(now);
  return { tradeDate, settlement: getSettlementForDelta(null, tradeDate, DEFAULT_SETTLEMENT_DELTA) };
}

const DIGIT_0 = 48;
const HYPHEN = 45;
/** The number of the decimal digits of `text` from `from` to `to`, or -1 when one is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}
/**
 * bond-math's `parseDate` for a date as the database gives it, without its regular expression (a book valued from
 * the start reads 10,000 dates): the same `YYYY-MM-DD` digits to the same `makeDate`; any other text, or a date
 * `makeDate` refuses, goes to `parseDate` itself (and its error).
 */
export function dateOf(text: string): CalendarDate {
  if (text.length === 10 && text.charCodeAt(4) === HYPHEN && text.charCodeAt(7) === HYPHEN) {
    const year = digitsAt(text, 0, 4);
    const month = digitsAt(text, 5, 7);
    const day = digitsAt(text, 8, 10);
    if (year >= 0 && month >= 0 && day >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      try {
        return makeDate(year, month, day);
      } catch {
        // A day past the month's end: parseDate's own error below.
      }
    }
  }
  return parseDate(text);
}

function bucketOf(bond: HeldBond, settlement: CalendarDate): MaturityBucket | null {
  if (bond.perpetual) return 'Perpetual';
  if (!bond.maturityDate) return null;
  const years = yearsBetween(settlement, dateOf(bond.maturityDate));
  if (years < 1) return '< 1Y';
  if (years < 3) return '1-3Y';
  if (years < 5) return '3-5Y';
  if (years < 10) return '5-10Y';
  return '10Y+';
}

/** The bond built for a date, once per bond of the book (the cash-flow calendar's builds). */
export function createBondCache(settlement: CalendarDate) {
  const built = new Map<number, ReturnType<typeof buildBond>>();
  return (row: BookBond) => {
    let result = built.get(row.id);
    if (!result) {
      result = buildBond(termsOf(row), settlement);
      built.set(row.id, result);
    }
    return result;
  };
}

/**
 * Raise with any change of how this module turns a bond into figures (`priceBondFigures`) that the canaries below
 * might not show.
 */
const METHOD_REVISION = 1;

/** Bonds of each pricing convention (G-sec, SDL, T-bill, corporate NCD annual and with a call, STRIPS, perpetual). */
const CANARIES: Array<Partial<BookBond> & Pick<BookBond, 'securityType'>> = [
  { securityType: 'G-Sec', couponRate: 7.18, couponFrequency: 2, issueDate: '2023-07-24', maturityDate: '2033-07-24' },
  { securityType: 'SDL', couponRate: 7.45, couponFrequency: 2, issueDate: '2024-03-20', maturityDate: '2036-03-20' },
  { securityType: 'T-Bill', issueDate: '2025-10-02', maturityDate: '2026-09-30' },
  {
    securityType: 'Bond/NCD',
    couponRate: 8.05,
    couponFrequency: 1,
    faceValue: 100_000,
    issueDate: '2022-06-17',
    maturityDate: '2031-06-17',
  },
  {
    securityType: 'Bond/NCD',
    couponRate: 9.1,
    couponFrequency: 4,
    faceValue: 1_000,
    issueDate: '2023-01-10',
    maturityDate: '2033-01-10',
    callSchedule: [{ date: '2028-01-10', price: 100 }],
  },
  { securityType: 'G-Sec STRIPS', issueDate: '2020-01-01', maturityDate: '2035-06-15' },
  {
    securityType: 'Bond/NCD',
    couponRate: 8.5,
    couponFrequency: 1,
    perpetual: true,
    issueDate: '2021-09-01',
    callSchedule: [{ date: '2031-09-01', price: 100 }],
  },
];

let method: number | undefined;

/**
 * The version of the code that values a bond, as stored with its figures (migration 0032): figures computed by
 * other code are never used. Derived from the code itself, so a change of bond-math's pricing or risk, or of the
 * finstruments bond builder, changes it without anyone remembering to: the canaries (one bond of each convention)
 * priced at two yields on two settlement dates, every figure hashed (FNV-1a over their shortest exact text), with
 * `METHOD_REVISION`. A positive 31-bit integer; computed once per process (~60 prices).
 */
export function valuationMethod(): number {
  if (method !== undefined) return method;
  let hash = 0x811c9dc5;
  const mix = (text: string) => {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  };
  mix(`revision ${METHOD_REVISION}`);
  for (const settlement of ['2026-02-27', '2027-08-31']) {
    for (const yieldFraction of [0.0712, 0.0931]) {
      for (const [i, terms] of CANARIES.entries()) {
        mix(JSON.stringify(priceBondFigures(canaryBond(terms, i), { yieldFraction }, parseDate(settlement))));
      }
    }
  }
  method = (hash >>> 1) & 0x7fffffff;
  return method;
}

/**
 * A canary as the book's read gives a bond (`bookPartOf`): its held columns in the read's order, and to price it the
 * read's own constructor (`pricedBondOf`), so the canaries give V8 the object shapes real bonds have (partial terms
 * spread into a canary made each one a shape of its own, and the code they warmed up slower for real bonds).
 */
const canaryHeld = (terms: (typeof CANARIES)[number], i: number): HeldBond => ({
  id: i,
  isin: `CANARY${i}`,
  displayName: `canary ${i}`,
  issuerName: null,
  creditRating: null,
  securityType: terms.securityType,
  faceValue: terms.faceValue ?? null,
  maturityDate: terms.maturityDate ?? null,
  perpetual: terms.perpetual ?? false,
});

/** A canary's terms as the book's read gives them (`BondTermsRow`). */
const canaryTerms = (terms: (typeof CANARIES)[number], i: number): BondTermsRow => [
  i,
  '',
  terms.couponRate ?? null,
  terms.couponFrequency ?? null,
  terms.issueDate ?? null,
  terms.listingDate ?? null,
  terms.tenorDays ?? null,
  terms.callSchedule ?? [],
  terms.putSchedule ?? [],
];

const canaryBond = (terms: (typeof CANARIES)[number], i: number): BookBond => pricedBondOf(canaryHeld(terms, i), canaryTerms(terms, i));

/**
 * The canaries (one bond of each pricing convention) as the book's read gives bonds: what is shown of each
 * (`held`), its terms, and the bond to price built from both by the read's own constructor. Ids 0 to `count` - 1,
 * the conventions in turn (`count` more than their 7: a book of many bonds).
 */
export const canaryBonds = (count: number = CANARIES.length): Array<{ held: HeldBond; terms: BondTermsRow; bond: BookBond }> =>
  Array.from({ length: count }, (_, i) => {
    const terms = CANARIES[i % CANARIES.length]!;
    return { held: canaryHeld(terms, i), terms: canaryTerms(terms, i), bond: canaryBond(terms, i) };
  });

/** A bond's figures for one unit at a settlement date and reference yield, or why it cannot be valued. */
export type PricedFigures =
  | {
      clean: number;
      bondYield: number;
      modifiedDuration: number;
      pv01Per100: number;
      /** `getConsideration`'s face per unit (outstanding under the outstanding basis) and accrued per ₹100. */
      faceValuePerUnit: number;
      accruedPer100: number;
    }
  | { reason: string };

/**
 * A bond's figures on the valuation date at its reference yield: the same for every holding of it. The money of
 * one holding is then two roundings (`holdingMoney`), so a book of 10,000 holdings over 5,000 bonds prices 5,000
 * bonds, not 10,000.
 */
export interface BondValuation {
  perBond: number;
  bucket: MaturityBucket | null;
  reference: { source: string | null; price_date: string | null; age_days: number | null };
  priced: PricedFigures;
}

/** Enough for every bond of the universe (about 32,000); past it the cache starts again (README "Speed"). */
const BOND_CACHE_LIMIT = 100_000;

interface CachedValuation {
  /** What the valuation depends on: the bond's terms (content hash), the trade date and the reference row. */
  contentHash: string;
  tradeDate: CalendarDate;
  ref: HeldReference | undefined;
  value: BondValuation;
}

const sameReference = (a: HeldReference | undefined, b: HeldReference | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.id === b.id &&
    a.source === b.source &&
    a.priceDate === b.priceDate &&
    a.yieldFraction === b.yieldFraction);

/**
 * Values bonds for holdings, each (bond, terms, date, reference) once per node: a book of 10,000 holdings over
 * 5,000 bonds builds and prices 5,000 bonds the first time and none after, until a term, the date or the
 * reference changes (each is compared, so a stale figure is never served). One entry per bond: its latest.
 * (A book valued from the start takes most of its bonds' figures as stored instead: `bondValuation`.)
 */
export function createBondValuer(limit = BOND_CACHE_LIMIT) {
  const cache = new Map<number, CachedValuation>();
  return (row: BookBond, ref: HeldReference | undefined, dates: ValuationDates): BondValuation => {
    const hit = cache.get(row.id);
    if (hit && hit.contentHash === row.contentHash && hit.tradeDate === dates.tradeDate && sameReference(hit.ref, ref)) return hit.value;
    const value = bondValuation(row, ref, dates, priceBondFigures(row, ref, dates.settlement));
    if (!hit && cache.size >= limit) cache.clear();
    cache.set(row.id, { contentHash: row.contentHash, tradeDate: dates.tradeDate, ref, value });
    return value;
  };
}
export type BondValuer = ReturnType<typeof createBondValuer>;

/**
 * A bond's valuation on `dates` from its figures for one unit (`priced`: `priceBondFigures` of this bond, reference
 * and settlement date, or those figures as stored for them): what every holding of it shares.
 */
export function bondValuation(row: HeldBond, ref: HeldReference | undefined, dates: ValuationDates, priced: PricedFigures): BondValuation {
  return {
    perBond: perBondOf(row),
    bucket: bucketOf(row, dates.settlement),
    reference: {
      source: ref?.source ?? null,
      price_date: ref?.priceDate ?? null,
      age_days: ref ? Math.max(0, dates.tradeDate - dateOf(ref.priceDate)) : null,
    },
    priced,
  };
}

/**
 * One bond's figures for one unit: built, priced at the reference yield, risk measures and one unit's
 * consideration. Depends on the bond's terms, the settlement date and the reference yield only (and this code:
 * `valuationMethod`), which is what a stored row is checked against.
 */
export function priceBondFigures(
  row: BookBond,
  ref: Pick<HeldReference, 'yieldFraction'> | undefined,
  settlement: CalendarDate,
): PricedFigures {
  // The bond's own reason first (never priceable, no maturity), then a missing reference.
  const built = buildBond(termsOf(row), settlement);
  if (!built.ok) return { reason: built.reason };
  if (!ref) return { reason: NO_REFERENCE };
  try {
    const bond = built.bond;
    const point = priceBond(bond, settlement, { yield: ref.yieldFraction });
    const risk = getRiskMeasures(bond, settlement, makeYield(ref.yieldFraction, bond.yieldCompounding));
    const clean = round(point.cleanPer100, 4);
    // One unit's consideration gives the per-unit terms every holding of the bond scales (holdingMoney).
    const unit = getConsideration(bond, settlement, 1, cleanPrice(clean));
    return {
      clean,
      bondYield: round(ref.yieldFraction, 6),
      modifiedDuration: round(risk.modifiedDuration, 4),
      pv01Per100: risk.pv01Per100,
      faceValuePerUnit: unit.faceValuePerUnit,
      accruedPer100: unit.accruedInterestPer100,
    };
  } catch (error) {
    if (error instanceof BondMathError) return { reason: `The reference yield does not price on this date (${error.code}).` };
    throw error;
  }
}

/**
 * A holding's consideration from its bond's per-unit terms: bond-math's `getConsideration` rule (total =
 * units × face per unit × (clean + accrued) ÷ 100 half-up to the paisa; accrued the same way; principal the
 * difference) without building the pricing set-up again for every holding. The unit test holds it to
 * `getConsideration` on every size.
 */
export function holdingMoney(units: number, faceValuePerUnit: number, clean: number, accruedPer100: number) {
  const faceAmount = units * faceValuePerUnit;
  const totalPaise = roundRupeesToPaise((faceAmount * (clean + accruedPer100)) / 100);
  const accruedPaise = roundRupeesToPaise((faceAmount * accruedPer100) / 100);
  return { totalPaise, accruedPaise, principalPaise: totalPaise - accruedPaise };
}

/**
 * One valued holding, in paise for the sums (the wire view divides by 100). The wire `view` is built the first
 * time it is read (a page of it), not for every holding of a book valued from the start: the totals and
 * breakdowns read only the numbers and groups here. Those figures are plain fields, not getters over the holding
 * and its bond: `summarise` reads 12 of them for each of 10,000 holdings once per book, mostly before the
 * optimising compiler has seen it, where a getter is a call each.
 */
export class ValuedPosition {
  readonly faceValue: number;
  readonly costPaise: number;
  readonly realisedPnlPaise: number;
  readonly issuer: string | null;
  readonly rating: string | null;
  readonly sector: string;
  readonly bucket: MaturityBucket | null;
  readonly unrealisedPaise: number | null;
  readonly yield: number | null;
  readonly modifiedDuration: number | null;
  private built: Position | undefined;

  constructor(
    private readonly position: BookPosition,
    private readonly row: HeldBond,
    private readonly bond: BondValuation,
    readonly marketValuePaise: number | null,
    readonly accruedPaise: number | null,
    readonly pv01Paise: number | null,
  ) {
    const valued = 'clean' in bond.priced ? bond.priced : null;
    this.faceValue = position.faceValue;
    this.costPaise = position.costPaise;
    this.realisedPnlPaise = position.realisedPnlPaise;
    this.issuer = row.issuerName;
    this.rating = row.creditRating;
    this.sector = row.securityType;
    this.bucket = bond.bucket;
    this.unrealisedPaise = marketValuePaise === null ? null : marketValuePaise - position.costPaise;
    this.yield = valued && valued.bondYield;
    this.modifiedDuration = valued && valued.modifiedDuration;
  }

  get view(): Position {
    if (this.built) return this.built;
    const { position, row, marketValuePaise, accruedPaise } = this;
    const { perBond, bucket, reference, priced } = this.bond;
    const valued = 'clean' in priced ? priced : null;
    // One object literal, no spreads: spreading a 20-field object into another costs V8 ~10 µs a holding.
    this.built = {
      id: position.id,
      finstrument_id: row.id,
      isin: row.isin,
      display_name: row.displayName,
      issuer: row.issuerName,
      rating: row.creditRating,
      security_type: row.securityType,
      maturity_date: row.maturityDate,
      maturity_bucket: bucket,
      account: position.account,
      face_value: position.faceValue,
      number_of_bonds: position.faceValue / perBond,
      average_cost: position.faceValue > 0 ? round(position.costPaise / position.faceValue, 4) : 0,
      cost: rupees(position.costPaise),
      as_of: position.asOf,
      realised_pnl: rupees(position.realisedPnlPaise),
      updated_at: (typeof position.updatedAt === 'number'
        ? new Date(Math.floor(position.updatedAt / 1000))
        : position.updatedAt
      ).toISOString(),
      valuation: {
        source: reference.source,
        price_date: reference.price_date,
        age_days: reference.age_days,
        clean_price: valued ? valued.clean : null,
        bond_yield: valued ? valued.bondYield : null,
        not_valued_reason: 'reason' in priced ? priced.reason : null,
      },
      market_value: marketValuePaise === null ? null : rupees(marketValuePaise),
      accrued_interest: accruedPaise === null ? null : rupees(accruedPaise),
      // The consideration's total: principal + accrued, in whole paise (holdingMoney).
      dirty_value: marketValuePaise === null ? null : rupees(marketValuePaise + accruedPaise!),
      unrealised_pnl: this.unrealisedPaise === null ? null : rupees(this.unrealisedPaise),
      modified_duration: valued && valued.modifiedDuration,
      pv01: this.pv01Paise === null ? null : rupees(this.pv01Paise),
    };
    return this.built;
  }
}

/** A holding of `row` valued from the bond's valuation (`bondValuation`, or the node's `createBondValuer`). */
export function valuePosition(position: BookPosition, row: HeldBond, bond: BondValuation): ValuedPosition {
  const valued = 'clean' in bond.priced ? bond.priced : null;
  if (!valued) return new ValuedPosition(position, row, bond, null, null, null);
  const money = holdingMoney(position.faceValue / bond.perBond, valued.faceValuePerUnit, valued.clean, valued.accruedPer100);
  // PV01 per ₹100 of face × (face ÷ 100) rupees = × face paise.
  return new ValuedPosition(
    position,
    row,
    bond,
    money.principalPaise,
    money.accruedPaise,
    Math.round(valued.pv01Per100 * position.faceValue),
  );
}

type Totals = z.infer<typeof InventorySchema>['totals'];
type Breakdowns = z.infer<typeof InventorySchema>['breakdowns'];

/** What a page of the book is cut from: the valued holdings in book order and their totals and breakdowns. */
export interface ValuedBook {
  dates: ValuationDates;
  valued: readonly ValuedPosition[];
  totals: Totals;
  breakdowns: Breakdowns;
}

/** Where a page sits: the page, and the book row's facts the answer shows (its date, today, its confirmation). */
export interface AnswerPage {
  page: number;
  pageSize: number;
  bookDate: string;
  today: string;
  confirmedAt: string | null;
}

/**
 * `GET api/inventory/`'s answer for one page of a valued book, checked against the contract (`InventorySchema`)
 * and encoded as UTF-8 JSON: the bytes sent (README "Speed": cut once per page and kept until the book changes).
 */
export function inventoryAnswer(book: ValuedBook, at: AnswerPage): Buffer {
  const start = (at.page - 1) * at.pageSize;
  const inventory: Inventory = {
    book_date: at.bookDate,
    valuation_date: formatDate(book.dates.settlement),
    needs_confirmation: at.bookDate < at.today,
    confirmed_at: at.confirmedAt,
    count: book.valued.length,
    page: at.page,
    page_size: at.pageSize,
    results: book.valued.slice(start, start + at.pageSize).map((v) => v.view),
    totals: book.totals,
    breakdowns: book.breakdowns,
  };
  return Buffer.from(JSON.stringify(InventorySchema.parse(inventory)));
}

/** Portfolio totals and breakdowns by issuer, rating, sector (security type) and maturity bucket. */
export function summarise(valued: ValuedPosition[]): { totals: Totals; breakdowns: Breakdowns } {
  let face = 0;
  let cost = 0;
  let mv = 0;
  let accrued = 0;
  let unrealised = 0;
  let realised = 0;
  let pv01 = 0;
  let weightedYield = 0;
  let weightedDuration = 0;
  let notValued = 0;
  type Group = { positions: number; face: number; mv: number; unrealised: number; pv01: number };
  const groups: Record<keyof Breakdowns, Map<string, Group>> = {
    issuer: new Map(),
    rating: new Map(),
    sector: new Map(),
    maturity_bucket: new Map(),
  };
  const add = (map: Map<string, Group>, key: string, v: ValuedPosition) => {
    let g = map.get(key);
    if (!g) map.set(key, (g = { positions: 0, face: 0, mv: 0, unrealised: 0, pv01: 0 }));
    g.positions++;
    g.face += v.faceValue;
    g.mv += v.marketValuePaise ?? 0;
    g.unrealised += v.unrealisedPaise ?? 0;
    g.pv01 += v.pv01Paise ?? 0;
  };
  for (const v of valued) {
    face += v.faceValue;
    cost += v.costPaise;
    realised += v.realisedPnlPaise;
    if (v.marketValuePaise === null) notValued++;
    else {
      mv += v.marketValuePaise;
      accrued += v.accruedPaise!;
      unrealised += v.unrealisedPaise!;
      pv01 += v.pv01Paise!;
      weightedYield += v.yield! * v.marketValuePaise;
      weightedDuration += v.modifiedDuration! * v.marketValuePaise;
    }
    add(groups.issuer, v.issuer ?? 'Unknown', v);
    add(groups.rating, v.rating ?? 'Unrated', v);
    add(groups.sector, v.sector, v);
    add(groups.maturity_bucket, v.bucket ?? 'Unknown', v);
  }
  const rowsOf = (dimension: keyof Breakdowns) => {
    const order = dimension === 'maturity_bucket' ? (key: string) => MATURITY_BUCKETS.indexOf(key as MaturityBucket) : null;
    return [...groups[dimension].entries()]
      .map(([key, g]) => ({
        key,
        positions: g.positions,
        face_value: g.face,
        market_value: rupees(g.mv),
        unrealised_pnl: rupees(g.unrealised),
        pv01: rupees(g.pv01),
      }))
      .sort((a, b) => (order ? order(a.key) - order(b.key) : b.market_value - a.market_value || a.key.localeCompare(b.key)));
  };
  return {
    totals: {
      positions: valued.length,
      face_value: face,
      cost: rupees(cost),
      market_value: rupees(mv),
      accrued_interest: rupees(accrued),
      unrealised_pnl: rupees(unrealised),
      realised_pnl: rupees(realised),
      pv01: rupees(pv01),
      bond_yield: mv > 0 ? round(weightedYield / mv, 6) : null,
      modified_duration: mv > 0 ? round(weightedDuration / mv, 4) : null,
      not_valued: notValued,
    },
    breakdowns: {
      issuer: rowsOf('issuer'),
      rating: rowsOf('rating'),
      sector: rowsOf('sector'),
      maturity_bucket: rowsOf('maturity_bucket'),
    },
  };
}

export { formatDate };
