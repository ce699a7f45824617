/**
 * Coupon periods taken as given from a term-sheet cash-flow table: SEBI requires
 * issuers to publish "Sr / Particulars / Due Date / Payment date" schedules and NSE
 * RFQ prices "using cash flows from term sheet" (doc §4.2 [S9][S10]). Handles
 * step-up/step-down coupons, partial redemptions and cumulative redemptions.
 */
import type { CalendarDate } from '../time/calendar-date';
import { addDays, addMonths, formatDate } from '../time/calendar-date';
import type { HolidayCalendar } from '../time/holiday-calendar';
import { adjustDate } from '../time/holiday-calendar';
import type { CouponFrequency, DayCount } from '../day-count/day-count';
import type { BondConvention } from '../conventions/market-conventions';
import type { CouponPeriod } from '../instruments/bond';
import { getPeriodInterest } from './coupon-periods';
import { BondMathError } from '../errors';

/** One row of a term-sheet cash-flow table. Amounts are ₹ per unit of face value `faceValuePerUnit`. */
export interface TermSheetCashflow {
  /** Unadjusted due date (the date yield↔price uses). */
  readonly dueDate: CalendarDate;
  /** Actual payment date, if the term sheet gives it; default: rolled by the convention. */
  readonly paymentDate?: CalendarDate;
  /** Record date, if given; default: the convention's `recordDateDaysBeforeDue`. */
  readonly recordDate?: CalendarDate;
  /** Annual coupon rate of the period ending here (interest computed on outstanding). */
  readonly couponRate?: number;
  /** Interest in ₹ per unit as printed on the term sheet (overrides `couponRate`). */
  readonly interestPerUnit?: number;
  /** Principal repaid in ₹ per unit. */
  readonly principalPerUnit?: number;
  /** Redemption premium in ₹ per unit (paid with principal, does not accrue). */
  readonly premiumPerUnit?: number;
}

/** Inputs of {@link buildPeriodsFromTermSheet}. */
export interface TermSheetSpec {
  readonly issueDate: CalendarDate;
  readonly faceValuePerUnit: number;
  readonly cashflows: readonly TermSheetCashflow[];
  readonly frequency: CouponFrequency;
  readonly dayCount: DayCount;
  readonly convention: BondConvention;
  readonly calendar: HolidayCalendar;
}

/**
 * Builds coupon periods from a term-sheet table; each row closes the accrual period
 * that began at the previous row's due date (the first at the issue date).
 * @throws BondMathError INVALID_ARGUMENT when rows are out of order or principal does not sum to face value.
 */
export function buildPeriodsFromTermSheet(spec: TermSheetSpec): CouponPeriod[] {
  const { issueDate, faceValuePerUnit, cashflows, frequency, dayCount, convention, calendar } = spec;
  if (cashflows.length === 0) throw new BondMathError('INVALID_ARGUMENT', 'cashflows: term sheet has no rows', 'cashflows');
  if (!(faceValuePerUnit > 0)) throw new BondMathError('INVALID_ARGUMENT', 'faceValuePerUnit must be > 0', 'faceValuePerUnit');
  const toPer100 = 100 / faceValuePerUnit;
  const monthsPerPeriod = 12 / frequency;
  const periods: CouponPeriod[] = [];
  let outstanding = 100;
  let start = issueDate;
  const lastIndex = cashflows.length - 1;
  for (let i = 0; i <= lastIndex; i++) {
    const row = cashflows[i] as TermSheetCashflow;
    if (!(row.dueDate > start)) {
      throw new BondMathError(
        'INVALID_ARGUMENT',
        `cashflows[${i}].dueDate ${formatDate(row.dueDate)} must be after ${formatDate(start)}`,
        `cashflows[${i}].dueDate`,
      );
    }
    const notionalStart = addMonths(row.dueDate, -monthsPerPeriod);
    const isRegular = notionalStart === start;
    const couponRate = row.couponRate ?? 0;
    const interest =
      row.interestPerUnit !== undefined
        ? row.interestPerUnit * toPer100
        : getPeriodInterest(
            start,
            row.dueDate,
            isRegular ? start : notionalStart,
            isRegular,
            couponRate,
            outstanding,
            frequency,
            dayCount,
            convention,
          );
    const principal = (row.principalPerUnit ?? 0) * toPer100;
    if (principal < 0 || principal > outstanding + 1e-9) {
      throw new BondMathError(
        'INVALID_ARGUMENT',
        `cashflows[${i}].principalPerUnit repays more than the outstanding face`,
        `cashflows[${i}].principalPerUnit`,
      );
    }
    // Rate implied by an explicit interest amount, so accrued interest follows the printed amount.
    const fraction = dayCount.getYearFraction(start, row.dueDate, {
      referenceStart: isRegular ? start : notionalStart,
      referenceEnd: row.dueDate,
      frequency,
    });
    const impliedRate =
      row.interestPerUnit !== undefined && outstanding > 0 && fraction > 0
        ? convention.couponAmount === 'fixed-per-period' && isRegular
          ? (interest * frequency) / outstanding
          : interest / (outstanding * fraction)
        : couponRate;
    periods.push({
      accrualStartDate: start,
      dueDate: row.dueDate,
      paymentDate:
        row.paymentDate ??
        adjustDate(row.dueDate, i === lastIndex ? convention.maturityPaymentConvention : convention.couponPaymentConvention, calendar),
      recordDate:
        row.recordDate ?? (convention.recordDateDaysBeforeDue === null ? null : addDays(row.dueDate, -convention.recordDateDaysBeforeDue)),
      referenceStartDate: isRegular ? start : notionalStart,
      isRegular,
      couponRate: impliedRate,
      outstandingPer100: outstanding,
      interestPer100: interest,
      principalPer100: principal,
      premiumPer100: (row.premiumPerUnit ?? 0) * toPer100,
    });
    outstanding -= principal;
    start = row.dueDate;
  }
  if (Math.abs(outstanding) > 1e-9) {
    throw new BondMathError(
      'INVALID_ARGUMENT',
      `cashflows: principal repaid sums to ${100 - outstanding} per 100, expected 100 (face value ${faceValuePerUnit})`,
      'cashflows',
    );
  }
  return periods;
}
