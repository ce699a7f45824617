/**
 * Indian dated G-secs and SDLs (doc §2): semi-annual coupons on the maturity
 * day-of-month, 30E/360 accrual, street yield with Excel's last-period simple
 * interest (selectable, doc §8.3), one-day shut period, T+1.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { BondConvention } from '../conventions/market-conventions';
import { INDIAN_GOVERNMENT_SECURITY } from '../conventions/market-conventions';
import type { Bond } from './bond';
import type { BondIdentity } from './fixed-coupon-bond';
import { createFixedCouponBond } from './fixed-coupon-bond';

/** Treatment of the last coupon period's discounting (doc §2 "Last coupon period", §8.3). */
export type LastPeriodTreatment =
  /** Excel `PRICE`/`YIELD`: simple interest when one coupon remains (default). */
  | 'simple'
  /** QuantLib FixedRateBond: compounded all the way, (1 + y/2)^(−w). */
  | 'compounded';

/** Inputs of {@link createGovernmentSecurity}. */
export interface GovernmentSecuritySpec extends BondIdentity {
  /** `government-security` (central, default) or `state-development-loan`. */
  readonly kind?: 'government-security' | 'state-development-loan';
  /** Issue date (interest accrues from it). */
  readonly issueDate: CalendarDate;
  /** Maturity date; coupons fall on its day-of-month every six months. */
  readonly maturityDate: CalendarDate;
  /** Annual coupon rate, decimal (0.0718 = 7.18 %). */
  readonly couponRate: number;
  /** Last-period treatment; default `simple` (Excel). */
  readonly lastPeriod?: LastPeriodTreatment;
  /** Per-period coupon rates (floating-rate bonds); length = number of periods. */
  readonly couponRatesPerPeriod?: readonly number[];
  /** Convention fields to override (e.g. a different shut period). */
  readonly conventionOverrides?: Partial<BondConvention>;
}

/**
 * Creates a G-sec or SDL with the Indian government street convention.
 * @example
 * createGovernmentSecurity({ identifier: 'IN0020230085', description: '7.18% GS 2033',
 *   issueDate: parseDate('2023-08-14'), maturityDate: parseDate('2033-08-14'), couponRate: 0.0718 })
 */
export function createGovernmentSecurity(spec: GovernmentSecuritySpec): Bond {
  const lastPeriodSimpleInterest = (spec.lastPeriod ?? 'simple') === 'simple';
  // Share the preset objects when nothing is overridden (no per-bond convention copies).
  const convention: BondConvention = spec.conventionOverrides
    ? { ...INDIAN_GOVERNMENT_SECURITY, lastPeriodSimpleInterest, ...spec.conventionOverrides }
    : lastPeriodSimpleInterest
      ? INDIAN_GOVERNMENT_SECURITY
      : GOVERNMENT_SECURITY_COMPOUNDED_LAST_PERIOD;
  return createFixedCouponBond(spec, {
    kind: spec.kind ?? 'government-security',
    frequency: 2,
    convention,
  });
}

const GOVERNMENT_SECURITY_COMPOUNDED_LAST_PERIOD: BondConvention = {
  ...INDIAN_GOVERNMENT_SECURITY,
  lastPeriodSimpleInterest: false,
};
