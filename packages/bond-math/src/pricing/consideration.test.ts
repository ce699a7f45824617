import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDate as d } from '../time/calendar-date';
import { createCorporateBond } from '../instruments/corporate-bond';
import { createGovernmentSecurity } from '../instruments/government-security';
import { createDiscountInstrument } from '../instruments/discount-instrument';
import { getConsideration, getStampDutyPaise } from './consideration';
import { formatPaise, roundRupeesToPaise } from './money';
import { getCashflowSchedule } from '../cashflows/cashflow-schedule';
import { cleanPrice } from './quote';

describe('money', () => {
  it('[MN2] half-up to the paisa survives binary floating point (139.825 → 139.83)', () => {
    expect(roundRupeesToPaise((10_000 * 0.1071 * 47) / 360)).toBe(13983);
    expect(roundRupeesToPaise(0.125)).toBe(13);
    expect(roundRupeesToPaise(1.005)).toBe(101);
    expect(roundRupeesToPaise(2.675)).toBe(268);
    expect(roundRupeesToPaise(-1.005)).toBe(-101);
    expect(roundRupeesToPaise(1.00499999)).toBe(100);
    expect(roundRupeesToPaise(4_91_78_083.333333)).toBe(4_917_808_333);
    expect(formatPaise(1_233_883)).toBe('12338.83');
    expect(formatPaise(-5)).toBe('-0.05');
  });

  /** The rule as first written: every amount snapped to 15 significant digits through a string, then rounded. */
  const snappedThenRounded = (rupees: number) => {
    const paise = Number((rupees * 100).toPrecision(15));
    const rounded = Math.floor(Math.abs(paise) + 0.5);
    return paise < 0 ? -rounded : rounded;
  };

  it('[MN2] rounding without the string on amounts far from a half paisa gives what snapping gives, on every amount', () => {
    // Any double, amounts of every size, and amounts a few ulps around a half paisa (where the snap matters).
    const nearHalf = fc
      .tuple(fc.integer({ min: -1e13, max: 1e13 }), fc.integer({ min: -64, max: 64 }), fc.integer({ min: 0, max: 15 }))
      .map(([paise, ulps, scale]) => ((paise + 0.5) * (1 + ulps * Number.EPSILON * 2 ** -scale)) / 100);
    const amounts = fc.oneof(
      fc.double({ noNaN: false }),
      fc.double({ min: -1e12, max: 1e12, noNaN: true }),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
      nearHalf,
    );
    fc.assert(
      fc.property(amounts, (rupees) => Object.is(roundRupeesToPaise(rupees), snappedThenRounded(rupees))),
      { numRuns: 200_000 },
    );
    for (const rupees of [
      0,
      -0,
      0.005,
      -0.005,
      0.015,
      139.825,
      1.005,
      2.675,
      4_91_78_083.333333,
      1e11 + 0.005,
      2 ** 53,
      Infinity,
      -Infinity,
      NaN,
    ]) {
      expect(Object.is(roundRupeesToPaise(rupees), snappedThenRounded(rupees))).toBe(true);
    }
  });
});

describe('consideration and stamp duty', () => {
  const ncd = createCorporateBond({
    issueDate: d('2023-04-29'),
    maturityDate: d('2030-04-29'),
    couponRate: 0.0673,
    frequency: 1,
    faceValuePerUnit: 100_000,
  });

  it('[MN1][MN3] corporate: units × FV × (clean + AI)/100, parts add up, 0.0001 % stamp duty for the buyer', () => {
    const trade = getConsideration(ncd, d('2025-08-21'), 500, cleanPrice(100.0553));
    const accrued = (6.73 * 114) / 365;
    expect(trade.totalPaise).toBe(roundRupeesToPaise((500 * 100_000 * (100.0553 + accrued)) / 100));
    expect(trade.accruedInterestPaise).toBe(roundRupeesToPaise((500 * 100_000 * accrued) / 100));
    expect(trade.principalPaise + trade.accruedInterestPaise).toBe(trade.totalPaise);
    expect(trade.stampDutyPaise).toBe(roundRupeesToPaise((trade.totalPaise / 100) * 0.000001));
    expect(trade.buyerPaysPaise).toBe(trade.totalPaise + trade.stampDutyPaise);
    expect(getStampDutyPaise(ncd, 1_000_000_000, 'rupee-half-up')).toBe(1000);
  });

  it('[MN3] no stamp duty on G-secs or T-bills; CP/CD pay it', () => {
    const gsec = createGovernmentSecurity({ issueDate: d('2023-08-14'), maturityDate: d('2033-08-14'), couponRate: 0.0718 });
    expect(getConsideration(gsec, d('2025-08-21'), 500_000, cleanPrice(101)).stampDutyPaise).toBe(0);
    const bill = createDiscountInstrument({ issueDate: d('2025-08-21'), maturityDate: d('2025-11-20') });
    expect(getConsideration(bill, d('2025-08-21'), 250, cleanPrice(98.65)).stampDutyPaise).toBe(0);
    const cd = createDiscountInstrument({
      kind: 'certificate-of-deposit',
      issueDate: d('2025-08-21'),
      maturityDate: d('2026-08-20'),
      faceValuePerUnit: 500_000,
    });
    expect(getConsideration(cd, d('2025-08-21'), 100, cleanPrice(93.5)).stampDutyPaise).toBe(4675);
  });

  it('[MN1] rejects a non-positive quantity naming the field', () => {
    expect(() => getConsideration(ncd, d('2025-08-21'), 0, cleanPrice(100))).toThrow(/units/);
  });

  it('[MN4] the cash-flow schedule for a quantity is in paise on due and payment dates', () => {
    const rows = getCashflowSchedule(ncd, d('2025-08-21'), 3);
    expect(rows).toHaveLength(5);
    expect(rows[0]?.interestPaise).toBe(roundRupeesToPaise(3 * 1000 * 6.73));
    const last = rows[rows.length - 1];
    expect(last?.principalPaise).toBe(30_000_000);
    expect(last?.totalPaise).toBe((last?.interestPaise ?? 0) + 30_000_000);
  });
});
