/**
 * The bonds bench/bond-math prices, generated from a seeded PRNG so every run (and QuantLib's
 * side of it) sees the same bonds:
 * - `mixed`: every day count the library supports × frequencies 1, 2, 4, 12, random issue and
 *   maturity dates, 43–45 future flows each, priced in the `quantlib` yield mode (SPEC PY10),
 *   the mode QuantLib's FixedRateBond reproduces, so both sides compute the same numbers;
 * - `gsec`: Indian G-secs (30E/360, semi-annual, street yield), 21.5–22.5 years left;
 * - `xirr`: SEBI corporate bonds (actual/365-or-366, XIRR yield), frequencies 1, 2, 4, 12,
 *   dates drawn like the mixed set's.
 */
import type { BondConvention, CalendarDate, CouponFrequency, DayCountName } from '@dart/bond-math';
import { addDays, DAY_COUNT_NAMES, formatDate, ICMA_STREET, parseDate } from '@dart/bond-math';

/** Settlement date of every price and yield in the benchmark. */
export const SETTLEMENT_DATE: CalendarDate = parseDate('2025-08-21');

/** One generated bond with the yield it is priced at. */
export interface BondInput {
  readonly dayCount: DayCountName;
  readonly frequency: CouponFrequency;
  readonly issueDate: CalendarDate;
  readonly maturityDate: CalendarDate;
  /** Annual coupon rate, decimal. */
  readonly couponRate: number;
  /** Yield in the bond's quoted compounding (the coupon frequency; annual for XIRR), decimal. */
  readonly yieldRate: number;
}

/** The three sets. */
export interface BondSets {
  readonly mixed: readonly BondInput[];
  readonly gsec: readonly BondInput[];
  readonly xirr: readonly BondInput[];
}

const FREQUENCIES: readonly CouponFrequency[] = [1, 2, 4, 12];
const DAYS_PER_YEAR = 365.25;

/** mulberry32: a small deterministic PRNG. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random dates: maturity 43.5–44.5 coupon periods after settlement, issued up to min(10 years, 44 periods) before it. */
function drawDates(random: () => number, frequency: CouponFrequency): { issueDate: CalendarDate; maturityDate: CalendarDate } {
  const periodDays = DAYS_PER_YEAR / frequency;
  const maturityDate = addDays(SETTLEMENT_DATE, Math.floor((43.5 + random()) * periodDays));
  const issueDate = addDays(SETTLEMENT_DATE, -1 - Math.floor(random() * Math.min(3650, 44 * periodDays)));
  return { issueDate, maturityDate };
}

function drawMixed(random: () => number, dayCount: DayCountName): BondInput {
  const frequency = FREQUENCIES[Math.floor(random() * FREQUENCIES.length)] as CouponFrequency;
  return {
    dayCount,
    frequency,
    ...drawDates(random, frequency),
    couponRate: Math.round(random() * 1500) / 10_000,
    yieldRate: Math.round((0.01 + random() * 0.14) * 1e6) / 1e6,
  };
}

/** Semi-annual G-secs maturing 21.5–22.5 years after settlement (43–45 future flows), issued up to 10 years before. */
function drawGsec(random: () => number): BondInput {
  const maturityDate = addDays(SETTLEMENT_DATE, Math.floor(DAYS_PER_YEAR * 21.5 + random() * 365));
  const issueDate = addDays(SETTLEMENT_DATE, -Math.floor(random() * 3650) - 1);
  return {
    dayCount: '30E/360',
    frequency: 2,
    issueDate,
    maturityDate,
    couponRate: Math.round((0.05 + random() * 0.06) * 10_000) / 10_000,
    yieldRate: 0.055 + random() * 0.04,
  };
}

/** Generates `count` bonds per set from `seed`. */
export function generateBondSets(count: number, seed: number): BondSets {
  const random = createRandom(seed);
  const mixed: BondInput[] = [];
  const gsec: BondInput[] = [];
  const xirr: BondInput[] = [];
  for (let i = 0; i < count; i++) mixed.push(drawMixed(random, DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName));
  for (let i = 0; i < count; i++) gsec.push(drawGsec(random));
  for (let i = 0; i < count; i++) xirr.push(drawMixed(random, 'ACT/365-366-SEBI'));
  return { mixed, gsec, xirr };
}

/** The `quantlib` yield mode convention (SPEC PY10) for each day count: QuantLib FixedRateBond's rules. */
export const QUANTLIB_CONVENTIONS: ReadonlyMap<DayCountName, BondConvention> = new Map(
  DAY_COUNT_NAMES.map((dayCount) => [
    dayCount,
    {
      ...ICMA_STREET,
      name: `QUANTLIB-${dayCount}`,
      accrualDayCount: dayCount,
      yieldMethod: 'quantlib',
      couponAmount: 'day-count',
      endOfMonth: false,
    } satisfies BondConvention,
  ]),
);

/** The first `count` bonds of each set as JSON for QuantLib's script (dates as ISO strings). */
export function toQuantLibJson(sets: BondSets, count: number): string {
  const toRow = (input: BondInput) => ({
    ...input,
    issueDate: formatDate(input.issueDate),
    maturityDate: formatDate(input.maturityDate),
  });
  return JSON.stringify({
    settlementDate: formatDate(SETTLEMENT_DATE),
    mixed: sets.mixed.slice(0, count).map(toRow),
    gsec: sets.gsec.slice(0, count).map(toRow),
    xirr: sets.xirr.slice(0, count).map(toRow),
  });
}
