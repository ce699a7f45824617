/**
 * Settlement-date rules that belong to a security: the G-sec shut period (doc §2:
 * "trading in this security for settlement on these two dates is not allowed",
 * RBI FAQ [S23]) and T+n rolling with the bond's convention.
 */
import type { CalendarDate } from '../time/calendar-date';
import { formatDate } from '../time/calendar-date';
import type { HolidayCalendar } from '../time/holiday-calendar';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import { getSettlementDate } from '../time/settlement';
import type { Bond } from '../instruments/bond';
import { findPeriodIndex } from './pricing-setup';
import { BondMathError } from '../errors';

/**
 * True when `settlementDate` falls in the shut period before a due date
 * (the `shutPeriodDays` calendar days before it; one day for G-secs).
 */
export function isInShutPeriod(bond: Bond, settlementDate: CalendarDate): boolean {
  const days = bond.convention.shutPeriodDays;
  if (days <= 0) return false;
  const index = findPeriodIndex(bond.columns.dueDates, settlementDate);
  const due = bond.columns.dueDates[index];
  return due !== undefined && settlementDate >= due - days;
}

/**
 * Throws when a trade may not settle on `settlementDate` for this bond.
 * @throws BondMathError SETTLEMENT_IN_SHUT_PERIOD, NOT_A_BUSINESS_DAY.
 */
export function assertSettlementAllowed(
  bond: Bond,
  settlementDate: CalendarDate,
  calendar: HolidayCalendar = INDIA_SETTLEMENT_CALENDAR,
): void {
  if (!calendar.isBusinessDay(settlementDate)) {
    throw new BondMathError(
      'NOT_A_BUSINESS_DAY',
      `settlementDate ${formatDate(settlementDate)} is not a business day of ${calendar.name}`,
      'settlementDate',
    );
  }
  if (isInShutPeriod(bond, settlementDate)) {
    throw new BondMathError(
      'SETTLEMENT_IN_SHUT_PERIOD',
      `settlementDate ${formatDate(settlementDate)} is in the shut period before a coupon date (RBI: no settlement on the day before)`,
      'settlementDate',
    );
  }
}

/**
 * Settlement date for a trade in `bond` on `tradeDate`: T + `settlementDays`
 * (default the convention's, T+1 for G-secs) on the settlement calendar.
 */
export function getBondSettlementDate(
  bond: Bond,
  tradeDate: CalendarDate,
  settlementDays: number = bond.convention.settlementDays,
  calendar: HolidayCalendar = INDIA_SETTLEMENT_CALENDAR,
): CalendarDate {
  return getSettlementDate(tradeDate, settlementDays, calendar);
}
