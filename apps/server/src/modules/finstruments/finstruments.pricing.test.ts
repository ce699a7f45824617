import { addDays, addMonths, makeDate, type CalendarDate } from '@dart/bond-math';
import { describe, expect, it } from 'vitest';
import { buildBond, lastRollDate, type PricingTerms } from './finstruments.pricing';

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

describe('buildBond', () => {
  const settlement = makeDate(2026, 11, 30);
  const base: PricingTerms = {
    isin: 'INTEST000001',
    displayName: 'a bond',
    securityType: 'G-Sec',
    couponRate: 7.18,
    couponFrequency: 2,
    faceValue: null,
    issueDate: '2023-07-24',
    listingDate: null,
    maturityDate: '2033-07-24',
    perpetual: false,
    tenorDays: null,
    callSchedule: [],
    putSchedule: [],
  };
  // One bond of each builder buildBond calls: G-sec, SDL, T-bill, STRIPS, NCD, perpetual.
  const kinds: Array<Partial<PricingTerms>> = [
    {},
    { securityType: 'SDL' },
    { securityType: 'T-Bill', couponRate: null, issueDate: '2026-06-04', maturityDate: '2027-06-03' },
    { securityType: 'G-Sec STRIPS', couponRate: 0, listingDate: '2020-01-01', maturityDate: '2035-06-15' },
    { securityType: 'Bond/NCD', couponRate: 8.05, couponFrequency: 1, issueDate: '2022-06-17', maturityDate: '2031-06-17' },
    {
      securityType: 'Bond/NCD',
      couponRate: 8.5,
      couponFrequency: 1,
      issueDate: '2021-09-01',
      maturityDate: null,
      perpetual: true,
      callSchedule: [{ date: '2031-09-01', price: 100 }],
    },
  ];

  it("builds every kind with the row's face value per unit, and ₹100 when the row has none (null or 0)", () => {
    for (const kind of kinds) {
      const faceOf = (faceValue: number | null) => {
        const built = buildBond({ ...base, ...kind, faceValue }, settlement);
        if (!built.ok) throw new Error(`${kind.securityType ?? 'G-Sec'}: ${built.reason}`);
        return built.bond.faceValuePerUnit;
      };
      expect([faceOf(100_000), faceOf(1_000), faceOf(null), faceOf(0)], kind.securityType ?? 'G-Sec').toEqual([100_000, 1_000, 100, 100]);
    }
  });

  it('names the bond by its ISIN and display name', () => {
    const built = buildBond(base, settlement);
    expect(built.ok && [built.bond.identifier, built.bond.description]).toEqual(['INTEST000001', 'a bond']);
  });
});
