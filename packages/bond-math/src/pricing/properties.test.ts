/**
 * Property tests (fast-check) over thousands of generated bonds of every kind.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CalendarDate } from '../time/calendar-date';
import { addDays, addYears, formatDate, makeDate } from '../time/calendar-date';
import type { Bond, CouponPeriod } from '../instruments/bond';
import { createGovernmentSecurity } from '../instruments/government-security';
import { createCorporateBond } from '../instruments/corporate-bond';
import { createDiscountInstrument } from '../instruments/discount-instrument';
import { createFixedCouponBond } from '../instruments/fixed-coupon-bond';
import { ICMA_STREET } from '../conventions/market-conventions';
import { getAccruedInterest, getPriceFromYield, getYieldFromPrice, getDirtyPriceFromYield } from './price-yield';
import { getYieldToWorst } from './embedded-options';
import { makeYield } from './quote';
import type { Yield } from './quote';

const RUNS = 2000;

const dateArbitrary = fc.integer({ min: makeDate(2000, 1, 1), max: makeDate(2040, 12, 31) }).map((n) => n as CalendarDate);
const couponArbitrary = fc.integer({ min: 0, max: 1500 }).map((bp) => bp / 10_000);
const yieldArbitrary = fc.double({ min: -0.005, max: 0.3, noNaN: true });
const frequencyArbitrary = fc.constantFrom(1 as const, 2 as const, 4 as const, 12 as const);

interface Case {
  readonly bond: Bond;
  readonly settlement: CalendarDate;
  readonly label: string;
}

/** A bond of any kind plus a settlement date strictly inside its life. */
const caseArbitrary: fc.Arbitrary<Case> = fc
  .record({
    kind: fc.constantFrom('gsec', 'gsec-compounded', 'corporate', 'corporate-ex', 'icma', 'tbill'),
    issue: dateArbitrary,
    years: fc.integer({ min: 1, max: 40 }),
    extraDays: fc.integer({ min: 0, max: 364 }),
    coupon: couponArbitrary,
    frequency: frequencyArbitrary,
    position: fc.double({ min: 0, max: 0.999999, noNaN: true }),
  })
  .map(({ kind, issue, years, extraDays, coupon, frequency, position }) => {
    const maturity = addDays(addYears(issue, years), extraDays);
    let bond: Bond;
    switch (kind) {
      case 'gsec':
      case 'gsec-compounded':
        bond = createGovernmentSecurity({
          issueDate: issue,
          maturityDate: maturity,
          couponRate: coupon,
          lastPeriod: kind === 'gsec' ? 'simple' : 'compounded',
        });
        break;
      case 'corporate':
      case 'corporate-ex':
        bond = createCorporateBond({
          issueDate: issue,
          maturityDate: maturity,
          couponRate: coupon,
          frequency,
          faceValuePerUnit: 100_000,
          recordDateDaysBeforeDue: kind === 'corporate-ex' ? 15 : null,
        });
        break;
      case 'icma':
        bond = createFixedCouponBond({ issueDate: issue, maturityDate: maturity, couponRate: coupon, frequency, convention: ICMA_STREET });
        break;
      default:
        bond = createDiscountInstrument({ issueDate: issue, maturityDate: addDays(issue, 1 + (extraDays % 364)) });
    }
    const life = bond.maturityDate - bond.issueDate;
    const settlement = addDays(bond.issueDate, Math.min(life - 1, Math.floor(position * life)));
    return {
      bond,
      settlement,
      label: `${kind} ${formatDate(bond.issueDate)}→${formatDate(bond.maturityDate)} c=${coupon} f=${bond.frequency} s=${formatDate(settlement)}`,
    };
  });

function native(bond: Bond, rate: number): Yield {
  return makeYield(rate, bond.yieldCompounding);
}

describe('price ↔ yield properties', () => {
  it('[PY6] yield(price(y)) = y within 1e-10 and price(yield(p)) = p within 1e-8 per 100', () => {
    fc.assert(
      fc.property(caseArbitrary, yieldArbitrary, ({ bond, settlement }, rate) => {
        const price = getPriceFromYield(bond, settlement, native(bond, rate));
        fc.pre(price.dirtyPrice.per100 > 0); // ex-interest with nothing left to receive
        const solved = getYieldFromPrice(bond, settlement, price.cleanPrice);
        expect(Math.abs(solved.rate - rate)).toBeLessThan(1e-10);
        const repriced = getPriceFromYield(bond, settlement, solved);
        expect(Math.abs(repriced.cleanPrice.per100 - price.cleanPrice.per100)).toBeLessThan(1e-8);
      }),
      { numRuns: RUNS },
    );
  });

  it('[PY5] clean + accrued = dirty', () => {
    fc.assert(
      fc.property(caseArbitrary, yieldArbitrary, ({ bond, settlement }, rate) => {
        const price = getPriceFromYield(bond, settlement, native(bond, rate));
        expect(Math.abs(price.cleanPrice.per100 + price.accruedInterestPer100 - price.dirtyPrice.per100)).toBeLessThan(1e-12);
        expect(price.accruedInterestPer100).toBe(getAccruedInterest(bond, settlement).per100);
      }),
      { numRuns: RUNS },
    );
  });

  it('[PY8] price is strictly decreasing in yield', () => {
    fc.assert(
      fc.property(caseArbitrary, yieldArbitrary, fc.double({ min: 1e-6, max: 0.05, noNaN: true }), ({ bond, settlement }, rate, step) => {
        const low = getDirtyPriceFromYield(bond, settlement, native(bond, rate)).per100;
        const high = getDirtyPriceFromYield(bond, settlement, native(bond, rate + step)).per100;
        fc.pre(low > 0); // ex-interest with nothing left to receive has no price to compare
        expect(high).toBeLessThan(low);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('accrued interest properties', () => {
  it('[AI1] accrued interest is zero on every coupon due date before maturity', () => {
    fc.assert(
      fc.property(caseArbitrary, fc.nat(), ({ bond }, pick) => {
        fc.pre(bond.periods.length >= 2);
        const period = bond.periods[pick % (bond.periods.length - 1)] as CouponPeriod;
        const accrued = getAccruedInterest(bond, period.dueDate);
        expect(accrued.per100).toBe(0);
        expect(accrued.accruedDays).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('[AI1] accrued interest never exceeds the coupon of its period and is never negative without a record date', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ bond, settlement }) => {
        const accrued = getAccruedInterest(bond, settlement);
        expect(accrued.per100 >= 0 || bond.convention.recordDateDaysBeforeDue !== null).toBe(true);
        const period = bond.periods.find((p) => p.dueDate > settlement) as CouponPeriod;
        // 30E/360 has no February rule (RBI FAQ, doc §2), so 28 Feb → 30 Aug counts 182 days
        // against a fixed c/2 coupon: accrued can pass the coupon by at most two days' accrual.
        expect(accrued.per100).toBeLessThanOrEqual(period.interestPer100 + (2 * 100 * period.couponRate) / 360 + 1e-12);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('callable bond properties', () => {
  it('[OP2] yield to worst ≤ yield to maturity for callable bonds', () => {
    fc.assert(
      fc.property(
        dateArbitrary,
        fc.integer({ min: 3, max: 30 }),
        couponArbitrary,
        frequencyArbitrary,
        fc.double({ min: 60, max: 140, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        (issue, years, coupon, frequency, price, calls) => {
          const maturity = addYears(issue, years);
          const callSchedule = Array.from({ length: Math.min(calls, years - 1) }, (_, i) => ({
            date: addYears(maturity, -(i + 1)),
            pricePer100: 100 + i * 0.5,
          }));
          const bond = createCorporateBond({ issueDate: issue, maturityDate: maturity, couponRate: coupon, frequency, callSchedule });
          const settlement = addDays(issue, 30);
          const quote = { kind: 'clean' as const, per100: price };
          const ytw = getYieldToWorst(bond, settlement, quote);
          const ytm = getYieldFromPrice(bond, settlement, quote);
          expect(ytw.yield.rate).toBeLessThanOrEqual(ytm.rate);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
