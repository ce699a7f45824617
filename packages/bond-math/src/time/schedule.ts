/**
 * Coupon schedules generated backward from maturity (ICMA / ISDA practice; Indian
 * G-secs pay "on the maturity day-of-month and 6 months before", doc §2 [S23]).
 *
 * Dates are the unadjusted due dates. Each date is computed from the maturity date
 * directly (maturity − k·12/f months), never by stepping from the previous date, so
 * a 31st maturity does not drift to the 30th after passing through a 30-day month.
 */
import type { CalendarDate } from './calendar-date';
import { formatDate, getDaysInMonth, getMonthStartDayOfIndex, toPackedYmd } from './calendar-date';
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
 * The civil fields (year, month, day) of a generated schedule's due dates, ascending, index for
 * index with `dueDates`: the day counts of a bond's coupon periods read them instead of
 * unpacking every date again (SPEC SP7). A caller-owned scratch, reused from bond to bond and
 * valid until the next {@link generateScheduleDates} call that is given it; make one with
 * {@link createScheduleDateFields}.
 */
export interface ScheduleDateFields {
  /** Number of due dates described (= `dueDates.length` of the last schedule generated with it). */
  count: number;
  year: Int32Array;
  month: Int32Array;
  day: Int32Array;
}

/** An empty {@link ScheduleDateFields} scratch (it grows as schedules need). */
export function createScheduleDateFields(capacity = 256): ScheduleDateFields {
  return { count: 0, year: new Int32Array(capacity), month: new Int32Array(capacity), day: new Int32Array(capacity) };
}

function growScheduleDateFields(fields: ScheduleDateFields, needed: number): void {
  const capacity = Math.max(needed, 2 * fields.year.length);
  const year = new Int32Array(capacity);
  const month = new Int32Array(capacity);
  const day = new Int32Array(capacity);
  year.set(fields.year);
  month.set(fields.month);
  day.set(fields.day);
  fields.year = year;
  fields.month = month;
  fields.day = day;
}

/**
 * Ascending due dates while they are generated: a packed array of small integers, reused from
 * schedule to schedule (grown by `push` only, so never holey); the schedule's array is one
 * `slice` of it, made at its final length, instead of an array grown by `push` and reversed.
 */
const dueDateScratch: number[] = [];
/** Fields scratch for calls that do not ask for the fields. */
const unusedFields = createScheduleDateFields();

/**
 * Generates the due dates of a bond backward from maturity (compact form): due date k back is
 * maturity − k·12/f months, its day the maturity's clamped to the month's length (or pinned to
 * the month end under the end-of-month rule), the rule of `addMonths`. How many there are comes
 * from the months between maturity and the stop date, so the dates are made once, ascending.
 * @param fieldsOut - when given, receives the civil fields of every due date (see {@link ScheduleDateFields}).
 * @throws BondMathError INVALID_SCHEDULE when maturity ≤ issue or the first coupon date is off the roll.
 */
export function generateScheduleDates(spec: ScheduleSpec, fieldsOut?: ScheduleDateFields): ScheduleDates {
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
  const maturityMonthIndex = year * 12 + (month - 1);
  // The maturity is always a due date; then every roll date after the stop date. Roll dates fall
  // in distinct months, so only the one in the stop date's own month needs its day compared:
  // `count` is the first k ≥ 1 whose roll date is on or before the stop date.
  const stopAt = spec.firstCouponDate ?? issueDate;
  const stopPacked = toPackedYmd(stopAt);
  const stopMonthIndex = Math.floor(stopPacked / 10000) * 12 + (Math.floor(stopPacked / 100) % 100) - 1;
  let count = Math.max(1, Math.ceil((maturityMonthIndex - stopMonthIndex) / monthsPerPeriod));
  if (
    maturityMonthIndex - count * monthsPerPeriod === stopMonthIndex &&
    getRollDate(maturityMonthIndex, day, forceMonthEnd, count * monthsPerPeriod) > stopAt
  )
    count++;
  let candidate = getRollDate(maturityMonthIndex, day, forceMonthEnd, count * monthsPerPeriod);
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
    count++;
    candidate = getRollDate(maturityMonthIndex, day, forceMonthEnd, count * monthsPerPeriod);
  }
  // `candidate` is now the roll date one period before the first due date: the first period's notional start.
  const firstIsRegular = candidate === issueDate;
  // A long front stub merges the short stub into the following regular period: one long first
  // period, whose notional start is the dropped (earliest) date.
  const merge = !firstIsRegular && spec.stub === 'long-front' && count > 1;
  const total = merge ? count - 1 : count;

  const fields = fieldsOut ?? unusedFields;
  if (fields.year.length < total) growScheduleDateFields(fields, total);
  const years = fields.year;
  const months = fields.month;
  const days = fields.day;
  const dates = dueDateScratch;
  while (dates.length < total) dates.push(0);
  // Walk forward from the earliest due date kept, by month index (the same dates getRollDate gives).
  let monthIndex = maturityMonthIndex - (total - 1) * monthsPerPeriod;
  let rollYear = Math.floor(monthIndex / 12);
  let rollMonth = monthIndex - rollYear * 12 + 1;
  for (let i = 0; i < total; i++) {
    const monthStart = getMonthStartDayOfIndex(monthIndex);
    const length = getMonthStartDayOfIndex(monthIndex + 1) - monthStart;
    const rollDay = forceMonthEnd || day > length ? length : day;
    dates[i] = monthStart + rollDay - 1;
    years[i] = rollYear;
    months[i] = rollMonth;
    days[i] = rollDay;
    monthIndex += monthsPerPeriod;
    rollMonth += monthsPerPeriod;
    if (rollMonth > 12) {
      rollMonth -= 12;
      rollYear++;
    }
  }
  fields.count = total;
  const dueDates = dates.slice(0, total) as CalendarDate[];
  const firstReferenceStartDate = merge ? getRollDate(maturityMonthIndex, day, forceMonthEnd, (count - 1) * monthsPerPeriod) : candidate;
  return { issueDate, dueDates, firstReferenceStartDate, firstIsRegular: merge ? false : firstIsRegular };
}

/** The roll date `monthsBack` months before the maturity month, on the maturity's `day` clamped to the month (or its end). */
function getRollDate(maturityMonthIndex: number, day: number, forceMonthEnd: boolean, monthsBack: number): CalendarDate {
  const monthIndex = maturityMonthIndex - monthsBack;
  const monthStart = getMonthStartDayOfIndex(monthIndex);
  const length = getMonthStartDayOfIndex(monthIndex + 1) - monthStart;
  return (monthStart + (forceMonthEnd || day > length ? length : day) - 1) as CalendarDate;
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
