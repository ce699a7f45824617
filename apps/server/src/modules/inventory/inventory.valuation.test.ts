/**
 * The node's bond valuer (README "Speed"): a bond is built and priced once per terms, date and reference, and
 * any change of those values it again; holdings of it share the figures but keep their own money.
 */
import {
  cleanPrice,
  createGovernmentSecurity,
  formatDate,
  getConsideration,
  getPriceFromYield,
  makeYield,
  parseDate,
} from '@dart/bond-math';
import { describe, expect, it } from 'vitest';
import type { BookBond, PositionRow, ReferenceRow } from './inventory.repository';
import { createBondValuer, dateOf, priceBondFigures, valuationDates, valuationMethod, valuePosition } from './inventory.valuation';

/** 7.26% GS 2033 as the bond universe lists it (reference-data/bonds). */
const GSEC_2033: BookBond = {
  id: 1,
  isin: 'IN0020220151',
  displayName: '7.26% GS 2033',
  issuerName: 'Government of India',
  creditRating: 'SOVEREIGN',
  securityType: 'G-Sec',
  couponRate: 7.26,
  couponFrequency: 2,
  faceValue: 100,
  issueDate: null,
  listingDate: '2023-02-07',
  maturityDate: '2033-02-06',
  perpetual: false,
  tenorDays: null,
  callSchedule: [],
  putSchedule: [],
  contentHash: 'terms-1',
};
const reference = (id: number, yieldFraction: number): ReferenceRow => ({
  id,
  finstrumentId: 1,
  priceDate: '2025-11-20',
  cleanPrice: null,
  yieldFraction,
  source: 'NSE_OTC_TRADE',
  priority: 2,
  detail: null,
});
const position = (faceValue: number): PositionRow => ({
  id: `p-${faceValue}`,
  clientId: 'c',
  finstrumentId: 1,
  account: 'MAIN',
  faceValue,
  version: 1,
  costPaise: faceValue * 100,
  realisedPnlPaise: 0,
  asOf: '2025-11-20',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
const dates = valuationDates(new Date('2025-11-21T05:00:00Z'));
/** The message `fn` throws. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('did not throw');
}

describe('createBondValuer', () => {
  it('values a bond once for its terms, date and reference, and again when any of them changes', () => {
    const value = createBondValuer();
    const first = value(GSEC_2033, reference(10, 0.065), dates);
    expect('clean' in first.priced).toBe(true);
    expect(value(GSEC_2033, reference(10, 0.065), dates)).toBe(first);
    expect(value(GSEC_2033, reference(11, 0.066), dates)).not.toBe(first);
    expect(value({ ...GSEC_2033, contentHash: 'terms-2' }, reference(10, 0.065), dates)).not.toBe(first);
    const nextDay = valuationDates(new Date('2025-11-24T05:00:00Z'));
    const later = value(GSEC_2033, reference(10, 0.065), nextDay);
    expect(later).not.toBe(first);
    expect(later.reference.age_days).toBeGreaterThan(first.reference.age_days!);
    // The latest valuation per bond: back to the first reference values it again.
    expect(value(GSEC_2033, reference(10, 0.065), dates)).not.toBe(first);
    // A full cache starts again rather than growing.
    const small = createBondValuer(2);
    const a = small(GSEC_2033, reference(1, 0.06), dates);
    small({ ...GSEC_2033, id: 2 }, reference(2, 0.061), dates);
    expect(small(GSEC_2033, reference(1, 0.06), dates)).toBe(a);
    small({ ...GSEC_2033, id: 3 }, reference(3, 0.062), dates);
    expect(small(GSEC_2033, reference(1, 0.06), dates)).not.toBe(a);
  });

  it('gives each holding its own money from the shared figures, to the paisa of bond-math', () => {
    const value = createBondValuer();
    const ref = reference(10, 0.065);
    const bond = createGovernmentSecurity({
      issueDate: parseDate('2023-02-06'),
      maturityDate: parseDate('2033-02-06'),
      couponRate: 0.0726,
    });
    const clean = Number(getPriceFromYield(bond, dates.settlement, makeYield(0.065, 'semi-annual')).cleanPrice.per100.toFixed(4));
    // Sizes from one bond (₹100) to ₹5,000 crore, odd ones included: each rounds as getConsideration does.
    for (const face of [100, 1_00_000, 1_00_00_000, 25_00_00_300, 3_33_33_33_300, 50_00_00_00_000]) {
      const valued = valuePosition(position(face), GSEC_2033, value(GSEC_2033, ref, dates));
      const expected = getConsideration(bond, dates.settlement, face / 100, cleanPrice(clean));
      expect(valued.view.valuation.clean_price).toBe(clean);
      expect(valued.marketValuePaise).toBe(expected.principalPaise);
      expect(valued.accruedPaise).toBe(expected.accruedInterestPaise);
      expect(valued.view.dirty_value).toBe(expected.totalPaise / 100);
      expect(valued.view.face_value).toBe(face);
    }
  });

  it('says why a bond is not valued: its own reason before a missing reference', () => {
    const value = createBondValuer();
    const noMaturityBond = { ...GSEC_2033, maturityDate: null, contentHash: 'terms-no-maturity' };
    const noMaturity = valuePosition(position(100_000), noMaturityBond, value(noMaturityBond, undefined, dates));
    expect(noMaturity.view.valuation.not_valued_reason).toBe('The maturity date is not known.');
    const noReference = valuePosition(position(100_000), GSEC_2033, value(GSEC_2033, undefined, dates));
    expect(noReference.view.valuation.not_valued_reason).toBe('No traded price, valuation or matrix yield is available.');
    expect(noReference.marketValuePaise).toBeNull();
  });
});

describe('dateOf', () => {
  it("reads a date as bond-math's parseDate does, and refuses what it refuses with its error", () => {
    for (const text of ['2025-11-20', '2000-02-29', '1800-01-01', '2400-12-31', '2033-02-06', '2026-01-31']) {
      expect(dateOf(text)).toBe(parseDate(text));
    }
    // Every day of four years, a leap year among them.
    for (let day = parseDate('2027-01-01'); day < parseDate('2031-01-01'); day++) {
      const text = formatDate(day);
      expect(dateOf(text)).toBe(day);
    }
    for (const text of [
      '2025-02-29',
      '2025-13-01',
      '2025-00-10',
      '2025-04-31',
      '1799-12-31',
      '2025-1-01',
      '2025/01/01',
      ' 2025-01-01',
      '２０２５-01-01',
      '',
    ]) {
      expect(errorOf(() => dateOf(text))).toBe(errorOf(() => parseDate(text)));
    }
  });
});

describe('valuationMethod', () => {
  it('is one positive 31-bit number per process, from canaries that price (not only reasons)', () => {
    const method = valuationMethod();
    expect(Number.isInteger(method) && method > 0 && method <= 0x7fffffff).toBe(true);
    expect(valuationMethod()).toBe(method);
    const gsec = priceBondFigures(
      { ...GSEC_2033, couponRate: 7.18, maturityDate: '2033-07-24', issueDate: '2023-07-24' },
      { yieldFraction: 0.0712 },
      parseDate('2026-02-27'),
    );
    expect('clean' in gsec).toBe(true);
  });
});
