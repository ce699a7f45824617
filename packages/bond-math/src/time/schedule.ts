/**
 * Coupon schedules generated backward from maturity (ICMA / ISDA practice; Indian
 * G-secs pay "on the maturity day-of-month and 6 months before", doc §2 [S23]).
 *
 * Dates are the unadjusted due dates. Each date is computed from the maturity date
 * directly (maturity − k·12/f months), never by stepping from the previous date, so
 * a 31st maturity does not drift to the 30th after passing through a 30-day month.
 */
import type { CalendarDate } from './calendar-date';
import { addMonthsToFields, formatDate, getDaysInMonth, toPackedYmd } from './calendar-date';
import type { CouponFrequency } from '../day-count/day-count';
import { BondMathError } from '../errors';

/** Stub placement when issue date is not on the regular roll. */
export type StubType =
  /** a short first period from the issue date to the first regular date (default). */
  | 'short-front'
  /** the odd days are merged into a long first period. */
  | 'long-front';

/** Inputs of {@link generateSchedule}. */
export interface ScheduleSpec {
  /** Interest accrues from this date (issue / dated date). */
  readonly issueDate: CalendarDate;
  /** Final due date. */
  readonly maturityDate: CalendarDate;
  /** Coupons per year. */
  readonly frequency: CouponFrequency;
  /** End-of-month rule: a month-end maturity rolls to month ends. Default false. */
  readonly endOfMonth?: boolean;
  /** Stub placement. Default `short-front`. */
  readonly stub?: StubType;
  /** Optional first coupon date; it must lie on the roll back from maturity. */
  readonly firstCouponDate?: CalendarDate;
}

/** One accrual period of a schedule. */
export interface SchedulePeriod {
  /** Unadjusted accrual start. */
  readonly startDate: CalendarDate;
  /** Unadjusted accrual end = due date. */
  readonly endDate: CalendarDate;
  /** Start of the regular (notional) period ending at `endDate` (≠ startDate for stubs). */
  readonly referenceStartDate: CalendarDate;
  /** True when the period is a full regular period. */
  readonly isRegular: boolean;
}

/**
 * Generates the coupon periods of a bond backward from maturity.
 * @returns periods in ascending order; the first starts on `issueDate`, the last ends on `maturityDate`.
 * @throws BondMathError INVALID_SCHEDULE when maturity ≤ issue or the first coupon date is off the roll.
 */
export function generateSchedule(spec: ScheduleSpec): SchedulePeriod[] {
  const { issueDate, maturityDate, frequency } = spec;
  if (!(maturityDate > issueDate)) {
    throw new BondMathError(
      'INVALID_SCHEDULE',
      `maturityDate ${formatDate(maturityDate)} must be after issueDate ${formatDate(issueDate)}`,
      'maturityDate',
    );
  }
  const monthsPerPeriod = 12 / frequency;
  const packed = toPackedYmd(maturityDate);
  const year = Math.floor(packed / 10000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  const forceMonthEnd = spec.endOfMonth === true && day === getDaysInMonth(year, month);
  const rollDate = (k: number): CalendarDate => addMonthsToFields(year, month, day, -k * monthsPerPeriod, forceMonthEnd);

  const stopAt = spec.firstCouponDate ?? issueDate;
  // Regular due dates descending from maturity down to (and excluding) the stop date.
  const dueDates: CalendarDate[] = [maturityDate];
  let k = 1;
  let candidate = rollDate(k);
  while (candidate > stopAt) {
    dueDates.push(candidate);
    k++;
    candidate = rollDate(k);
  }
  if (spec.firstCouponDate !== undefined) {
    if (candidate !== spec.firstCouponDate) {
      throw new BondMathError(
        'INVALID_SCHEDULE',
        `firstCouponDate ${formatDate(spec.firstCouponDate)} is not on the roll back from maturity ${formatDate(maturityDate)}`,
        'firstCouponDate',
      );
    }
    if (!(spec.firstCouponDate > issueDate)) {
      throw new BondMathError('INVALID_SCHEDULE', 'firstCouponDate must be after issueDate', 'firstCouponDate');
    }
    dueDates.push(candidate);
    k++;
    candidate = rollDate(k);
  }
  dueDates.reverse();
  // `candidate` is now the first roll date on or before the issue (or before the first coupon date).
  const periods: SchedulePeriod[] = [];
  let start = issueDate;
  // Notional start of the first period: the roll date one period before the first due date.
  const firstReference = candidate;
  const firstIsRegular = firstReference === issueDate;
  let index = 0;
  if (!firstIsRegular && spec.stub === 'long-front' && dueDates.length > 1) {
    // Merge the short stub into the following regular period: one long first period.
    const firstDue = dueDates[0] as CalendarDate;
    const secondDue = dueDates[1] as CalendarDate;
    periods.push({ startDate: issueDate, endDate: secondDue, referenceStartDate: firstDue, isRegular: false });
    start = secondDue;
    index = 2;
  } else {
    const firstDue = dueDates[0] as CalendarDate;
    periods.push({ startDate: issueDate, endDate: firstDue, referenceStartDate: firstReference, isRegular: firstIsRegular });
    start = firstDue;
    index = 1;
  }
  for (; index < dueDates.length; index++) {
    const due = dueDates[index] as CalendarDate;
    periods.push({ startDate: start, endDate: due, referenceStartDate: start, isRegular: true });
    start = due;
  }
  return periods;
}
