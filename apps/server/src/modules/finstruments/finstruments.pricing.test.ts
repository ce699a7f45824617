import { addDays, addMonths, makeDate, type CalendarDate } from '@dart/bond-math';
import { describe, expect, it } from 'vitest';
import { lastRollDate } from './finstruments.pricing';

/** The rule as first written: walk back from maturity one coupon period at a time. */
function walkedRollDate(maturity: CalendarDate, frequency: number, settlement: CalendarDate): CalendarDate {
  for (let k = 1; k < 2400; k++) {
    const candidate = addMonths(maturity, (-k * 12) / frequency);
    if (candidate <= settlement) return candidate;
  }
  return settlement;
}

describe('lastRollDate', () => {
  it('is the walk back from maturity for every frequency, month end and distance (20,000 generated cases)', () => {
    let seed = 20261128;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const frequencies = [1, 2, 4, 12];
    for (let i = 0; i < 20_000; i++) {
      // Settlements around today; maturities from before it (a matured bond) to 60 years on, month ends included.
      const settlement = addDays(makeDate(2026, 1, 1), Math.floor(next() * 730));
      const monthStart = makeDate(2025 + Math.floor(next() * 62), 1 + Math.floor(next() * 12), 1);
      const maturity = next() < 0.3 ? addDays(addMonths(monthStart, 1), -1) : addDays(monthStart, Math.floor(next() * 28));
      const frequency = frequencies[i % frequencies.length]!;
      expect(lastRollDate(maturity, frequency, settlement)).toBe(walkedRollDate(maturity, frequency, settlement));
    }
  });

  it('gives the settlement date when no roll within 2,400 periods reaches back to it', () => {
    const settlement = makeDate(1900, 1, 1);
    expect(lastRollDate(makeDate(2300, 6, 30), 12, settlement)).toBe(walkedRollDate(makeDate(2300, 6, 30), 12, settlement));
    expect(lastRollDate(makeDate(2300, 6, 30), 12, settlement)).toBe(settlement);
  });
});
