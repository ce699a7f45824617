/**
 * 30/360 Bond Basis (US "30/360", ISDA 2006 §4.16(f)).
 * D1 = 31 → 30; D2 = 31 → 30 only when D1 (after that change) is 30.
 * No end-of-February rule (that is the separate "30/360 US/SIA" variant).
 * Provided because conventions doc §8.4 leaves 30E vs Bond Basis open for G-secs.
 */
import type { CalendarDate } from '../time/calendar-date';
import { toPackedYmd } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from './day-count';

/** 30/360 Bond Basis day count days between two dates (ISDA 2006 §4.16(f)). */
export function getThirty360BondBasisDays(start: CalendarDate, end: CalendarDate): number {
  const a = toPackedYmd(start);
  const b = toPackedYmd(end);
  return getThirty360BondBasisDaysFromFields(
    Math.floor(a / 10000),
    Math.floor(a / 100) % 100,
    a % 100,
    Math.floor(b / 10000),
    Math.floor(b / 100) % 100,
    b % 100,
  );
}

/** {@link getThirty360BondBasisDays} from the civil fields of both dates (month 1–12, day 1–31). */
export function getThirty360BondBasisDaysFromFields(y1: number, m1: number, day1: number, y2: number, m2: number, day2: number): number {
  const d1 = Math.min(day1, 30);
  let d2 = day2;
  if (d2 === 31 && d1 === 30) d2 = 30;
  return 360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1);
}

/** 30/360 Bond Basis. */
export const THIRTY_360_BOND_BASIS: DayCount = {
  name: '30/360',
  getDayCountDays: getThirty360BondBasisDays,
  getYearFraction: (start, end) => getThirty360BondBasisDays(start, end) / 360,
  getCouponPeriodDays: (_start, _end, frequency: CouponFrequency) => 360 / frequency,
};
