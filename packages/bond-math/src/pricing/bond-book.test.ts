/**
 * A bond book (SPEC SP6) gives, bond for bond and bit for bit, what the per-bond API gives:
 * `getCleanPriceFromYield` and `getYieldFromPrice` are the code it replaces in a pass over
 * many bonds, so each test computes both and compares them with Object.is.
 */
import { describe, expect, it } from 'vitest';
import type { CalendarDate } from '../time/calendar-date';
import { addDays, parseDate } from '../time/calendar-date';
import type { CouponFrequency, DayCountName } from '../day-count/day-count';
import { DAY_COUNT_NAMES } from '../day-count/registry';
import type { BondConvention } from '../conventions/market-conventions';
import { ICMA_STREET } from '../conventions/market-conventions';
import type { Bond } from '../instruments/bond';
import { createFixedCouponBond } from '../instruments/fixed-coupon-bond';
import { createCorporateBond } from '../instruments/corporate-bond';
import { createGovernmentSecurity } from '../instruments/government-security';
import { createDiscountInstrument } from '../instruments/discount-instrument';
import { BondMathError } from '../errors';
import { getCleanPriceFromYield, getYieldFromPrice } from './price-yield';
import { cleanPrice } from './quote';
import { createBondBook, getBookCleanPrices, getBookYields } from './bond-book';
import { HEADER, HEADER_WIDTH } from './bond-book-layout';

/** mulberry32: deterministic inputs. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FREQUENCIES: readonly CouponFrequency[] = [1, 2, 4, 12];
const SETTLEMENT = parseDate('2025-08-21');

function quantLibConvention(dayCount: DayCountName): BondConvention {
  return { ...ICMA_STREET, name: 'QL', accrualDayCount: dayCount, yieldMethod: 'quantlib', couponAmount: 'day-count', endOfMonth: false };
}

/** Generated bonds: every day count × frequency in quantlib mode, and SEBI corporates (XIRR), short to 60 years. */
function generateBonds(count: number, seed: number): { bonds: Bond[]; rates: Float64Array } {
  const random = createRandom(seed);
  const bonds: Bond[] = [];
  const rates = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const frequency = FREQUENCIES[Math.floor(random() * 4)] as CouponFrequency;
    const issueDate = addDays(SETTLEMENT, -1 - Math.floor(random() * 3650));
    const maturityDate = addDays(SETTLEMENT, 1 + Math.floor(random() * random() * 60 * 365));
    // Deep discount (0 % coupon at up to 40 %) to premium (15 % coupon at 0.5 %).
    const couponRate = random() < 0.1 ? 0 : Math.round(random() * 1500) / 10_000;
    rates[i] = 0.005 + random() * (random() < 0.1 ? 0.4 : 0.14);
    const spec = { issueDate, maturityDate, couponRate, frequency };
    const dayCount = DAY_COUNT_NAMES[i % (DAY_COUNT_NAMES.length + 1)];
    bonds.push(
      dayCount === undefined
        ? createCorporateBond({ ...spec, faceValuePerUnit: 1000 })
        : createFixedCouponBond({ ...spec, convention: quantLibConvention(dayCount) }),
    );
  }
  return { bonds, rates };
}

function getPerBondPrice(bond: Bond, settlement: CalendarDate, rate: number): number {
  try {
    return getCleanPriceFromYield(bond, settlement, { rate, compounding: bond.yieldCompounding }).per100;
  } catch (error) {
    if (error instanceof BondMathError) return Number.NaN;
    throw error;
  }
}

function getPerBondYield(bond: Bond, settlement: CalendarDate, price: number): number {
  try {
    return getYieldFromPrice(bond, settlement, cleanPrice(price)).rate;
  } catch (error) {
    if (error instanceof BondMathError) return Number.NaN;
    throw error;
  }
}

/** Indices where the book's output differs from the per-bond one (bit for bit). */
function getMismatches(expected: readonly number[], actual: Float64Array): number[] {
  const mismatches: number[] = [];
  for (let i = 0; i < expected.length; i++) if (!Object.is(expected[i], actual[i])) mismatches.push(i);
  return mismatches;
}

describe('bond book', () => {
  it('[SP6][PY10][PY3] book clean prices equal getCleanPriceFromYield bit for bit on 4,000 generated bonds', () => {
    const { bonds, rates } = generateBonds(4000, 6);
    const book = createBondBook(bonds, SETTLEMENT);
    const prices = new Float64Array(bonds.length);
    getBookCleanPrices(book, rates, prices);
    const expected = bonds.map((bond, i) => getPerBondPrice(bond, SETTLEMENT, rates[i] as number));
    expect(getMismatches(expected, prices)).toEqual([]);
    // The fast layout carries (nearly) all of them; else the test would compare the per-bond code with itself.
    let laidOut = 0;
    for (let i = 0; i < bonds.length; i++) if (book.header[i * HEADER_WIDTH + HEADER.layout] === 1) laidOut++;
    expect(laidOut).toBeGreaterThan(3800);
  });

  it('[SP6][PY6] book yields equal getYieldFromPrice bit for bit, deep discount and long bonds included', () => {
    const { bonds, rates } = generateBonds(4000, 66);
    const book = createBondBook(bonds, SETTLEMENT);
    const prices = new Float64Array(bonds.length);
    getBookCleanPrices(book, rates, prices);
    const yields = new Float64Array(bonds.length);
    getBookYields(book, prices, yields);
    const expected = bonds.map((bond, i) => getPerBondYield(bond, SETTLEMENT, prices[i] as number));
    expect(getMismatches(expected, yields)).toEqual([]);
    let worst = 0;
    for (let i = 0; i < bonds.length; i++) worst = Math.max(worst, Math.abs((yields[i] as number) - (rates[i] as number)));
    expect(worst).toBeLessThan(1e-13);
  });

  it('[SP6] bonds outside the exponential form (street G-sec, T-bill, XIRR with one simple flow) get the per-bond answers', () => {
    const bonds = [
      createGovernmentSecurity({ issueDate: parseDate('2023-08-14'), maturityDate: parseDate('2033-08-14'), couponRate: 0.0718 }),
      createDiscountInstrument({ issueDate: parseDate('2025-06-05'), maturityDate: parseDate('2025-12-04') }),
      createCorporateBond({
        issueDate: parseDate('2021-03-10'),
        maturityDate: parseDate('2026-03-10'),
        couponRate: 0.09,
        frequency: 1,
        faceValuePerUnit: 1000,
      }),
      createFixedCouponBond({
        issueDate: parseDate('2020-01-31'),
        maturityDate: parseDate('2045-01-31'),
        couponRate: 0.07,
        frequency: 12,
        convention: quantLibConvention('ACT/ACT-ISDA'),
      }),
    ];
    const rates = Float64Array.from([0.0695, 0.055, 0.081, 0.072]);
    const book = createBondBook(bonds, SETTLEMENT);
    expect(Array.from(bonds.keys(), (i) => book.header[i * HEADER_WIDTH + HEADER.layout])).toEqual([0, 0, 0, 1]);
    const prices = new Float64Array(4);
    getBookCleanPrices(book, rates, prices);
    expect(
      getMismatches(
        bonds.map((bond, i) => getPerBondPrice(bond, SETTLEMENT, rates[i] as number)),
        prices,
      ),
    ).toEqual([]);
    const yields = new Float64Array(4);
    getBookYields(book, prices, yields);
    expect(
      getMismatches(
        bonds.map((bond, i) => getPerBondYield(bond, SETTLEMENT, prices[i] as number)),
        yields,
      ),
    ).toEqual([]);
    for (let i = 0; i < 4; i++) expect(yields[i]).toBeCloseTo(rates[i] as number, 12);
  });

  it('[SP6] a bond the per-bond API refuses gets NaN, and the book keeps the refusal', () => {
    const matured = createFixedCouponBond({
      issueDate: parseDate('2015-01-01'),
      maturityDate: parseDate('2020-01-01'),
      couponRate: 0.08,
      frequency: 2,
      convention: quantLibConvention('30/360'),
    });
    const live = createFixedCouponBond({
      issueDate: parseDate('2015-01-01'),
      maturityDate: parseDate('2040-01-01'),
      couponRate: 0.08,
      frequency: 2,
      convention: quantLibConvention('30/360'),
    });
    const book = createBondBook([matured, live, live], SETTLEMENT);
    expect(book.errors.get(0)?.code).toBe('NO_FUTURE_CASHFLOWS');
    expect(book.errors.size).toBe(1);
    const prices = new Float64Array(3);
    getBookCleanPrices(book, Float64Array.from([0.07, Number.NaN, 0.07]), prices);
    expect(Number.isNaN(prices[0])).toBe(true);
    expect(Number.isNaN(prices[1])).toBe(true); // getNativeRate refuses a non-finite yield
    expect(prices[2]).toBe(getPerBondPrice(live, SETTLEMENT, 0.07));
    const yields = new Float64Array(3);
    // A clean price so low the dirty price is not positive: NO_YIELD_EXISTS per bond.
    getBookYields(book, Float64Array.from([100, -50, prices[2] as number]), yields);
    expect(Number.isNaN(yields[0])).toBe(true);
    expect(Number.isNaN(yields[1])).toBe(true);
    expect(() => getYieldFromPrice(live, SETTLEMENT, cleanPrice(-50))).toThrow(BondMathError);
    expect(yields[2]).toBe(getPerBondYield(live, SETTLEMENT, prices[2] as number));
  });

  it('[SP6] rejects a settlement date that is not a CalendarDate, and arrays of another length than the book', () => {
    const { bonds, rates } = generateBonds(3, 9);
    expect(() => createBondBook(bonds, 20_000.5 as CalendarDate)).toThrow(
      expect.objectContaining({ code: 'INVALID_DATE', field: 'settlementDate' }),
    );
    const book = createBondBook(bonds, SETTLEMENT);
    expect(() => getBookCleanPrices(book, rates, new Float64Array(2))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'book' }),
    );
    expect(() => getBookYields(book, new Float64Array(4), new Float64Array(3))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'book' }),
    );
  });
});
