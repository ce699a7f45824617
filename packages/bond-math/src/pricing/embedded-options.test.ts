import { describe, expect, it } from 'vitest';
import { formatDate, parseDate as d } from '../time/calendar-date';
import { createCorporateBond } from '../instruments/corporate-bond';
import { createPerpetualBond } from '../instruments/perpetual-bond';
import { createFloatingRateGovernmentBond } from '../instruments/floating-rate-bond';
import { createGovernmentSecurity } from '../instruments/government-security';
import { getPriceToWorkout, getPriceToWorst, getYieldToCall, getYieldToPut, getYieldToWorst, getYieldToWorkout } from './embedded-options';
import { getCleanPriceFromYield, getYieldFromPrice } from './price-yield';
import { cleanPrice, makeYield } from './quote';
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

const callable = createCorporateBond({
  description: '8.5% NCD 2032 callable 2027 and 2029 at par',
  issueDate: d('2022-05-10'),
  maturityDate: d('2032-05-10'),
  couponRate: 0.085,
  frequency: 1,
  faceValuePerUnit: 100_000,
  callSchedule: [
    { date: d('2027-05-10'), pricePer100: 100 },
    { date: d('2029-05-10'), pricePer100: 100 },
  ],
  putSchedule: [{ date: d('2028-05-10'), pricePer100: 100 }],
});
const settlement = d('2025-08-21');

describe('calls and puts', () => {
  it('[OP1] yield to call truncates the flows at the call date and redeems at the call price', () => {
    const price = cleanPrice(103);
    const ytc = getYieldToCall(callable, settlement, price);
    expect(formatDate(ytc.workoutDate)).toBe('2027-05-10');
    // Reference: same coupons on a bond maturing on the call date.
    const toCall = createCorporateBond({ issueDate: d('2022-05-10'), maturityDate: d('2027-05-10'), couponRate: 0.085, frequency: 1 });
    expect(ytc.yield.rate).toBeCloseTo(getYieldFromPrice(toCall, settlement, price).rate, 12);
    const ytp = getYieldToPut(callable, settlement, price);
    expect(formatDate(ytp.workoutDate)).toBe('2028-05-10');
  });

  it('[OP1] a call premium raises the yield to call; a call date off the coupon roll works under XIRR', () => {
    const premium = getYieldToWorkout(callable, settlement, cleanPrice(100), { date: d('2027-05-10'), pricePer100: 101 });
    const par = getYieldToWorkout(callable, settlement, cleanPrice(100), { date: d('2027-05-10'), pricePer100: 100 });
    expect(premium.rate).toBeGreaterThan(par.rate);
    const offRoll = getYieldToWorkout(callable, settlement, cleanPrice(100), { date: d('2027-11-10'), pricePer100: 100 });
    expect(offRoll.rate).toBeGreaterThan(0.08);
    expect(offRoll.rate).toBeLessThan(0.09);
  });

  it('[OP2] yield to worst is the lowest of YTM and every YTC, and never above YTM', () => {
    const premiumPrice = cleanPrice(104);
    const ytw = getYieldToWorst(callable, settlement, premiumPrice);
    const ytm = getYieldFromPrice(callable, settlement, premiumPrice);
    expect(ytw.workout).toBe('call');
    expect(formatDate(ytw.workoutDate)).toBe('2027-05-10');
    expect(ytw.yield.rate).toBeLessThanOrEqual(ytm.rate);
    const discount = getYieldToWorst(callable, settlement, cleanPrice(95));
    expect(discount.workout).toBe('maturity');
    expect(discount.yield.rate).toBeCloseTo(getYieldFromPrice(callable, settlement, cleanPrice(95)).rate, 14);
  });

  it('[OP3] price to worst is the lowest price over maturity and the calls at one yield', () => {
    const y = makeYield(0.07, 'annual');
    const worst = getPriceToWorst(callable, settlement, y);
    const toMaturity = getCleanPriceFromYield(callable, settlement, y).per100;
    expect(worst.cleanPrice.per100).toBeLessThanOrEqual(toMaturity);
    expect(worst.workout).toBe('call');
    const high = getPriceToWorst(callable, settlement, makeYield(0.1, 'annual'));
    expect(high.workout).toBe('maturity');
  });

  it('[OP1] an unknown call date is a typed error naming the field', () => {
    expect(catchBondMathError(() => getYieldToCall(callable, settlement, cleanPrice(100), d('2030-01-01'))).field).toBe('callDate');
  });

  it('[OP1] street bonds need call dates on coupon dates', () => {
    const gsec = createGovernmentSecurity({ issueDate: d('2020-01-15'), maturityDate: d('2030-01-15'), couponRate: 0.07 });
    expect(() => getYieldToWorkout(gsec, settlement, cleanPrice(100), { date: d('2027-03-01'), pricePer100: 100 })).toThrow(/coupon date/);
  });
});

describe('perpetuals', () => {
  it('[OP4] a perpetual AT1 is priced to its first call; its deemed maturity is 100 years from issue', () => {
    const at1 = createPerpetualBond({
      description: 'Bank AT1 perpetual 8.7% callable 2028',
      issueDate: d('2023-09-15'),
      couponRate: 0.087,
      frequency: 1,
      faceValuePerUnit: 10_000_000,
      callSchedule: [
        { date: d('2028-09-15'), pricePer100: 100 },
        { date: d('2029-09-15'), pricePer100: 100 },
      ],
    });
    expect(at1.isPerpetual).toBe(true);
    expect(formatDate(at1.maturityDate)).toBe('2123-09-15');
    const ytc = getYieldToCall(at1, settlement, cleanPrice(101.5));
    const price = getPriceToWorkout(at1, settlement, ytc.yield, { date: d('2028-09-15'), pricePer100: 100 });
    expect(price.cleanPrice.per100).toBeCloseTo(101.5, 9);
    expect(getYieldToWorst(at1, settlement, cleanPrice(101.5)).yield.rate).toBeLessThanOrEqual(ytc.yield.rate + 1e-15);
  });
});

describe('floating-rate G-secs', () => {
  it('[OP5] an FRB with a known next coupon prices like a fixed bond with that coupon, later ones as assumed', () => {
    // FRB 2031 (IN0020200294): 7.69 % for 7-Dec-2022 → 6-Jun-2023 per RBI [S26]; coupons 7 Jun / 7 Dec.
    const frb = createFloatingRateGovernmentBond({
      identifier: 'IN0020200294',
      description: 'GOI FRB 2031',
      issueDate: d('2020-12-07'),
      maturityDate: d('2031-12-07'),
      knownCoupons: [{ dueDate: d('2023-06-07'), couponRate: 0.0769 }],
    });
    expect(frb.kind).toBe('floating-rate-bond');
    const fixed = createGovernmentSecurity({ issueDate: d('2020-12-07'), maturityDate: d('2031-12-07'), couponRate: 0.0769 });
    const s = d('2023-01-20');
    const y = makeYield(0.075, 'semi-annual');
    expect(getCleanPriceFromYield(frb, s, y).per100).toBeCloseTo(getCleanPriceFromYield(fixed, s, y).per100, 12);
    const assumed = createFloatingRateGovernmentBond({
      issueDate: d('2020-12-07'),
      maturityDate: d('2031-12-07'),
      knownCoupons: [{ dueDate: d('2023-06-07'), couponRate: 0.0769 }],
      assumedCouponRate: 0.07,
    });
    expect(assumed.periods.find((p) => formatDate(p.dueDate) === '2023-06-07')?.couponRate).toBe(0.0769);
    expect(assumed.periods.find((p) => formatDate(p.dueDate) === '2023-12-07')?.couponRate).toBe(0.07);
    expect(getCleanPriceFromYield(assumed, s, y).per100).toBeLessThan(getCleanPriceFromYield(frb, s, y).per100);
  });
});
