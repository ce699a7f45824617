/**
 * Business-day calendars: weekends plus a holiday table that is data.
 *
 * A calendar is a value, so a caller can swap in the year's official list at
 * run time (e.g. from the exchange circular) without touching code.
 */
import type { CalendarDate } from './calendar-date';
import { addDays, formatDate, getMonth, parseDate } from './calendar-date';
import { BondMathError } from '../errors';

/** A business-day calendar. Pure: answers from its data only. */
export interface HolidayCalendar {
  /** Calendar name, e.g. `"IN-NSE-RBI-SETTLEMENT"`. */
  readonly name: string;
  /** True when `date` is a day on which settlement can happen. */
  isBusinessDay(date: CalendarDate): boolean;
  /** The holidays (not weekends) this calendar holds, ascending, ISO dates. */
  readonly holidays: readonly string[];
}

/** One holiday row of a calendar table. */
export interface HolidayEntry {
  /** ISO date `YYYY-MM-DD`. */
  readonly date: string;
  /** What the day is, e.g. `"Republic Day"`. */
  readonly description: string;
}

/**
 * Builds a calendar from weekend days and a holiday table.
 * @param name - calendar name.
 * @param holidays - holiday rows (ISO dates); weekends need not be listed.
 * @param weekendDays - ISO weekdays that are never business days; default Saturday (6) and Sunday (7).
 * @throws BondMathError INVALID_DATE for a malformed holiday date.
 */
export function createHolidayCalendar(
  name: string,
  holidays: readonly (HolidayEntry | string)[],
  weekendDays: readonly number[] = [6, 7],
): HolidayCalendar {
  const holidayDays: number[] = [];
  const isoDates: string[] = [];
  for (const entry of holidays) {
    const iso = typeof entry === 'string' ? entry : entry.date;
    const date = parseDate(iso, 'holidays');
    holidayDays.push(date);
    isoDates.push(formatDate(date));
  }
  isoDates.sort();
  // Weekends as a bit mask over ISO weekdays and holidays as a byte map over their date
  // range: isBusinessDay runs once per coupon period when a bond is built, so it must be O(1)
  // without hashing.
  let weekendMask = 0;
  for (const weekday of weekendDays) weekendMask |= 1 << weekday;
  const firstHoliday = holidayDays.length > 0 ? Math.min(...holidayDays) : 0;
  const lastHoliday = holidayDays.length > 0 ? Math.max(...holidayDays) : -1;
  const holidayMap = new Uint8Array(Math.max(0, lastHoliday - firstHoliday + 1));
  for (const day of holidayDays) holidayMap[day - firstHoliday] = 1;
  return {
    name,
    holidays: isoDates,
    isBusinessDay(date: CalendarDate): boolean {
      // ISO weekday − 1 with one remainder (see getWeekday; negative only before 1970), inlined
      // because this runs once per coupon period when a bond is built.
      let weekdayIndex = (date + 3) % 7;
      if (weekdayIndex < 0) weekdayIndex += 7;
      if ((weekendMask & (2 << weekdayIndex)) !== 0) return false;
      return date < firstHoliday || date > lastHoliday || holidayMap[date - firstHoliday] === 0;
    },
  };
}

/** A calendar with only Saturday/Sunday weekends (no holidays). */
export const WEEKENDS_ONLY_CALENDAR: HolidayCalendar = createHolidayCalendar('WEEKENDS-ONLY', []);

/**
 * Business-day conventions (ISDA 2006 §4.12).
 * - `unadjusted`: keep the date.
 * - `following`: next business day.
 * - `modified-following`: next business day unless it is in the next month, then previous.
 * - `preceding`: previous business day.
 * - `modified-preceding`: previous business day unless it is in the previous month, then next.
 */
export type BusinessDayConvention = 'unadjusted' | 'following' | 'modified-following' | 'preceding' | 'modified-preceding';

/** Guard against a calendar that has no business day at all. */
const MAX_SCAN_DAYS = 366;

function rollTo(date: CalendarDate, step: 1 | -1, calendar: HolidayCalendar): CalendarDate {
  let current = date;
  for (let i = 0; i < MAX_SCAN_DAYS; i++) {
    if (calendar.isBusinessDay(current)) return current;
    current = addDays(current, step);
  }
  throw new BondMathError('INVALID_ARGUMENT', `calendar ${calendar.name} has no business day near ${formatDate(date)}`, 'calendar');
}

/**
 * Adjusts a date to a business day under `convention`.
 * @param date - the unadjusted date.
 * @param convention - ISDA 2006 §4.12 business-day convention.
 * @param calendar - business-day calendar.
 * @returns the adjusted date (the same date when it is already a business day).
 */
export function adjustDate(date: CalendarDate, convention: BusinessDayConvention, calendar: HolidayCalendar): CalendarDate {
  switch (convention) {
    case 'unadjusted':
      return date;
    case 'following':
      return rollTo(date, 1, calendar);
    case 'preceding':
      return rollTo(date, -1, calendar);
    case 'modified-following': {
      const next = rollTo(date, 1, calendar);
      return getMonth(next) === getMonth(date) ? next : rollTo(date, -1, calendar);
    }
    case 'modified-preceding': {
      const previous = rollTo(date, -1, calendar);
      return getMonth(previous) === getMonth(date) ? previous : rollTo(date, 1, calendar);
    }
  }
}

/**
 * Moves `businessDays` business days from `date` (T+n). With 0 the date itself is
 * returned when it is a business day, otherwise the following business day.
 * @param date - trade date.
 * @param businessDays - n of T+n (0, 1, 2 …); negative moves back.
 * @param calendar - settlement calendar.
 */
export function addBusinessDays(date: CalendarDate, businessDays: number, calendar: HolidayCalendar): CalendarDate {
  if (!Number.isInteger(businessDays)) {
    throw new BondMathError('INVALID_ARGUMENT', `businessDays must be an integer, got ${businessDays}`, 'businessDays');
  }
  if (businessDays === 0) return rollTo(date, 1, calendar);
  const step = businessDays > 0 ? 1 : -1;
  let remaining = Math.abs(businessDays);
  let current = date;
  while (remaining > 0) {
    current = addDays(current, step);
    current = rollTo(current, step, calendar);
    remaining--;
  }
  return current;
}

/** Number of business days in `(start, end]` (0 when end ≤ start). */
export function countBusinessDays(start: CalendarDate, end: CalendarDate, calendar: HolidayCalendar): number {
  let count = 0;
  for (let d = start + 1; d <= end; d++) if (calendar.isBusinessDay(d as CalendarDate)) count++;
  return count;
}
