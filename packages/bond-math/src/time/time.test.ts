import { describe, expect, it } from 'vitest';
import {
  addMonths,
  addYears,
  formatDate,
  getDayOfMonth,
  getMonth,
  getWeekday,
  getYear,
  isEndOfMonth,
  makeDate,
  parseDate as d,
} from './calendar-date';
import { addBusinessDays, adjustDate, createHolidayCalendar, WEEKENDS_ONLY_CALENDAR } from './holiday-calendar';
import { INDIA_SETTLEMENT_CALENDAR, INDIA_SETTLEMENT_HOLIDAYS } from './india-holidays';
import { getSettlementDate } from './settlement';
import { generateSchedule } from './schedule';
import { BondMathError } from '../errors';

/** Runs `run` and returns the BondMathError it throws (fails the test when it does not throw). */
function catchBondMathError(run: () => unknown): BondMathError {
  try {
    run();
  } catch (error) {
    if (error instanceof BondMathError) return error;
    throw error;
  }
  throw new Error('expected a BondMathError');
}

describe('CalendarDate', () => {
  it('[DT1] is a day number without time zone: ISO round trip, field access, weekday', () => {
    for (const iso of ['1800-01-01', '1970-01-01', '2000-02-29', '2024-12-31', '2100-03-01', '2400-12-31']) {
      expect(formatDate(d(iso))).toBe(iso);
    }
    expect(d('1970-01-01')).toBe(0);
    const date = d('2024-02-29');
    expect([getYear(date), getMonth(date), getDayOfMonth(date)]).toEqual([2024, 2, 29]);
    expect(getWeekday(d('2025-08-20'))).toBe(3); // a Wednesday
    expect(d('2024-03-01') - d('2024-02-28')).toBe(2);
  });

  it('[DT1] rejects impossible dates and other shapes with INVALID_DATE naming the field', () => {
    for (const bad of ['2025-02-29', '2023-13-01', '2023-04-31', '20230101', '2023-1-01', '']) {
      expect(catchBondMathError(() => d(bad, 'maturityDate'))).toMatchObject({ code: 'INVALID_DATE', field: 'maturityDate' });
    }
    expect(() => makeDate(2023, 2, 29)).toThrow(BondMathError);
  });

  it('[DT2] month arithmetic clamps to the month end and applies the end-of-month rule on request', () => {
    expect(formatDate(addMonths(d('2024-01-31'), 1))).toBe('2024-02-29');
    expect(formatDate(addMonths(d('2023-01-31'), 1))).toBe('2023-02-28');
    expect(formatDate(addMonths(d('2024-04-30'), 6))).toBe('2024-10-30');
    expect(formatDate(addMonths(d('2024-04-30'), 6, true))).toBe('2024-10-31');
    expect(formatDate(addMonths(d('2024-03-31'), -13))).toBe('2023-02-28');
    expect(formatDate(addYears(d('2024-02-29'), 1))).toBe('2025-02-28');
    expect(isEndOfMonth(d('2024-02-29'))).toBe(true);
    expect(isEndOfMonth(d('2023-02-28'))).toBe(true);
  });
});

describe('business days and settlement', () => {
  const calendar = createHolidayCalendar('TEST', ['2025-08-15', '2025-08-27']);

  it('[DT3] following, modified following, preceding, modified preceding (ISDA 2006 §4.12)', () => {
    const saturday = d('2025-05-31');
    expect(formatDate(adjustDate(saturday, 'following', calendar))).toBe('2025-06-02');
    expect(formatDate(adjustDate(saturday, 'modified-following', calendar))).toBe('2025-05-30');
    expect(formatDate(adjustDate(d('2025-06-01'), 'preceding', calendar))).toBe('2025-05-30');
    expect(formatDate(adjustDate(d('2025-06-01'), 'modified-preceding', calendar))).toBe('2025-06-02');
    expect(formatDate(adjustDate(d('2025-08-15'), 'following', calendar))).toBe('2025-08-18');
    expect(formatDate(adjustDate(d('2025-08-15'), 'unadjusted', calendar))).toBe('2025-08-15');
  });

  it('[DT4] the Indian calendar is data: holidays listed, weekends excluded, replaceable at run time', () => {
    expect(INDIA_SETTLEMENT_HOLIDAYS.length).toBeGreaterThan(25);
    expect(INDIA_SETTLEMENT_CALENDAR.isBusinessDay(d('2026-01-26'))).toBe(false);
    expect(INDIA_SETTLEMENT_CALENDAR.isBusinessDay(d('2025-10-02'))).toBe(false);
    expect(INDIA_SETTLEMENT_CALENDAR.isBusinessDay(d('2025-10-03'))).toBe(true);
    expect(INDIA_SETTLEMENT_CALENDAR.isBusinessDay(d('2025-10-04'))).toBe(false); // Saturday
    for (const entry of INDIA_SETTLEMENT_HOLIDAYS) {
      const weekday = getWeekday(d(entry.date));
      expect(weekday).toBeLessThanOrEqual(5);
    }
    const replaced = createHolidayCalendar('CUSTOM', [...INDIA_SETTLEMENT_HOLIDAYS, { date: '2027-03-22', description: 'Holi (assumed)' }]);
    expect(replaced.isBusinessDay(d('2027-03-22'))).toBe(false);
  });

  it('[DT5] T+0/T+1/T+2 roll over weekends and holidays', () => {
    // Thursday 14-Aug-2025 + 1 business day skips Independence Day (Fri) and the weekend.
    expect(formatDate(getSettlementDate(d('2025-08-14'), 1, INDIA_SETTLEMENT_CALENDAR))).toBe('2025-08-18');
    expect(formatDate(getSettlementDate(d('2025-08-14'), 0, INDIA_SETTLEMENT_CALENDAR))).toBe('2025-08-14');
    expect(formatDate(getSettlementDate(d('2025-08-26'), 2, INDIA_SETTLEMENT_CALENDAR))).toBe('2025-08-29');
    expect(formatDate(addBusinessDays(d('2025-08-18'), -1, INDIA_SETTLEMENT_CALENDAR))).toBe('2025-08-14');
    expect(formatDate(getSettlementDate(d('2025-08-22'), 1, WEEKENDS_ONLY_CALENDAR))).toBe('2025-08-25');
  });

  it('[DT5] a trade date on a holiday is rejected with NOT_A_BUSINESS_DAY', () => {
    expect(() => getSettlementDate(d('2025-08-15'), 1, INDIA_SETTLEMENT_CALENDAR)).toThrow(/not a business day/);
  });
});

describe('schedules', () => {
  it('[SC1] semi-annual dates roll back from a 31st maturity without drifting to the 30th', () => {
    const periods = generateSchedule({ issueDate: d('2020-03-31'), maturityDate: d('2022-03-31'), frequency: 2 });
    expect(periods.map((p) => formatDate(p.endDate))).toEqual(['2020-09-30', '2021-03-31', '2021-09-30', '2022-03-31']);
    expect(periods.every((p) => p.isRegular)).toBe(true);
  });

  it('[SC2] an issue date off the roll gives a short front stub, or a long one on request', () => {
    const short = generateSchedule({ issueDate: d('2024-02-10'), maturityDate: d('2025-06-15'), frequency: 2 });
    expect(short.map((p) => formatDate(p.startDate))).toEqual(['2024-02-10', '2024-06-15', '2024-12-15']);
    expect(short[0]?.isRegular).toBe(false);
    expect(formatDate(short[0]?.referenceStartDate as never)).toBe('2023-12-15');
    const long = generateSchedule({ issueDate: d('2024-02-10'), maturityDate: d('2025-06-15'), frequency: 2, stub: 'long-front' });
    expect(long.map((p) => formatDate(p.endDate))).toEqual(['2024-12-15', '2025-06-15']);
    expect(formatDate(long[0]?.referenceStartDate as never)).toBe('2024-06-15');
  });

  it('[SC3] the end-of-month rule keeps month ends; without it the day-of-month is kept', () => {
    const eom = generateSchedule({ issueDate: d('2024-02-29'), maturityDate: d('2025-02-28'), frequency: 4, endOfMonth: true });
    expect(eom.map((p) => formatDate(p.endDate))).toEqual(['2024-05-31', '2024-08-31', '2024-11-30', '2025-02-28']);
    const plain = generateSchedule({ issueDate: d('2024-02-28'), maturityDate: d('2025-02-28'), frequency: 4 });
    expect(plain.map((p) => formatDate(p.endDate))).toEqual(['2024-05-28', '2024-08-28', '2024-11-28', '2025-02-28']);
  });

  it('[SC1] a first coupon date off the roll is rejected naming the field', () => {
    const error = catchBondMathError(() =>
      generateSchedule({ issueDate: d('2024-01-01'), maturityDate: d('2026-06-15'), frequency: 2, firstCouponDate: d('2024-05-01') }),
    );
    expect(error.field).toBe('firstCouponDate');
    const ok = generateSchedule({
      issueDate: d('2024-01-01'),
      maturityDate: d('2026-06-15'),
      frequency: 2,
      firstCouponDate: d('2024-06-15'),
    });
    expect(formatDate(ok[0]?.endDate as never)).toBe('2024-06-15');
  });
});
