/**
 * Quote types: prices per ₹100 of face value tagged clean or dirty, and yields
 * as decimals with their compounding stated (STYLE.md practice 6).
 */
import { BondMathError } from '../errors';
import type { CouponFrequency } from '../day-count/day-count';

/** Clean price per ₹100 of face value (excludes accrued interest). */
export interface CleanPrice {
  readonly kind: 'clean';
  /** Price per ₹100 of (outstanding) face value. */
  readonly per100: number;
}

/** Dirty (full, invoice) price per ₹100 of face value = clean + accrued interest. */
export interface DirtyPrice {
  readonly kind: 'dirty';
  /** Price per ₹100 of (outstanding) face value. */
  readonly per100: number;
}

/** A clean or a dirty price per ₹100. */
export type BondPrice = CleanPrice | DirtyPrice;

/**
 * How a yield compounds.
 * - `simple`: money-market simple interest (T-bills, CP, CD; last-period Excel rule).
 * - `annual`, `semi-annual`, `quarterly`, `monthly`: compounded that many times a year.
 */
export type Compounding = 'simple' | 'annual' | 'semi-annual' | 'quarterly' | 'monthly';

/** A yield: an annual rate as a decimal (0.0725 = 7.25 %) with its compounding. */
export interface Yield {
  /** Annual rate, decimal (not percent). */
  readonly rate: number;
  /** Compounding the rate is quoted with. */
  readonly compounding: Compounding;
}

/**
 * Tags a clean price per ₹100.
 * @param per100 - clean price per ₹100 of face value, e.g. 99.2159.
 */
export function cleanPrice(per100: number): CleanPrice {
  return { kind: 'clean', per100 };
}

/**
 * Tags a dirty price per ₹100.
 * @param per100 - dirty (clean + accrued) price per ₹100 of face value.
 */
export function dirtyPrice(per100: number): DirtyPrice {
  return { kind: 'dirty', per100 };
}

/**
 * Makes a yield.
 * @param rate - annual rate as a decimal, e.g. 0.0712 for 7.12 %.
 * @param compounding - its compounding.
 */
export function makeYield(rate: number, compounding: Compounding): Yield {
  return { rate, compounding };
}

/** Compounding periods per year (0 for simple). */
export function getCompoundingPeriodsPerYear(compounding: Compounding): number {
  switch (compounding) {
    case 'simple':
      return 0;
    case 'annual':
      return 1;
    case 'semi-annual':
      return 2;
    case 'quarterly':
      return 4;
    case 'monthly':
      return 12;
  }
}

/** The compounding that matches a coupon frequency (street convention: yield compounds with the coupon). */
export function getCompoundingForFrequency(frequency: CouponFrequency): Compounding {
  switch (frequency) {
    case 1:
      return 'annual';
    case 2:
      return 'semi-annual';
    case 4:
      return 'quarterly';
    case 12:
      return 'monthly';
  }
}

/**
 * Converts a compounded yield to the equivalent rate under another compounding:
 * (1 + r1/m1)^m1 = (1 + r2/m2)^m2. Simple yields have no horizon-free equivalent.
 * @throws BondMathError YIELD_COMPOUNDING_MISMATCH when either side is `simple`.
 */
export function convertYield(yieldValue: Yield, to: Compounding): Yield {
  if (yieldValue.compounding === to) return yieldValue;
  const m1 = getCompoundingPeriodsPerYear(yieldValue.compounding);
  const m2 = getCompoundingPeriodsPerYear(to);
  if (m1 === 0 || m2 === 0) {
    throw new BondMathError(
      'YIELD_COMPOUNDING_MISMATCH',
      `cannot convert a ${yieldValue.compounding} yield to ${to}: simple interest has no horizon-free equivalent`,
      'yield',
    );
  }
  const growth = Math.pow(1 + yieldValue.rate / m1, m1 / m2);
  return { rate: m2 * (growth - 1), compounding: to };
}
