/**
 * ACT/ACT ISDA, ISDA 2006 §4.16(b): days falling in a leap year / 366 plus days
 * falling in a common year / 365. Dates are counted as [start, end).
 */
import type { CalendarDate } from '../time/calendar-date';
import { getYear, getYearStartDay, isLeapYear } from '../time/calendar-date';
import type { DayCount } from './day-count';

/** ACT/ACT ISDA year fraction (ISDA 2006 §4.16(b)). */
export function getActualActualIsdaYearFraction(start: CalendarDate, end: CalendarDate): number {
  if (end === start) return 0;
  if (end < start) return -getActualActualIsdaYearFraction(end, start);
  return getActualActualIsdaYearFractionInYears(start, end, getYear(start), getYear(end));
}

/**
 * {@link getActualActualIsdaYearFraction} for start < end when their years `y1` and `y2` are
 * known (a bond's builder has them from its schedule, SPEC SP7).
 */
export function getActualActualIsdaYearFractionInYears(start: CalendarDate, end: CalendarDate, y1: number, y2: number): number {
  if (y1 === y2) return (end - start) / (isLeapYear(y1) ? 366 : 365);
  const endOfFirstYear = getYearStartDay(y1 + 1);
  const startOfLastYear = getYearStartDay(y2);
  return (endOfFirstYear - start) / (isLeapYear(y1) ? 366 : 365) + (y2 - y1 - 1) + (end - startOfLastYear) / (isLeapYear(y2) ? 366 : 365);
}

/** ACT/ACT ISDA. */
export const ACTUAL_ACTUAL_ISDA: DayCount = {
  name: 'ACT/ACT-ISDA',
  getDayCountDays: (start: CalendarDate, end: CalendarDate) => end - start,
  getYearFraction: getActualActualIsdaYearFraction,
  // Excel COUPDAYS basis 1: the period's actual days.
  getCouponPeriodDays: (start, end) => end - start,
};
