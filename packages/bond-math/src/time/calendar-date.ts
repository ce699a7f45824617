/**
 * Calendar dates without time zones.
 *
 * A {@link CalendarDate} is the proleptic-Gregorian day number counted from
 * 1970-01-01 (day 0), branded so it cannot be confused with other numbers.
 * A plain integer makes `b - a` the actual number of days (ACT day counts),
 * makes comparison `<` work, and costs no allocation in hot pricing loops.
 * There is no time of day and no time zone: a bond's cash flow falls on a date,
 * not an instant (contrast JS `Date`, which is an instant in UTC).
 *
 * Conversions use the days-from-civil / civil-from-days algorithms of
 * H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (public domain
 * description), valid for every Gregorian date.
 */
import { BondMathError } from '../errors';

declare const calendarDateBrand: unique symbol;

/** A date in the proleptic Gregorian calendar, as days since 1970-01-01. No time zone. */
export type CalendarDate = number & { readonly [calendarDateBrand]: 'CalendarDate' };

/** Smallest and largest supported years (a pricing library needs no more). */
const MIN_YEAR = 1800;
const MAX_YEAR = 2400;

/** True when `year` is a Gregorian leap year. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Number of days in `month` (1–12) of `year`. */
export function getDaysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Hinnant's civil-from-days, packed (every Gregorian date; the tables below cover 1800–2400 faster). */
function toPackedYmdByFormula(date: number): number {
  const z = date + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return year * 10000 + month * 100 + day;
}

/**
 * Day number of 1 January of every year {@link MIN_YEAR}..{@link MAX_YEAR} + 1, and for each
 * day of a year (0–365) its packed `month * 100 + day` in a common and in a leap year: day
 * counts unpack both dates of every coupon period when a bond is built, and two table reads
 * replace the ten divisions of the formula (same integers; checked against it in time.test.ts).
 */
const YEAR_START_DAYS = new Int32Array(MAX_YEAR - MIN_YEAR + 2);
for (let year = MIN_YEAR; year <= MAX_YEAR + 1; year++) YEAR_START_DAYS[year - MIN_YEAR] = daysFromCivil(year, 1, 1);
const MONTH_DAY_OF_YEAR = new Int16Array(2 * 366);
for (let leap = 0; leap < 2; leap++) {
  let dayOfYear = 0;
  for (let month = 1; month <= 12; month++) {
    const length = month === 2 && leap === 1 ? 29 : (DAYS_IN_MONTH[month - 1] as number);
    for (let day = 1; day <= length; day++) MONTH_DAY_OF_YEAR[leap * 366 + dayOfYear++] = month * 100 + day;
  }
}
const FIRST_TABLE_DAY = YEAR_START_DAYS[0] as number;
const END_TABLE_DAY = YEAR_START_DAYS[MAX_YEAR - MIN_YEAR + 1] as number;

/**
 * Packs a date as `year * 10000 + month * 100 + day` (e.g. 20250131).
 * Used by day counts that need the civil fields of both dates without allocating.
 */
export function toPackedYmd(date: CalendarDate): number {
  if (!(date >= FIRST_TABLE_DAY && date < END_TABLE_DAY)) return toPackedYmdByFormula(date);
  // 365.2425 days a year on average: the estimate is the year or one after it.
  let index = Math.floor((date - FIRST_TABLE_DAY) / 365.2425);
  if ((YEAR_START_DAYS[index] as number) > date) index--;
  else if ((YEAR_START_DAYS[index + 1] as number) <= date) index++;
  const year = MIN_YEAR + index;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 366 : 0;
  return year * 10000 + (MONTH_DAY_OF_YEAR[leap + date - (YEAR_START_DAYS[index] as number)] as number);
}

/** Day number of 1 January of `year` (integer). */
export function getYearStartDay(year: number): CalendarDate {
  if (year >= MIN_YEAR && year <= MAX_YEAR + 1) return YEAR_START_DAYS[year - MIN_YEAR] as CalendarDate;
  return daysFromCivil(year, 1, 1) as CalendarDate;
}

/** Packed `year * 10000 + month * 100 + day` by the civil-from-days formula, for tests of the tables. */
export const toPackedYmdReference: (date: CalendarDate) => number = toPackedYmdByFormula;

/**
 * Builds a date from its civil fields.
 * @param year - Gregorian year (1800–2400).
 * @param month - 1 (January) to 12 (December).
 * @param day - 1 to the month's length.
 * @throws BondMathError INVALID_DATE when the fields do not name a real date (e.g. 2025-02-29).
 */
export function makeDate(year: number, month: number, day: number): CalendarDate {
  if (
    !Number.isInteger(year) ||
    !Number.isInteger(month) ||
    !Number.isInteger(day) ||
    year < MIN_YEAR ||
    year > MAX_YEAR ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > getDaysInMonth(year, month)
  ) {
    throw new BondMathError('INVALID_DATE', `not a valid calendar date: ${year}-${month}-${day}`);
  }
  return daysFromCivil(year, month, day) as CalendarDate;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses an ISO-8601 calendar date `YYYY-MM-DD` (no time, no zone).
 * @param text - e.g. `"2025-08-20"`.
 * @param field - name reported in the error, default `"date"`.
 * @throws BondMathError INVALID_DATE for any other shape or an impossible date.
 */
export function parseDate(text: string, field = 'date'): CalendarDate {
  const match = typeof text === 'string' ? ISO_DATE.exec(text) : null;
  if (!match) throw new BondMathError('INVALID_DATE', `${field}: expected YYYY-MM-DD, got ${JSON.stringify(text)}`, field);
  try {
    return makeDate(Number(match[1]), Number(match[2]), Number(match[3]));
  } catch {
    throw new BondMathError('INVALID_DATE', `${field}: not a valid calendar date: ${text}`, field);
  }
}

/** Formats a date as ISO-8601 `YYYY-MM-DD`. */
export function formatDate(date: CalendarDate): string {
  const packed = toPackedYmd(date);
  const year = Math.floor(packed / 10000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Gregorian year of `date`. */
export function getYear(date: CalendarDate): number {
  return Math.floor(toPackedYmd(date) / 10000);
}

/** Month of `date`, 1 (January) to 12. */
export function getMonth(date: CalendarDate): number {
  return Math.floor(toPackedYmd(date) / 100) % 100;
}

/** Day of the month of `date`, 1 to 31. */
export function getDayOfMonth(date: CalendarDate): number {
  return toPackedYmd(date) % 100;
}

/** ISO weekday of `date`: 1 = Monday … 7 = Sunday. (1970-01-01 was a Thursday.) */
export function getWeekday(date: CalendarDate): number {
  return ((((date + 3) % 7) + 7) % 7) + 1;
}

/** True when `date` is the last day of its month. */
export function isEndOfMonth(date: CalendarDate): boolean {
  const packed = toPackedYmd(date);
  const year = Math.floor(packed / 10000);
  const month = Math.floor(packed / 100) % 100;
  return packed % 100 === getDaysInMonth(year, month);
}

/** `date` plus `days` calendar days (negative to go back). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  return (date + days) as CalendarDate;
}

/** Actual number of calendar days from `start` to `end` (negative when end < start). */
export function getActualDays(start: CalendarDate, end: CalendarDate): number {
  return end - start;
}

/**
 * Adds calendar months, clamping the day to the target month's length
 * (31 Jan + 1 month = 28/29 Feb), as ISDA 2006 §4.10 and every schedule generator do.
 * @param months - months to add (negative to go back).
 * @param endOfMonth - when true and `date` is a month end, the result is the target month's end
 *   (the ISDA/ICMA "end-of-month rule").
 */
export function addMonths(date: CalendarDate, months: number, endOfMonth = false): CalendarDate {
  const packed = toPackedYmd(date);
  const year = Math.floor(packed / 10000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  return addMonthsToFields(year, month, day, months, endOfMonth && day === getDaysInMonth(year, month));
}

/**
 * Day number of the 1st of every month from January {@link MIN_YEAR} to January
 * {@link MAX_YEAR} + 1, indexed by `year * 12 + month − 1 − MIN_YEAR * 12`: schedule
 * generation turns ~50 (year, month, day) triples into day numbers per bond built, and
 * two table reads replace the divisions of the civil-date formula (same integers).
 */
const MONTH_START_DAYS: readonly number[] = (() => {
  const starts: number[] = [];
  for (let year = MIN_YEAR; year <= MAX_YEAR; year++) {
    for (let month = 1; month <= 12; month++) starts.push(daysFromCivil(year, month, 1));
  }
  starts.push(daysFromCivil(MAX_YEAR + 1, 1, 1));
  return starts;
})();
const FIRST_TABLE_MONTH = MIN_YEAR * 12;
const LAST_TABLE_MONTH = MAX_YEAR * 12 + 11;

/**
 * Day number of the 1st of the month whose index is `monthIndex` = year · 12 + (month − 1),
 * from the table in 1800–2400: a schedule walks its due dates by month index and makes each as
 * this + day − 1, the integer {@link addMonthsToFields} gives for the same fields (the month's
 * length is the next index's start minus this one's).
 */
export function getMonthStartDayOfIndex(monthIndex: number): CalendarDate {
  if (monthIndex >= FIRST_TABLE_MONTH && monthIndex <= LAST_TABLE_MONTH + 1) {
    return MONTH_START_DAYS[monthIndex - FIRST_TABLE_MONTH] as CalendarDate;
  }
  const year = Math.floor(monthIndex / 12);
  return daysFromCivil(year, monthIndex - year * 12 + 1, 1) as CalendarDate;
}

/** Core of {@link addMonths} on civil fields; `forceMonthEnd` pins the result to the month end. */
export function addMonthsToFields(year: number, month: number, day: number, months: number, forceMonthEnd: boolean): CalendarDate {
  const monthIndex = year * 12 + (month - 1) + months;
  if (monthIndex >= FIRST_TABLE_MONTH && monthIndex <= LAST_TABLE_MONTH && Number.isInteger(monthIndex)) {
    // Fast path: month start and length from the table (identical to the formula below).
    const start = MONTH_START_DAYS[monthIndex - FIRST_TABLE_MONTH] as number;
    const length = (MONTH_START_DAYS[monthIndex - FIRST_TABLE_MONTH + 1] as number) - start;
    return (start + (forceMonthEnd || day > length ? length : day) - 1) as CalendarDate;
  }
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  const length = getDaysInMonth(targetYear, targetMonth);
  const targetDay = forceMonthEnd || day > length ? length : day;
  return daysFromCivil(targetYear, targetMonth, targetDay) as CalendarDate;
}

/** `date` moved by whole years (29 Feb → 28 Feb in a common year). */
export function addYears(date: CalendarDate, years: number): CalendarDate {
  return addMonths(date, years * 12);
}

/** The earlier of two dates. */
export function minDate(a: CalendarDate, b: CalendarDate): CalendarDate {
  return a <= b ? a : b;
}

/** The later of two dates. */
export function maxDate(a: CalendarDate, b: CalendarDate): CalendarDate {
  return a >= b ? a : b;
}
