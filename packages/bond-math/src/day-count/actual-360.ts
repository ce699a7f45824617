/**
 * ACT/360 ("money market basis"), ISDA 2006 §4.16(e): actual days / 360.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from './day-count';

/** ACT/360. */
export const ACTUAL_360: DayCount = {
  name: 'ACT/360',
  getDayCountDays: (start: CalendarDate, end: CalendarDate) => end - start,
  getYearFraction: (start, end) => (end - start) / 360,
  // Excel COUPDAYS basis 2.
  getCouponPeriodDays: (_start, _end, frequency: CouponFrequency) => 360 / frequency,
};
