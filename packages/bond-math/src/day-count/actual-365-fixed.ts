/**
 * ACT/365 Fixed, ISDA 2006 §4.16(d): actual days / 365 in every year.
 * Indian money-market instruments (T-bills, CMBs, CPs, CDs) use it:
 * "actual/365 … in the case of T-Bills" [S16b], y = (100 − P)/P × 365/D [S21][S22].
 */
import type { CalendarDate } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from './day-count';

/** ACT/365 Fixed. */
export const ACTUAL_365_FIXED: DayCount = {
  name: 'ACT/365F',
  getDayCountDays: (start: CalendarDate, end: CalendarDate) => end - start,
  getYearFraction: (start, end) => (end - start) / 365,
  // Excel COUPDAYS basis 3.
  getCouponPeriodDays: (_start, _end, frequency: CouponFrequency) => 365 / frequency,
};
