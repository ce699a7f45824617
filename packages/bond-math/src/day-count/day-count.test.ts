/**
 * Day counts against the ISDA 2006 §4.16 and ICMA Rule 251 definitions, with
 * the awkward dates: 31sts, end of February, 29 February, leap years.
 */
import { describe, expect, it } from 'vitest';
import { parseDate as d } from '../time/calendar-date';
import { getThirtyE360Days, THIRTY_E_360 } from './thirty-e-360';
import { getThirty360BondBasisDays } from './thirty-360-bond-basis';
import { ACTUAL_365_FIXED } from './actual-365-fixed';
import { ACTUAL_360 } from './actual-360';
import { getActualActualIsdaYearFraction } from './actual-actual-isda';
import { getActualActualIcmaYearFraction } from './actual-actual-icma';
import { containsLeapDay, createSebiActualDayCount, getSebiDenominator, ACTUAL_365_366_SEBI } from './actual-365-366-sebi';
import { getDayCount, DAY_COUNT_NAMES } from './registry';
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

describe('30E/360 and 30/360 Bond Basis', () => {
  // Source: ISDA 2006 Definitions §4.16(f) (30/360) and §4.16(g) (30E/360) applied by hand;
  // the same rows appear in the OpenGamma conventions guide. Exact integers.
  const rows: [string, string, number, number][] = [
    // start, end, 30/360 Bond Basis, 30E/360
    ['2007-01-31', '2007-02-28', 28, 28],
    ['2007-02-28', '2007-03-31', 33, 32],
    ['2008-02-29', '2008-03-31', 32, 31],
    ['2007-03-31', '2007-04-30', 30, 30],
    ['2006-08-31', '2007-02-28', 178, 178],
    ['2007-08-31', '2008-02-29', 179, 179],
    ['2007-03-31', '2007-05-31', 60, 60],
    ['2007-03-30', '2007-05-31', 60, 60],
    ['2007-03-29', '2007-05-31', 62, 61],
    ['2008-02-29', '2008-08-31', 182, 181],
    ['2024-01-31', '2024-03-31', 60, 60],
  ];
  for (const [start, end, bondBasis, european] of rows) {
    it(`[DC1][DC2] ${start} → ${end}: 30/360 = ${bondBasis}, 30E/360 = ${european}`, () => {
      expect(getThirty360BondBasisDays(d(start), d(end))).toBe(bondBasis);
      expect(getThirtyE360Days(d(start), d(end))).toBe(european);
    });
  }

  it('[DC1] RBI FAQ: every month has 30 days, 19-Oct-2001 → 6-Dec-2001 = 47 days; 8-Jun-2009 → 26-Aug-2009 = 78', () => {
    // Source: conventions doc §2 [S16][S19]; exact.
    expect(getThirtyE360Days(d('2001-10-19'), d('2001-12-06'))).toBe(47);
    expect(getThirtyE360Days(d('2009-06-08'), d('2009-08-26'))).toBe(78);
    expect(getThirtyE360Days(d('2009-10-03'), d('2010-03-03'))).toBe(150);
    expect(THIRTY_E_360.getYearFraction(d('2009-06-08'), d('2009-08-26'))).toBeCloseTo(78 / 360, 15);
  });
});

describe('ACT/365F and ACT/360', () => {
  it('[DC3][DC4] count actual days across 29 February', () => {
    expect(ACTUAL_365_FIXED.getYearFraction(d('2024-02-01'), d('2024-03-01'))).toBe(29 / 365);
    expect(ACTUAL_360.getYearFraction(d('2024-02-01'), d('2024-03-01'))).toBe(29 / 360);
    expect(ACTUAL_365_FIXED.getDayCountDays(d('2023-12-31'), d('2024-12-31'))).toBe(366);
  });
});

describe('ACT/ACT ISDA and ICMA', () => {
  // Source: ISDA, "EMU and market conventions: recent developments" (1998), the ACT/ACT
  // worked examples (ISDA vs ICMA); tolerance 1e-5 as printed (5 dp).
  it('[DC5][DC6] regular semi-annual 1-Nov-2003 → 1-May-2004: ISDA 0.49772, ICMA 0.50000', () => {
    expect(getActualActualIsdaYearFraction(d('2003-11-01'), d('2004-05-01'))).toBeCloseTo(0.49772, 5);
    const context = { referenceStart: d('2003-11-01'), referenceEnd: d('2004-05-01'), frequency: 2 as const };
    expect(getActualActualIcmaYearFraction(d('2003-11-01'), d('2004-05-01'), context)).toBe(0.5);
  });

  it('[DC5][DC6] short first period 1-Feb-1999 → 1-Jul-1999 (annual): ISDA 0.41096, ICMA 0.41096', () => {
    expect(getActualActualIsdaYearFraction(d('1999-02-01'), d('1999-07-01'))).toBeCloseTo(0.41096, 5);
    const context = { referenceStart: d('1998-07-01'), referenceEnd: d('1999-07-01'), frequency: 1 as const };
    expect(getActualActualIcmaYearFraction(d('1999-02-01'), d('1999-07-01'), context)).toBeCloseTo(0.41096, 5);
  });

  it('[DC5][DC6] long first period 15-Aug-2002 → 15-Jul-2004 (annual): ISDA 1.91634, ICMA 1.91507', () => {
    expect(getActualActualIsdaYearFraction(d('2002-08-15'), d('2004-07-15'))).toBeCloseTo(1.91634, 5);
    const context = { referenceStart: d('2003-07-15'), referenceEnd: d('2004-07-15'), frequency: 1 as const };
    expect(getActualActualIcmaYearFraction(d('2002-08-15'), d('2004-07-15'), context)).toBeCloseTo(1.91507, 5);
  });

  it('[DC5][DC6] 30-Jul-1999 → 30-Jan-2000 (semi-annual): ISDA 0.50389, ICMA 0.50000', () => {
    expect(getActualActualIsdaYearFraction(d('1999-07-30'), d('2000-01-30'))).toBeCloseTo(0.50389, 5);
    const context = { referenceStart: d('1999-07-30'), referenceEnd: d('2000-01-30'), frequency: 2 as const };
    expect(getActualActualIcmaYearFraction(d('1999-07-30'), d('2000-01-30'), context)).toBe(0.5);
  });

  it('[DC5][DC6] short final period 30-Jan-2000 → 30-Jun-2000: ISDA 0.41530, ICMA 0.41758', () => {
    expect(getActualActualIsdaYearFraction(d('2000-01-30'), d('2000-06-30'))).toBeCloseTo(0.4153, 5);
    const context = { referenceStart: d('2000-01-30'), referenceEnd: d('2000-07-30'), frequency: 2 as const };
    expect(getActualActualIcmaYearFraction(d('2000-01-30'), d('2000-06-30'), context)).toBeCloseTo(0.41758, 5);
  });

  it('[DC5] whole leap and common years are exactly 1; 29-Feb → 28-Feb next year = 365/366 + …', () => {
    expect(getActualActualIsdaYearFraction(d('2024-01-01'), d('2025-01-01'))).toBe(1);
    expect(getActualActualIsdaYearFraction(d('2023-01-01'), d('2024-01-01'))).toBe(1);
    expect(getActualActualIsdaYearFraction(d('2024-02-29'), d('2025-02-28'))).toBeCloseTo(307 / 366 + 58 / 365, 15);
  });

  it('[DC6] ICMA without a reference period is a typed error', () => {
    expect(() => getActualActualIcmaYearFraction(d('2024-01-01'), d('2024-02-01'))).toThrow(BondMathError);
  });
});

describe('SEBI actual/365-or-366 (CIR/IMD/DF-1/122/2016)', () => {
  it('[DC7] default window (E − 1y, E]: an annual period containing 29-Feb-2024 uses 366, so the coupon is exactly c', () => {
    // Source: SEBI CIR/IMD/DF-1/122/2016 [S1]; doc §4.1 working rule.
    expect(getSebiDenominator(d('2023-03-01'), d('2024-03-01'))).toBe(366);
    expect(ACTUAL_365_366_SEBI.getYearFraction(d('2023-03-01'), d('2024-03-01'))).toBe(1);
    expect(getSebiDenominator(d('2024-03-01'), d('2025-03-01'))).toBe(365);
  });

  it('[DC7] half-yearly: 366 is reckoned twice per leap day', () => {
    const dueDates = ['2023-09-01', '2024-03-01', '2024-09-01', '2025-03-01'];
    const denominators = dueDates.map((due, i) => getSebiDenominator(d(i === 0 ? '2023-03-01' : (dueDates[i - 1] as string)), d(due)));
    expect(denominators).toEqual([365, 366, 366, 365]);
  });

  it('[DC7] monthly: 366 is reckoned 12 times per leap day', () => {
    let count = 0;
    for (let month = 0; month < 36; month++) {
      const year = 2023 + Math.floor(month / 12);
      const due = `${year}-${String((month % 12) + 1).padStart(2, '0')}-15`;
      if (getSebiDenominator(d(due), d(due)) === 366) count++;
    }
    expect(count).toBe(12);
  });

  it('[DC7] quarterly: 366 is reckoned four times per leap day', () => {
    const dues = [
      '2023-05-15',
      '2023-08-15',
      '2023-11-15',
      '2024-02-15',
      '2024-05-15',
      '2024-08-15',
      '2024-11-15',
      '2025-02-15',
      '2025-05-15',
    ];
    expect(dues.filter((due) => getSebiDenominator(d(due), d(due)) === 366)).toHaveLength(4);
  });

  it('[DC7] a due date on 29 February and on 28 February of the next year both take 366', () => {
    expect(getSebiDenominator(d('2027-02-28'), d('2028-02-29'))).toBe(366);
    expect(getSebiDenominator(d('2028-02-29'), d('2029-02-28'))).toBe(366);
    expect(getSebiDenominator(d('2028-03-01'), d('2029-03-01'))).toBe(365);
  });

  it('[DC7] the leap-year window is configurable', () => {
    const periodRule = createSebiActualDayCount('period-contains-29-feb');
    expect(periodRule.getYearFraction(d('2024-03-01'), d('2024-09-01'))).toBe(184 / 365);
    expect(ACTUAL_365_366_SEBI.getYearFraction(d('2024-03-01'), d('2024-09-01'))).toBe(184 / 366);
    const calendarRule = createSebiActualDayCount('calendar-year-of-due-date');
    expect(calendarRule.getYearFraction(d('2024-09-01'), d('2025-03-01'))).toBe(181 / 365);
    expect(calendarRule.getYearFraction(d('2023-09-01'), d('2024-01-01'))).toBe(122 / 366);
    expect(containsLeapDay(d('2024-02-29'), d('2025-02-28'))).toBe(false);
    expect(containsLeapDay(d('2024-02-28'), d('2024-02-29'))).toBe(true);
  });

  it('[DC7] accrued fraction uses the denominator of the coupon period, not of the partial interval', () => {
    const context = { referenceStart: d('2024-01-15'), referenceEnd: d('2024-07-15'), frequency: 2 as const };
    expect(ACTUAL_365_366_SEBI.getYearFraction(d('2024-01-15'), d('2024-02-01'), context)).toBe(17 / 366);
  });
});

describe('day-count registry', () => {
  it('[DC8] resolves every name and rejects an unknown one naming the field', () => {
    for (const name of DAY_COUNT_NAMES) expect(getDayCount(name).name).toBe(name);
    expect(catchBondMathError(() => getDayCount('ACT/999' as never)).field).toBe('dayCount');
  });
});
