/**
 * Settlement-date rolling (T+0 / T+1 / T+2) on the settlement calendar.
 *
 * Conventions doc §2 (G-sec outright trades settle T+1, RBI/2010-11/127 [S24]) and
 * §5 (NSE Clearing settles RFQ deals T+0, T+1 or T+2 on DVP-I [S11][S12]).
 */
import type { CalendarDate } from './calendar-date';
import { formatDate } from './calendar-date';
import type { HolidayCalendar } from './holiday-calendar';
import { addBusinessDays } from './holiday-calendar';
import { BondMathError } from '../errors';

/**
 * Settlement date of a trade done on `tradeDate` with settlement `T + settlementDays`.
 * @param tradeDate - trade date; must be a business day of `calendar`.
 * @param settlementDays - 0, 1 or 2 (business days).
 * @param calendar - settlement (exchange/RBI) calendar.
 * @throws BondMathError NOT_A_BUSINESS_DAY when the trade date is a holiday or weekend.
 */
export function getSettlementDate(tradeDate: CalendarDate, settlementDays: number, calendar: HolidayCalendar): CalendarDate {
  if (!calendar.isBusinessDay(tradeDate)) {
    throw new BondMathError(
      'NOT_A_BUSINESS_DAY',
      `tradeDate ${formatDate(tradeDate)} is not a business day of ${calendar.name}`,
      'tradeDate',
    );
  }
  if (!Number.isInteger(settlementDays) || settlementDays < 0 || settlementDays > 10) {
    throw new BondMathError('INVALID_ARGUMENT', `settlementDays must be an integer 0–10, got ${settlementDays}`, 'settlementDays');
  }
  return addBusinessDays(tradeDate, settlementDays, calendar);
}
