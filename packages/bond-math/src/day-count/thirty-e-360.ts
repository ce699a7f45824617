/**
 * 30E/360 ("Eurobond basis"), ISDA 2006 §4.16(g); ICMA Rule 251.1(ii).
 * Indian G-secs and SDLs accrue on it: RBI FAQ "each month is to be taken as having
 * 30 days and each year … 360 days" [S16], read as the European variant [S17]
 * (conventions doc §2): D1 = min(D1, 30), D2 = min(D2, 30), no February rule.
 */
import type { CalendarDate } from '../time/calendar-date';
import { toPackedYmd } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from './day-count';

/** 30E/360 day count days between two dates (ISDA 2006 §4.16(g)). */
export function getThirtyE360Days(start: CalendarDate, end: CalendarDate): number {
  const a = toPackedYmd(start);
  const b = toPackedYmd(end);
  return getThirtyE360DaysFromFields(
    Math.floor(a / 10000),
    Math.floor(a / 100) % 100,
    a % 100,
    Math.floor(b / 10000),
    Math.floor(b / 100) % 100,
    b % 100,
  );
}

/** {@link getThirtyE360Days} from the civil fields of both dates (month 1–12, day 1–31). */
export function getThirtyE360DaysFromFields(y1: number, m1: number, day1: number, y2: number, m2: number, day2: number): number {
  const d1 = Math.min(day1, 30);
  const d2 = Math.min(day2, 30);
  return 360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1);
}

/** 30E/360 (Eurobond basis; Indian G-sec/SDL accrual). */
export const THIRTY_E_360: DayCount = {
  name: '30E/360',
  getDayCountDays: getThirtyE360Days,
  getYearFraction: (start, end) => getThirtyE360Days(start, end) / 360,
  getCouponPeriodDays: (_start, _end, frequency: CouponFrequency) => 360 / frequency,
};
