/**
 * The day-count interface every convention implements (one convention per file,
 * after QuantLib `ql/time/daycounters/`).
 */
import type { CalendarDate } from '../time/calendar-date';

/** Names of the supported day-count conventions. */
export type DayCountName = '30E/360' | '30/360' | 'ACT/365F' | 'ACT/360' | 'ACT/ACT-ISDA' | 'ACT/ACT-ICMA' | 'ACT/365-366-SEBI';

/** Coupons per year. */
export type CouponFrequency = 1 | 2 | 4 | 12;

/**
 * Extra facts a convention may need. ACT/ACT ICMA needs the (notional) coupon
 * period containing the dates and the frequency; the SEBI rule needs the end
 * (due date) of the coupon period, which fixes the 365-or-366 denominator.
 */
export interface YearFractionContext {
  /** Start of the regular (or notional) coupon period containing the dates. */
  readonly referenceStart: CalendarDate;
  /** End (unadjusted due date) of that coupon period. */
  readonly referenceEnd: CalendarDate;
  /** Coupons per year of the bond. */
  readonly frequency: CouponFrequency;
}

/** A day-count convention. All methods are pure. */
export interface DayCount {
  /** Convention name. */
  readonly name: DayCountName;
  /**
   * Day-count numerator from `start` to `end` in this convention's days
   * (30/360 days for the 30/360 family, actual days otherwise).
   */
  getDayCountDays(start: CalendarDate, end: CalendarDate): number;
  /**
   * Year fraction from `start` to `end` (years, decimal).
   * @param context - required by ACT/ACT ICMA and the SEBI rule; others ignore it.
   */
  getYearFraction(start: CalendarDate, end: CalendarDate, context?: YearFractionContext): number;
  /**
   * Days in a regular coupon period for the street (Excel `PRICE`) broken-period
   * fraction: Excel `COUPDAYS`. 360/f for the 30/360 family and ACT/360, 365/f for
   * ACT/365F, the period's actual days for the ACT/ACT family.
   */
  getCouponPeriodDays(periodStart: CalendarDate, periodEnd: CalendarDate, frequency: CouponFrequency): number;
}
