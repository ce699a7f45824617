/**
 * Year fractions for the hot loops (building coupon periods, QuantLib-mode exponents, accrued):
 * the shipped day counts are called directly instead of through the `DayCount` object, so the
 * call is monomorphic (inlined) and allocates no `YearFractionContext`. Each branch is the very
 * expression its convention's `getYearFraction` evaluates, so results are bit-identical; any
 * other day count (ACT/ACT ICMA, a SEBI variant, a caller's own) goes through its object.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from './day-count';
import { THIRTY_E_360, getThirtyE360Days } from './thirty-e-360';
import { THIRTY_360_BOND_BASIS, getThirty360BondBasisDays } from './thirty-360-bond-basis';
import { ACTUAL_365_FIXED } from './actual-365-fixed';
import { ACTUAL_360 } from './actual-360';
import { ACTUAL_ACTUAL_ISDA, getActualActualIsdaYearFraction } from './actual-actual-isda';
import { ACTUAL_365_366_SEBI, getSebiDenominator } from './actual-365-366-sebi';

/**
 * `dayCount.getYearFraction(start, end, { referenceStart, referenceEnd, frequency })`.
 * @param referenceStart - start of the (notional) coupon period containing the dates.
 * @param referenceEnd - its end (due date).
 * @param frequency - coupons per year.
 */
export function getYearFractionInPeriod(
  dayCount: DayCount,
  start: CalendarDate,
  end: CalendarDate,
  referenceStart: CalendarDate,
  referenceEnd: CalendarDate,
  frequency: CouponFrequency,
): number {
  if (dayCount === THIRTY_E_360) return getThirtyE360Days(start, end) / 360;
  if (dayCount === ACTUAL_365_FIXED) return (end - start) / 365;
  if (dayCount === ACTUAL_365_366_SEBI) return (end - start) / getSebiDenominator(referenceStart, referenceEnd);
  if (dayCount === THIRTY_360_BOND_BASIS) return getThirty360BondBasisDays(start, end) / 360;
  if (dayCount === ACTUAL_360) return (end - start) / 360;
  if (dayCount === ACTUAL_ACTUAL_ISDA) return getActualActualIsdaYearFraction(start, end);
  return dayCount.getYearFraction(start, end, { referenceStart, referenceEnd, frequency });
}
