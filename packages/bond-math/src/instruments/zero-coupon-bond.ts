/**
 * Zero-coupon, deep-discount and cumulative bonds (doc §4.7): one redemption flow,
 * no accrued interest, yield by the bond's convention (XIRR for SEBI corporates).
 * A cumulative option's redemption value F·(1+c)^t comes from the term sheet as
 * `redemptionPer100`.
 */
import type { CalendarDate } from '../time/calendar-date';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import type { BondConvention } from '../conventions/market-conventions';
import { SEBI_CORPORATE_BOND } from '../conventions/market-conventions';
import { buildCouponPeriods } from '../cashflows/coupon-periods';
import { getDayCount } from '../day-count/registry';
import type { Bond } from './bond';
import type { BondIdentity } from './fixed-coupon-bond';
import { assembleBond, validateBondInputs } from './fixed-coupon-bond';
import { BondMathError, requireArgument } from '../errors';

/** Inputs of {@link createZeroCouponBond}. */
export interface ZeroCouponBondSpec extends BondIdentity {
  readonly issueDate: CalendarDate;
  readonly maturityDate: CalendarDate;
  /** Amount repaid at maturity per ₹100 of face (100 for a plain zero; e.g. 161.05 cumulative). */
  readonly redemptionPer100?: number;
  /** Convention (default SEBI corporate: XIRR yield). */
  readonly convention?: BondConvention;
}

/** Creates a zero-coupon / deep-discount / cumulative bond. */
export function createZeroCouponBond(spec: ZeroCouponBondSpec): Bond {
  validateBondInputs({ frequency: 1, faceValuePerUnit: spec.faceValuePerUnit });
  const redemptionPer100 = spec.redemptionPer100 ?? 100;
  requireArgument(Number.isFinite(redemptionPer100) && redemptionPer100 > 0, 'redemptionPer100', 'must be a positive amount per 100');
  if (!(spec.maturityDate > spec.issueDate)) {
    throw new BondMathError('INVALID_SCHEDULE', 'maturityDate must be after issueDate', 'maturityDate');
  }
  const convention = spec.convention ?? SEBI_CORPORATE_BOND;
  const periods = buildCouponPeriods({
    schedule: { issueDate: spec.issueDate, dueDates: [spec.maturityDate], firstReferenceStartDate: spec.issueDate, firstIsRegular: false },
    couponRate: 0,
    redemptionPer100,
    frequency: 1,
    dayCount: getDayCount(convention.accrualDayCount, convention.sebiLeapYearRule),
    convention,
    calendar: spec.calendar ?? INDIA_SETTLEMENT_CALENDAR,
  });
  return assembleBond({
    kind: 'zero-coupon-bond',
    identifier: spec.identifier,
    description: spec.description,
    frequency: 1,
    faceValuePerUnit: spec.faceValuePerUnit,
    convention,
    periods,
    callSchedule: spec.callSchedule,
    putSchedule: spec.putSchedule,
  });
}
