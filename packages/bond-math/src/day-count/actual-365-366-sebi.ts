/**
 * SEBI "Actual/Actual": actual days over 365 or 366 for listed corporate debt.
 *
 * SEBI CIR/IMD/DF-1/122/2016 (11 Nov 2016) [S1]: "if February 29 falls during the
 * tenor of a security, then the number of days shall be reckoned as 366 days
 * (Actual/Actual day count convention) for a whole one year period, irrespective
 * of whether the interest is payable annually, half yearly, quarterly or monthly
 * … for a half yearly interest payment, 366 days would be reckoned twice as the
 * denominator; for quarterly interest, four times and for monthly interest
 * payment, 12 times".
 *
 * This is NOT ICMA ACT/ACT (conventions doc §4.1): a period's interest is
 * days/365 or days/366, never 1/f.
 *
 * The circular does not say which one-year window gets 366 (doc §8.1), so the
 * window is a parameter:
 * - `year-ending-on-due-date` (default, doc §4.1 working rule): 366 for a period
 *   ending on E when a 29 Feb falls in (E − 1 year, E]. Gives exactly "twice /
 *   four times / 12 times" per leap day; confirmed against NSE-reported trades (doc §4.3a).
 * - `period-contains-29-feb`: 366 only when the coupon period itself contains a
 *   29 Feb (the simpler reading the doc notes contradicts "reckoned twice").
 * - `calendar-year-of-due-date`: 366 when E's calendar year is a leap year.
 */
import type { CalendarDate } from '../time/calendar-date';
import { getYear, isLeapYear, makeDate, toPackedYmd } from '../time/calendar-date';
import type { DayCount, YearFractionContext } from './day-count';

/** Which one-year window decides the 366-day denominator (see file comment). */
export type SebiLeapYearRule = 'year-ending-on-due-date' | 'period-contains-29-feb' | 'calendar-year-of-due-date';

/** True when a 29 February falls in `(after, onOrBefore]`. */
export function containsLeapDay(after: CalendarDate, onOrBefore: CalendarDate): boolean {
  const firstYear = getYear(after);
  const lastYear = getYear(onOrBefore);
  for (let year = firstYear; year <= lastYear; year++) {
    if (!isLeapYear(year)) continue;
    const leapDay = makeDate(year, 2, 29);
    if (leapDay > after && leapDay <= onOrBefore) return true;
  }
  return false;
}

/**
 * `containsLeapDay(addYears(dueDate, −1), dueDate)` without the loop (it runs for every coupon
 * period of every SEBI bond built): with dueDate = (Y, m, d), the window (Y−1/m/d, Y/m/d]
 * holds 29 Feb Y when Y is leap and (m, d) ≥ (2, 29), and 29 Feb Y−1 when Y − 1 is leap and
 * (m, d) < (2, 29) (the one-year-back date then keeps its day: February has 29 days in Y − 1).
 */
function hasLeapDayInYearEndingOn(dueDate: CalendarDate): boolean {
  const packed = toPackedYmd(dueDate);
  return hasLeapDayInYearEndingOnFields(Math.floor(packed / 10000), packed % 10000);
}

function hasLeapDayInYearEndingOnFields(year: number, monthDay: number): boolean {
  return monthDay >= 229 ? isLeapYear(year) : isLeapYear(year - 1);
}

/**
 * The default window's denominator (`year-ending-on-due-date`) from the due date's civil fields
 * (a bond's builder has them from its schedule, SPEC SP7): `getSebiDenominator(·, dueDate)`.
 */
export function getSebiDenominatorOfDueDate(year: number, month: number, day: number): 365 | 366 {
  return hasLeapDayInYearEndingOnFields(year, month * 100 + day) ? 366 : 365;
}

/**
 * The SEBI denominator (365 or 366) of a coupon period `[periodStart, dueDate]`.
 * @param rule - leap-year window, default `year-ending-on-due-date`.
 */
export function getSebiDenominator(
  periodStart: CalendarDate,
  dueDate: CalendarDate,
  rule: SebiLeapYearRule = 'year-ending-on-due-date',
): 365 | 366 {
  switch (rule) {
    case 'year-ending-on-due-date':
      return hasLeapDayInYearEndingOn(dueDate) ? 366 : 365;
    case 'period-contains-29-feb':
      return containsLeapDay(periodStart, dueDate) ? 366 : 365;
    case 'calendar-year-of-due-date':
      return isLeapYear(getYear(dueDate)) ? 366 : 365;
  }
}

/**
 * Creates the SEBI actual/365-or-366 day count with the given leap-year window.
 * The year fraction of `[start, end)` is `(end − start) / denominator`, where the
 * denominator belongs to the coupon period in `context` (its due date), so accrued
 * interest at the due date equals the coupon. Without a context the period is taken
 * to be `[start, end]`.
 */
export function createSebiActualDayCount(rule: SebiLeapYearRule = 'year-ending-on-due-date'): DayCount {
  const yearFraction = (start: CalendarDate, end: CalendarDate, context?: YearFractionContext): number => {
    const periodStart = context ? context.referenceStart : start;
    const dueDate = context ? context.referenceEnd : end;
    return (end - start) / getSebiDenominator(periodStart, dueDate, rule);
  };
  return {
    name: 'ACT/365-366-SEBI',
    getDayCountDays: (start, end) => end - start,
    getYearFraction: yearFraction,
    getCouponPeriodDays: (start, end) => end - start,
  };
}

/** SEBI actual/365-or-366 with the default `year-ending-on-due-date` window. */
export const ACTUAL_365_366_SEBI: DayCount = createSebiActualDayCount();
