/**
 * ACT/ACT ICMA (ICMA Rule 251.1(iii); ISDA 2006 §4.16(c)): within a regular
 * coupon period the year fraction is days / (frequency × days in the period).
 * An irregular (stub) period is measured against the notional regular periods
 * that end at the period's due date (the "reference period"), counted back in
 * steps of 12/frequency months; a long stub spans several of them.
 */
import type { CalendarDate } from '../time/calendar-date';
import { addMonths } from '../time/calendar-date';
import type { DayCount, YearFractionContext } from './day-count';
import { BondMathError } from '../errors';

/**
 * ACT/ACT ICMA year fraction of `[start, end)` inside the (notional) coupon period
 * `[referenceStart, referenceEnd)` of a bond paying `frequency` coupons a year.
 */
export function getActualActualIcmaYearFraction(start: CalendarDate, end: CalendarDate, context?: YearFractionContext): number {
  if (!context) {
    throw new BondMathError('INVALID_ARGUMENT', 'ACT/ACT ICMA needs the reference coupon period and frequency', 'context');
  }
  if (end === start) return 0;
  if (end < start) return -getActualActualIcmaYearFraction(end, start, context);
  const { referenceStart, referenceEnd, frequency } = context;
  const monthsPerPeriod = 12 / frequency;
  let fraction = 0;
  let periodEnd = referenceEnd;
  let periodStart = referenceStart;
  // Walk the notional periods backwards from the reference period until `start` is covered.
  // Dates after referenceEnd (an accrual past the due date) are measured in the reference period.
  for (let guard = 0; guard < 1000; guard++) {
    const periodDays = periodEnd - periodStart;
    const from = start > periodStart ? start : periodStart;
    const to = guard === 0 ? end : end < periodEnd ? end : periodEnd;
    if (to > from) fraction += (to - from) / (frequency * periodDays);
    if (start >= periodStart) return fraction;
    periodEnd = periodStart;
    periodStart = addMonths(referenceEnd, -monthsPerPeriod * (guard + 2));
  }
  throw new BondMathError('INVALID_ARGUMENT', 'ACT/ACT ICMA stub longer than 1000 periods', 'context');
}

/** ACT/ACT ICMA. */
export const ACTUAL_ACTUAL_ICMA: DayCount = {
  name: 'ACT/ACT-ICMA',
  getDayCountDays: (start: CalendarDate, end: CalendarDate) => end - start,
  getYearFraction: getActualActualIcmaYearFraction,
  getCouponPeriodDays: (start, end) => end - start,
};

/**
 * {@link getActualActualIcmaYearFraction} of a whole regular period, `[start, end)` being its
 * own reference period: the walk stops at its first step, having added days / (f × days) to 0
 * (SPEC SP7; checked bit for bit in fast-paths.test.ts).
 */
export function getActualActualIcmaRegularYearFraction(start: CalendarDate, end: CalendarDate, frequency: number): number {
  return (end - start) / (frequency * (end - start));
}
