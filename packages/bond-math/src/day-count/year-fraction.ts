/**
 * Year fractions for the hot loops (building coupon periods, QuantLib-mode exponents, accrued):
 * the shipped day counts are called directly instead of through the `DayCount` object, so the
 * call is monomorphic (inlined) and allocates no `YearFractionContext`. Each branch is the very
 * expression its convention's `getYearFraction` evaluates, so results are bit-identical; any
 * other day count (ACT/ACT ICMA, a SEBI variant, a caller's own) goes through its object.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { ScheduleDateFields } from '../time/schedule';
import type { CouponFrequency, DayCount } from './day-count';
import { THIRTY_E_360, getThirtyE360Days, getThirtyE360DaysFromFields } from './thirty-e-360';
import { THIRTY_360_BOND_BASIS, getThirty360BondBasisDays, getThirty360BondBasisDaysFromFields } from './thirty-360-bond-basis';
import { ACTUAL_365_FIXED } from './actual-365-fixed';
import { ACTUAL_360 } from './actual-360';
import { ACTUAL_ACTUAL_ISDA, getActualActualIsdaYearFraction, getActualActualIsdaYearFractionInYears } from './actual-actual-isda';
import { ACTUAL_ACTUAL_ICMA, getActualActualIcmaRegularYearFraction } from './actual-actual-icma';
import { ACTUAL_365_366_SEBI, getSebiDenominator, getSebiDenominatorOfDueDate } from './actual-365-366-sebi';

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

/**
 * Writes `getYearFractionInPeriod(dayCount, d[i − 1], d[i], d[i − 1], d[i], frequency)` into
 * `out[i]` for i = 1..count − 1, with d = `dueDates`: the year fraction of every whole regular
 * coupon period of a schedule (each period its own reference period), from the civil fields
 * of its due dates when the schedule was generated with them (SPEC SP7), so no date is
 * unpacked again and the day count is chosen once per bond, not per period. Each loop calls the
 * same formula its convention's `getYearFraction` ends in, so the results are bit-identical;
 * any other day count (or no fields) goes through {@link getYearFractionInPeriod}.
 * @param fields - the due dates' fields (index for index), or null.
 * @param out - receives the fractions; it must be at least `count` long (written in place).
 */
export function fillRegularPeriodYearFractions(
  dayCount: DayCount,
  dueDates: readonly CalendarDate[],
  fields: ScheduleDateFields | null,
  frequency: CouponFrequency,
  count: number,
  out: number[],
): void {
  if (fields !== null) {
    const years = fields.year;
    const months = fields.month;
    const days = fields.day;
    if (dayCount === THIRTY_E_360) {
      for (let i = 1; i < count; i++) {
        out[i] =
          getThirtyE360DaysFromFields(
            years[i - 1] as number,
            months[i - 1] as number,
            days[i - 1] as number,
            years[i] as number,
            months[i] as number,
            days[i] as number,
          ) / 360;
      }
      return;
    }
    if (dayCount === THIRTY_360_BOND_BASIS) {
      for (let i = 1; i < count; i++) {
        out[i] =
          getThirty360BondBasisDaysFromFields(
            years[i - 1] as number,
            months[i - 1] as number,
            days[i - 1] as number,
            years[i] as number,
            months[i] as number,
            days[i] as number,
          ) / 360;
      }
      return;
    }
    if (dayCount === ACTUAL_365_366_SEBI) {
      for (let i = 1; i < count; i++) {
        const denominator = getSebiDenominatorOfDueDate(years[i] as number, months[i] as number, days[i] as number);
        out[i] = ((dueDates[i] as number) - (dueDates[i - 1] as number)) / denominator;
      }
      return;
    }
    if (dayCount === ACTUAL_ACTUAL_ISDA) {
      for (let i = 1; i < count; i++) {
        const start = dueDates[i - 1] as CalendarDate;
        const end = dueDates[i] as CalendarDate;
        out[i] =
          end > start
            ? getActualActualIsdaYearFractionInYears(start, end, years[i - 1] as number, years[i] as number)
            : getActualActualIsdaYearFraction(start, end);
      }
      return;
    }
  }
  if (dayCount === ACTUAL_365_FIXED) {
    for (let i = 1; i < count; i++) out[i] = ((dueDates[i] as number) - (dueDates[i - 1] as number)) / 365;
    return;
  }
  if (dayCount === ACTUAL_360) {
    for (let i = 1; i < count; i++) out[i] = ((dueDates[i] as number) - (dueDates[i - 1] as number)) / 360;
    return;
  }
  if (dayCount === ACTUAL_ACTUAL_ICMA) {
    for (let i = 1; i < count; i++) {
      const start = dueDates[i - 1] as CalendarDate;
      const end = dueDates[i] as CalendarDate;
      out[i] =
        end > start
          ? getActualActualIcmaRegularYearFraction(start, end, frequency)
          : getYearFractionInPeriod(dayCount, start, end, start, end, frequency);
    }
    return;
  }
  for (let i = 1; i < count; i++) {
    const start = dueDates[i - 1] as CalendarDate;
    const end = dueDates[i] as CalendarDate;
    out[i] = getYearFractionInPeriod(dayCount, start, end, start, end, frequency);
  }
}
