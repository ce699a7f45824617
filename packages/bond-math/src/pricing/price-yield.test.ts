/**
 * Instrument-by-instrument behaviour of accrued interest and price ↔ yield, checked
 * against the conventions doc's formulas written out independently in the tests.
 */
import { describe, expect, it } from 'vitest';
import { addDays, formatDate, parseDate as d } from '../time/calendar-date';
import { getThirtyE360Days } from '../day-count/thirty-e-360';
import { createGovernmentSecurity } from '../instruments/government-security';
import { createCorporateBond } from '../instruments/corporate-bond';
import { createDiscountInstrument } from '../instruments/discount-instrument';
import { createZeroCouponBond } from '../instruments/zero-coupon-bond';
import { createFixedCouponBond } from '../instruments/fixed-coupon-bond';
import { ICMA_STREET } from '../conventions/market-conventions';
import {
  getAccruedInterest,
  getCleanPriceFromYield,
  getDirtyPriceFromYield,
  getPriceFromYield,
  getYieldFromPrice,
  toCleanPrice,
  toDirtyPrice,
} from './price-yield';
import { getRiskMeasures } from './risk';
import { cleanPrice, dirtyPrice, makeYield, convertYield } from './quote';
import { getCashflowSchedule } from '../cashflows/cashflow-schedule';
import { assertSettlementAllowed, getBondSettlementDate, isInShutPeriod } from './settlement-checks';
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

// 7.18% GS 2033, ISIN IN0020230085: coupons 14 Feb / 14 Aug (RBI issue 14-Aug-2023).
const gs2033 = createGovernmentSecurity({
  identifier: 'IN0020230085',
  description: '7.18% GS 2033',
  issueDate: d('2023-08-14'),
  maturityDate: d('2033-08-14'),
  couponRate: 0.0718,
});

/** Doc §6 G-sec formula, written out term by term (no Horner), as an independent reference. */
function referenceGsecClean(coupon: number, last: string, settlement: string, remaining: number, y: number, simpleLast: boolean): number {
  const A = getThirtyE360Days(d(last), d(settlement));
  const E = 180;
  const w = (E - A) / E;
  const C = (100 * coupon) / 2;
  const accrued = (C * A) / E;
  if (remaining === 1 && simpleLast) return (100 + C) / (1 + (w * y) / 2) - accrued;
  let dirty = 0;
  for (let k = 1; k <= remaining; k++) dirty += C / Math.pow(1 + y / 2, k - 1 + w);
  dirty += 100 / Math.pow(1 + y / 2, remaining - 1 + w);
  return dirty - accrued;
}

describe('G-sec / SDL street convention', () => {
  it('[PY1][AI2] 7.18% GS 2033 on 21-Aug-2025 matches the doc §6 formula to 1e-10', () => {
    const settlement = d('2025-08-21');
    const price = getCleanPriceFromYield(gs2033, settlement, makeYield(0.0652, 'semi-annual'));
    expect(price.kind).toBe('clean');
    expect(price.per100).toBeCloseTo(referenceGsecClean(0.0718, '2025-08-14', '2025-08-21', 16, 0.0652, true), 10);
    const accrued = getAccruedInterest(gs2033, settlement);
    expect(accrued.accruedDays).toBe(7);
    expect(accrued.per100).toBeCloseTo((7.18 * 7) / 360, 12);
  });

  it('[PY2] the last period is simple interest (Excel PRICE) by default and compounded on request', () => {
    const simple = createGovernmentSecurity({ issueDate: d('2015-06-08'), maturityDate: d('2025-06-08'), couponRate: 0.0649 });
    const compounded = createGovernmentSecurity({
      issueDate: d('2015-06-08'),
      maturityDate: d('2025-06-08'),
      couponRate: 0.0649,
      lastPeriod: 'compounded',
    });
    const settlement = d('2025-01-20');
    const y = makeYield(0.068, 'semi-annual');
    const priceSimple = getCleanPriceFromYield(simple, settlement, y).per100;
    const priceCompounded = getCleanPriceFromYield(compounded, settlement, y).per100;
    expect(priceSimple).toBeCloseTo(referenceGsecClean(0.0649, '2024-12-08', '2025-01-20', 1, 0.068, true), 12);
    expect(priceCompounded).toBeCloseTo(referenceGsecClean(0.0649, '2024-12-08', '2025-01-20', 1, 0.068, false), 12);
    // Doc §2: the two differ by about 0.01 per ₹100 at most.
    expect(Math.abs(priceSimple - priceCompounded)).toBeGreaterThan(0);
    expect(Math.abs(priceSimple - priceCompounded)).toBeLessThan(0.02);
    // Both round-trip through their own yield solver.
    expect(getYieldFromPrice(simple, settlement, cleanPrice(priceSimple)).rate).toBeCloseTo(0.068, 12);
    expect(getYieldFromPrice(compounded, settlement, cleanPrice(priceCompounded)).rate).toBeCloseTo(0.068, 12);
  });

  it('[DT6] no settlement on the shut day before a coupon date', () => {
    expect(isInShutPeriod(gs2033, d('2026-02-13'))).toBe(true);
    expect(isInShutPeriod(gs2033, d('2026-02-12'))).toBe(false);
    expect(isInShutPeriod(gs2033, d('2026-02-14'))).toBe(false);
    expect(() => assertSettlementAllowed(gs2033, d('2026-02-13'))).toThrow(/shut period/);
    expect(formatDate(getBondSettlementDate(gs2033, d('2025-08-14')))).toBe('2025-08-18');
  });

  it('[SC4] coupons on a holiday are paid the next working day, maturity on a holiday the previous one; accrual stays unadjusted', () => {
    // 14-Feb-2026 is a Saturday; maturity 14-Aug-2033 is a Sunday.
    const period = gs2033.periods.find((p) => formatDate(p.dueDate) === '2026-02-14');
    expect(formatDate(period?.paymentDate as never)).toBe('2026-02-16');
    const last = gs2033.periods[gs2033.periods.length - 1];
    expect(formatDate(last?.paymentDate as never)).toBe('2033-08-12');
    expect(formatDate(last?.dueDate as never)).toBe('2033-08-14');
  });

  it('[AI1] accrued interest is zero on a coupon date and the coupon of that day belongs to the seller', () => {
    const onCoupon = getAccruedInterest(gs2033, d('2025-08-14'));
    expect(onCoupon.per100).toBe(0);
    expect(formatDate(onCoupon.nextDueDate)).toBe('2026-02-14');
    const flows = getCashflowSchedule(gs2033, d('2025-08-14'), 1);
    expect(formatDate(flows[0]?.dueDate as never)).toBe('2026-02-14');
    expect(getAccruedInterest(gs2033, d('2025-08-13')).per100).toBeCloseTo((7.18 * 179) / 360, 12);
  });
});

describe('SEBI corporate bonds (XIRR)', () => {
  it('[PY3][AI3] price equals Σ CF/(1+y)^((d − s)/365) on due dates, clean = dirty − AI', () => {
    const ncd = createCorporateBond({
      identifier: 'INE094A08176',
      description: 'HPCL 6.73% NCD 29-Apr-2030',
      issueDate: d('2020-04-29'),
      maturityDate: d('2030-04-29'),
      couponRate: 0.0673,
      frequency: 1,
      faceValuePerUnit: 100_000,
    });
    const settlement = d('2025-08-21');
    const y = 0.067;
    let reference = 0;
    for (const period of ncd.periods) {
      if (period.dueDate <= settlement) continue;
      const flow = period.interestPer100 + period.principalPer100;
      reference += flow / Math.pow(1 + y, (period.dueDate - settlement) / 365);
    }
    const result = getPriceFromYield(ncd, settlement, makeYield(y, 'annual'));
    expect(result.dirtyPrice.per100).toBeCloseTo(reference, 10);
    // Coupon to 29-Apr-2026: 365-day year (no 29 Feb in (29-Apr-2025, 29-Apr-2026]).
    expect(result.accruedInterestPer100).toBeCloseTo((6.73 * 114) / 365, 12);
    expect(result.cleanPrice.per100 + result.accruedInterestPer100).toBeCloseTo(result.dirtyPrice.per100, 12);
    // Coupons in leap windows are c × 366/366: period ending 29-Apr-2028.
    const leapPeriod = ncd.periods.find((p) => formatDate(p.dueDate) === '2028-04-29');
    expect(leapPeriod?.interestPer100).toBeCloseTo(6.73, 12);
  });

  it('[PY3] reproduces NSE-reported last-trade yields (real trades, Aug 2025, settlement T+1 = 21-Aug-2025 assumed)', () => {
    // Source: reference-data/trades/nse_corporate_bond_trades_one_day_2025-08.csv.gz (NSE reported OTC trades).
    // Frequency from the doc §4.3a finding (annual for these issues, monthly for the NBFC one).
    // Tolerance: 1e-4 % (yields are published to 2–4 decimals of a percent).
    const cases: [string, number, string, 1 | 12, number, number][] = [
      ['INE094A08176', 0.0673, '2030-04-29', 1, 100.0553, 6.7],
      ['INE040A08914', 0.0797, '2033-02-17', 1, 103.9557, 7.25],
      ['INE020B08DV3', 0.0692, '2032-03-20', 1, 98.7683, 7.1439],
      ['INE148I07XG8', 0.0865, '2027-08-01', 12, 100, 9.0009],
    ];
    for (const [isin, coupon, maturity, frequency, price, published] of cases) {
      const bond = createCorporateBond({
        identifier: isin,
        issueDate: d('2020-01-01'),
        maturityDate: d(maturity),
        couponRate: coupon,
        frequency,
        faceValuePerUnit: 100_000,
      });
      const rate = getYieldFromPrice(bond, d('2025-08-21'), cleanPrice(price)).rate * 100;
      const decimals = String(published).split('.')[1]?.length ?? 0;
      expect(Math.abs(rate - published), isin).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-4);
    }
  });

  it('[PY3] one flow left is discounted with simple interest (doc §4.3a)', () => {
    const ncd = createCorporateBond({ issueDate: d('2022-09-29'), maturityDate: d('2025-09-29'), couponRate: 0.0643, frequency: 1 });
    const settlement = d('2025-08-21');
    const dirty = getDirtyPriceFromYield(ncd, settlement, makeYield(0.063, 'annual')).per100;
    expect(dirty).toBeCloseTo((100 + 6.43) / (1 + (0.063 * 39) / 365), 12);
  });

  it('[AI4] after the record date the trade is ex-interest: negative accrued interest and no next coupon', () => {
    const ncd = createCorporateBond({
      issueDate: d('2024-01-10'),
      maturityDate: d('2029-01-10'),
      couponRate: 0.09,
      frequency: 12,
      faceValuePerUnit: 1000,
      recordDateDaysBeforeDue: 15,
    });
    const cum = getAccruedInterest(ncd, d('2025-08-26'));
    expect(cum.exInterest).toBe(false);
    const ex = getAccruedInterest(ncd, d('2025-08-27'));
    expect(ex.exInterest).toBe(true);
    // −c × (N − s)/365: 14 days to 10-Sep-2025.
    expect(ex.per100).toBeCloseTo((-9 * 14) / 365, 12);
    const flows = getCashflowSchedule(ncd, d('2025-08-27'), 10);
    expect(flows[0]?.interestPaise).toBe(0);
    const y = makeYield(0.095, 'annual');
    const p = getPriceFromYield(ncd, d('2025-08-27'), y);
    expect(p.cleanPrice.per100 + p.accruedInterestPer100).toBeCloseTo(p.dirtyPrice.per100, 12);
    expect(getYieldFromPrice(ncd, d('2025-08-27'), p.cleanPrice).rate).toBeCloseTo(0.095, 11);
  });

  it('[SC5][AI5][PY9] amortising NCD: interest on outstanding, prices per ₹100 of outstanding face', () => {
    const amortising = createCorporateBond({
      description: 'amortising NCD: 25 % repaid each year from year 2',
      issueDate: d('2023-06-15'),
      maturityDate: d('2028-06-15'),
      couponRate: 0.085,
      frequency: 1,
      faceValuePerUnit: 100_000,
      principalRepayments: [
        { date: d('2025-06-15'), principalPer100: 25 },
        { date: d('2026-06-15'), principalPer100: 25 },
        { date: d('2027-06-15'), principalPer100: 25 },
      ],
    });
    const settlement = d('2025-12-15');
    const period = amortising.periods[2];
    expect(period?.outstandingPer100).toBe(75);
    expect(period?.interestPer100).toBeCloseTo((75 * 0.085 * 365) / 365, 12);
    const accrued = getAccruedInterest(amortising, settlement);
    // Per ₹100 of OUTSTANDING face.
    expect(accrued.per100).toBeCloseTo((8.5 * 183) / 365, 12);
    // Price per 100 OUTSTANDING = PV of the remaining flows per 100 original × 100/75.
    const y = 0.085;
    let pv = 0;
    for (const p of amortising.periods) {
      if (p.dueDate <= settlement) continue;
      pv += (p.interestPer100 + p.principalPer100) / Math.pow(1 + y, (p.dueDate - settlement) / 365);
    }
    const dirty = getDirtyPriceFromYield(amortising, settlement, makeYield(y, 'annual')).per100;
    expect(dirty).toBeCloseTo((pv * 100) / 75, 10);
    expect(dirty).toBeGreaterThan(99);
    expect(dirty).toBeLessThan(106);
    const flows = getCashflowSchedule(amortising, settlement, 2);
    expect(flows.map((row) => row.principalPaise)).toEqual([5_000_000, 5_000_000, 5_000_000]);
    expect(flows[0]?.interestPaise).toBe(1_275_000);
  });

  it('[SC5] step-up coupons from a term sheet equal the same coupons given as steps', () => {
    const fromSteps = createCorporateBond({
      issueDate: d('2024-03-01'),
      maturityDate: d('2027-03-01'),
      couponRate: 0.08,
      frequency: 1,
      faceValuePerUnit: 1000,
      couponSteps: [
        { fromDate: d('2025-03-01'), couponRate: 0.085 },
        { fromDate: d('2026-03-01'), couponRate: 0.09 },
      ],
    });
    const fromTermSheet = createCorporateBond({
      issueDate: d('2024-03-01'),
      frequency: 1,
      faceValuePerUnit: 1000,
      cashflows: [
        { dueDate: d('2025-03-01'), couponRate: 0.08 },
        { dueDate: d('2026-03-01'), couponRate: 0.085 },
        { dueDate: d('2027-03-01'), couponRate: 0.09, principalPerUnit: 1000 },
      ],
    });
    expect(fromTermSheet.periods.map((p) => p.interestPer100)).toEqual(fromSteps.periods.map((p) => p.interestPer100));
    expect(fromSteps.periods.map((p) => Number(p.interestPer100.toFixed(10)))).toEqual([8, 8.5, 9]);
    const settlement = d('2025-09-10');
    const y = makeYield(0.088, 'annual');
    expect(getCleanPriceFromYield(fromTermSheet, settlement, y).per100).toBeCloseTo(
      getCleanPriceFromYield(fromSteps, settlement, y).per100,
      12,
    );
  });

  it('[SC5] a term sheet with printed interest amounts and a partial redemption', () => {
    const bond = createCorporateBond({
      issueDate: d('2024-04-01'),
      frequency: 1,
      faceValuePerUnit: 1000,
      cashflows: [
        { dueDate: d('2025-04-01'), interestPerUnit: 90, principalPerUnit: 500 },
        { dueDate: d('2026-04-01'), interestPerUnit: 45, principalPerUnit: 500, premiumPerUnit: 10 },
      ],
    });
    expect(bond.periods.map((p) => p.interestPer100)).toEqual([9, 4.5]);
    expect(bond.periods[1]?.outstandingPer100).toBe(50);
    expect(bond.columns.amounts[1]).toBeCloseTo(4.5 + 50 + 1, 12);
    expect(() =>
      createCorporateBond({ issueDate: d('2024-04-01'), frequency: 1, cashflows: [{ dueDate: d('2025-04-01'), principalPerUnit: 50 }] }),
    ).toThrow(/sums to 50/);
  });

  it('[PY3] zero-coupon and cumulative bonds: one redemption flow, no accrued interest', () => {
    const cumulative = createZeroCouponBond({ issueDate: d('2023-01-01'), maturityDate: d('2028-01-01'), redemptionPer100: 146.93 });
    const settlement = d('2025-01-01');
    expect(getAccruedInterest(cumulative, settlement).per100).toBe(0);
    const price = getCleanPriceFromYield(cumulative, settlement, makeYield(0.08, 'annual')).per100;
    expect(price).toBeCloseTo(146.93 / Math.pow(1.08, (d('2028-01-01') - settlement) / 365), 10);
    // Within a year of redemption the single flow is discounted with simple interest (doc §4.3).
    const late = d('2027-03-01');
    const latePrice = getCleanPriceFromYield(cumulative, late, makeYield(0.08, 'annual')).per100;
    expect(latePrice).toBeCloseTo(146.93 / (1 + (0.08 * (d('2028-01-01') - late)) / 365), 10);
  });
});

describe('money-market instruments', () => {
  it('[PY4] a CP prices like a T-bill but is not a government security', () => {
    const cp = createDiscountInstrument({
      kind: 'commercial-paper',
      issueDate: d('2025-06-01'),
      maturityDate: d('2025-11-28'),
      faceValuePerUnit: 500_000,
    });
    const settlement = d('2025-08-21');
    const price = getCleanPriceFromYield(cp, settlement, makeYield(0.0725, 'simple')).per100;
    expect(price).toBeCloseTo(100 / (1 + (0.0725 * 99) / 365), 12);
    expect(cp.convention.isGovernmentSecurity).toBe(false);
  });
});

describe('general fixed-coupon bonds', () => {
  it('[PY1] quarterly ACT/ACT ICMA street bond with a short first coupon round-trips', () => {
    const bond = createFixedCouponBond({
      issueDate: d('2024-02-10'),
      maturityDate: d('2034-06-15'),
      couponRate: 0.05,
      frequency: 4,
      convention: ICMA_STREET,
    });
    expect(bond.periods[0]?.isRegular).toBe(false);
    expect(bond.periods[0]?.interestPer100).toBeCloseTo(
      5 * ((d('2024-03-15') - d('2024-02-10')) / (4 * (d('2024-03-15') - d('2023-12-15')))),
      12,
    );
    const settlement = d('2024-02-20');
    const p = getCleanPriceFromYield(bond, settlement, makeYield(0.046, 'quarterly'));
    expect(getYieldFromPrice(bond, settlement, p).rate).toBeCloseTo(0.046, 12);
  });
});

describe('quotes and errors', () => {
  it('[PY5] clean ↔ dirty through accrued interest', () => {
    const s = d('2025-10-01');
    const dirty = toDirtyPrice(gs2033, s, cleanPrice(101.25));
    expect(dirty.kind).toBe('dirty');
    expect(dirty.per100 - 101.25).toBeCloseTo(getAccruedInterest(gs2033, s).per100, 14);
    expect(toCleanPrice(gs2033, s, dirty).per100).toBeCloseTo(101.25, 12);
    expect(getYieldFromPrice(gs2033, s, dirty).rate).toBeCloseTo(getYieldFromPrice(gs2033, s, cleanPrice(101.25)).rate, 14);
  });

  it('[PY6] no yield exists for a non-positive dirty price: typed error naming the price', () => {
    expect(catchBondMathError(() => getYieldFromPrice(gs2033, d('2025-10-01'), dirtyPrice(0)))).toMatchObject({
      code: 'NO_YIELD_EXISTS',
      field: 'price',
    });
    expect(() => getYieldFromPrice(gs2033, d('2025-10-01'), cleanPrice(-5))).toThrow(/no yield exists/);
  });

  it('[PY6] after the final due date there are no cash flows; before issue there is no accrual start', () => {
    expect(() => getAccruedInterest(gs2033, d('2033-08-14'))).toThrow(/final due date/);
    expect(() => getAccruedInterest(gs2033, d('2023-08-01'))).toThrow(/before the issue date/);
  });

  it('[PY6] extreme prices still solve (yields near −f and very high)', () => {
    const s = d('2025-10-01');
    for (const price of [400, 150, 20, 1]) {
      const y = getYieldFromPrice(gs2033, s, cleanPrice(price));
      expect(getCleanPriceFromYield(gs2033, s, y).per100).toBeCloseTo(price, 8);
    }
  });

  it('[PY7] yields carry their compounding; compounded yields convert, simple ones do not', () => {
    const s = d('2025-10-01');
    const semi = makeYield(0.07, 'semi-annual');
    const annual = convertYield(semi, 'annual');
    expect(annual.rate).toBeCloseTo(Math.pow(1.035, 2) - 1, 15);
    expect(getCleanPriceFromYield(gs2033, s, annual).per100).toBeCloseTo(getCleanPriceFromYield(gs2033, s, semi).per100, 12);
    expect(() => getCleanPriceFromYield(gs2033, s, makeYield(0.07, 'simple'))).toThrow(/cannot convert/);
  });
});

describe('risk measures', () => {
  it('[RK1] modified duration, convexity and PV01 agree with finite differences; Macaulay = D_mod × (1 + y/2)', () => {
    const s = d('2025-10-01');
    const y = 0.0665;
    const risk = getRiskMeasures(gs2033, s, makeYield(y, 'semi-annual'));
    const h = 1e-5;
    const price = (rate: number) => getDirtyPriceFromYield(gs2033, s, makeYield(rate, 'semi-annual')).per100;
    const p0 = price(y);
    const up = price(y + h);
    const down = price(y - h);
    expect(risk.dirtyPrice.per100).toBeCloseTo(p0, 12);
    expect(risk.modifiedDuration).toBeCloseTo(-(up - down) / (2 * h) / p0, 6);
    expect(risk.convexity).toBeCloseTo((up - 2 * p0 + down) / (h * h) / p0, 3);
    expect(risk.pv01Per100).toBeCloseTo(((down - up) / (2 * h)) * 1e-4, 9);
    expect(risk.macaulayDurationYears).toBeCloseTo(risk.modifiedDuration * (1 + y / 2), 12);
  });

  it('[RK1] a T-bill has Macaulay duration = days/365 and modified = t/(1 + y·t)', () => {
    const bill = createDiscountInstrument({ issueDate: d('2025-08-21'), maturityDate: addDays(d('2025-08-21'), 182) });
    const risk = getRiskMeasures(bill, d('2025-08-21'), makeYield(0.055, 'simple'));
    const t = 182 / 365;
    expect(risk.macaulayDurationYears).toBeCloseTo(t, 14);
    expect(risk.modifiedDuration).toBeCloseTo(t / (1 + 0.055 * t), 14);
  });
});
