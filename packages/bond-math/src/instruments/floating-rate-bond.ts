/**
 * Floating-rate G-secs with a known next coupon (doc §2 "FRB"): the coupon resets
 * each half-year to a T-bill average plus a spread [S26]; between resets it prices
 * like a fixed bond. Coupons not yet fixed take `assumedCouponRate` (by default
 * the latest known rate: a flat-forward assumption, stated here because the
 * market has no single rule for it).
 */
import type { CalendarDate } from '../time/calendar-date';
import { formatDate } from '../time/calendar-date';
import { generateScheduleDates } from '../time/schedule';
import { INDIAN_GOVERNMENT_SECURITY } from '../conventions/market-conventions';
import type { Bond } from './bond';
import type { GovernmentSecuritySpec } from './government-security';
import { createGovernmentSecurity } from './government-security';
import { BondMathError } from '../errors';

/** A coupon already fixed. */
export interface KnownCoupon {
  /** Due date of the period whose rate is fixed. */
  readonly dueDate: CalendarDate;
  /** Annual rate for that period, decimal. */
  readonly couponRate: number;
}

/** Inputs of {@link createFloatingRateGovernmentBond}. */
export interface FloatingRateBondSpec extends Omit<GovernmentSecuritySpec, 'couponRate' | 'couponRatesPerPeriod'> {
  /** Fixed coupons (at least the next one), by due date. */
  readonly knownCoupons: readonly KnownCoupon[];
  /** Rate assumed for periods not yet fixed (default: the last known coupon). */
  readonly assumedCouponRate?: number;
}

/** Creates a floating-rate G-sec priced with its known next coupon(s). */
export function createFloatingRateGovernmentBond(spec: FloatingRateBondSpec): Bond {
  const known = [...spec.knownCoupons].sort((a, b) => a.dueDate - b.dueDate);
  const lastKnown = known[known.length - 1];
  if (!lastKnown) throw new BondMathError('INVALID_ARGUMENT', 'knownCoupons: at least the next coupon must be known', 'knownCoupons');
  const assumed = spec.assumedCouponRate ?? lastKnown.couponRate;
  const schedule = generateScheduleDates({
    issueDate: spec.issueDate,
    maturityDate: spec.maturityDate,
    frequency: 2,
    endOfMonth: INDIAN_GOVERNMENT_SECURITY.endOfMonth,
  });
  const byDue = new Map<number, number>(known.map((coupon) => [coupon.dueDate, coupon.couponRate]));
  const rates = schedule.dueDates.map((dueDate) => byDue.get(dueDate) ?? assumed);
  for (const coupon of known) {
    if (!schedule.dueDates.includes(coupon.dueDate)) {
      throw new BondMathError('INVALID_ARGUMENT', `knownCoupons: ${formatDate(coupon.dueDate)} is not a coupon due date`, 'knownCoupons');
    }
  }
  const bond = createGovernmentSecurity({ ...spec, couponRate: lastKnown.couponRate, couponRatesPerPeriod: rates });
  return { ...bond, kind: 'floating-rate-bond' };
}
