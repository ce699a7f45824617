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
 * A schedule in compact form (what the bond builders consume; no per-period objects):
 * period i runs from `dueDates[i − 1]` (the issue date for i = 0) to `dueDates[i]`;
 * only the first period can be irregular.
 */
export interface ScheduleDates {
  /** Accrual start of the first period. */
  readonly issueDate: CalendarDate;
  /** Unadjusted due dates, ascending; the last is the maturity date. */
  readonly dueDates: readonly CalendarDate[];
  /** Start of the regular (notional) period ending at `dueDates[0]`. */
  readonly firstReferenceStartDate: CalendarDate;
  /** True when the first period is a full regular period. */
  readonly firstIsRegular: boolean;
}

/**
 * Generates the due dates of a bond backward from maturity (compact form).
 * @throws BondMathError INVALID_SCHEDULE when maturity ≤ issue or the first coupon date is off the roll.
 */
export function generateScheduleDates(spec: ScheduleSpec): ScheduleDates {
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

  const stopAt = spec.firstCouponDate ?? issueDate;
  // Regular due dates descending from maturity down to (and excluding) the stop date.
  const descending: CalendarDate[] = [maturityDate];
  let k = 1;
  let candidate = addMonthsToFields(year, month, day, -monthsPerPeriod, forceMonthEnd);
  while (candidate > stopAt) {
    descending.push(candidate);
    k++;
    candidate = addMonthsToFields(year, month, day, -k * monthsPerPeriod, forceMonthEnd);
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
    descending.push(candidate);
    k++;
    candidate = addMonthsToFields(year, month, day, -k * monthsPerPeriod, forceMonthEnd);
  }
  // `candidate` is now the roll date one period before the first due date: the first period's notional start.
  const dueDates = descending.toReversed();
  const firstIsRegular = candidate === issueDate;
  if (!firstIsRegular && spec.stub === 'long-front' && dueDates.length > 1) {
    // Merge the short stub into the following regular period: one long first period.
    const dropped = dueDates.shift() as CalendarDate;
    return { issueDate, dueDates, firstReferenceStartDate: dropped, firstIsRegular: false };
  }
  return { issueDate, dueDates, firstReferenceStartDate: candidate, firstIsRegular };
}

/** Expands compact schedule dates into period objects. */
export function expandScheduleDates(dates: ScheduleDates): SchedulePeriod[] {
  const periods: SchedulePeriod[] = [];
  for (let i = 0; i < dates.dueDates.length; i++) {
    const start = i === 0 ? dates.issueDate : (dates.dueDates[i - 1] as CalendarDate);
    periods.push({
      startDate: start,
      endDate: dates.dueDates[i] as CalendarDate,
      referenceStartDate: i === 0 ? dates.firstReferenceStartDate : start,
      isRegular: i === 0 ? dates.firstIsRegular : true,
    });
  }
  return periods;
}

/**
 * Generates the coupon periods of a bond backward from maturity.
 * @returns periods in ascending order; the first starts on `issueDate`, the last ends on `maturityDate`.
 * @throws BondMathError INVALID_SCHEDULE when maturity ≤ issue or the first coupon date is off the roll.
 */
export function generateSchedule(spec: ScheduleSpec): SchedulePeriod[] {
  return expandScheduleDates(generateScheduleDates(spec));
}
