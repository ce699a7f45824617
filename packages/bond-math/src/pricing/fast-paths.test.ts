/**
 * The speed paths of issue 17 §2 (SPEC SP1–SP4) give the same numbers as the straightforward
 * code they replace: date tables vs the civil-from-days formula, the direct day-count dispatch
 * vs each convention's object, lazily made coupon periods vs eagerly built ones, and the
 * shared-step discounting vs one `exp` per flow.
 */
import { describe, expect, it } from 'vitest';
import type { CalendarDate } from '../time/calendar-date';
import {
  addDays,
  addMonths,
  addYears,
  getDaysInMonth,
  makeDate,
  parseDate,
  toPackedYmd,
  toPackedYmdReference,
} from '../time/calendar-date';
import type { ScheduleDates, ScheduleSpec } from '../time/schedule';
import { createScheduleDateFields, generateScheduleDates } from '../time/schedule';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import type { CouponFrequency, DayCountName } from '../day-count/day-count';
import { DAY_COUNT_NAMES, getDayCount } from '../day-count/registry';
import { containsLeapDay, getSebiDenominator } from '../day-count/actual-365-366-sebi';
import { fillRegularPeriodYearFractions, getYearFractionInPeriod } from '../day-count/year-fraction';
import type { BondConvention } from '../conventions/market-conventions';
import { ICMA_STREET, SEBI_CORPORATE_BOND } from '../conventions/market-conventions';
import { buildCouponPeriods, computeCouponColumns } from '../cashflows/coupon-periods';
import type { Bond } from '../instruments/bond';
import { createFixedCouponBond } from '../instruments/fixed-coupon-bond';
import { getBondPeriod } from '../instruments/bond-periods';
import { createCorporateBond } from '../instruments/corporate-bond';
import { getCleanPriceFromYield } from './price-yield';
import type { PricingSetup } from './pricing-setup';
import { createPricingSetup } from './pricing-setup';
import { createExponentialFlows, evaluateExponentialFlows, exponentialSlopeOut } from './exponential-flows';
import { getCompoundingForFrequency } from './quote';

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

function quantLibConvention(dayCount: DayCountName): BondConvention {
  return { ...ICMA_STREET, name: 'QL', accrualDayCount: dayCount, yieldMethod: 'quantlib', couponAmount: 'day-count', endOfMonth: false };
}

describe('date tables', () => {
  it('[SP1] the packed year-month-day from the tables equals the civil-from-days formula on every day 1795–2405', () => {
    let mismatches = 0;
    for (let day = makeDate(1800, 1, 1) - 2000; day <= makeDate(2400, 12, 31) + 2000; day++) {
      if (toPackedYmd(day as CalendarDate) !== toPackedYmdReference(day as CalendarDate)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('[SP1][DC7] the SEBI window without the loop equals containsLeapDay(due − 1 year, due] on every due date 1801–2399', () => {
    let mismatches = 0;
    for (let day = makeDate(1801, 1, 1); day <= makeDate(2399, 12, 31); day++) {
      const due = day as CalendarDate;
      const expected = containsLeapDay(addYears(due, -1), due) ? 366 : 365;
      if (getSebiDenominator(due, due) !== expected) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('day-count dispatch', () => {
  it('[SP1] getYearFractionInPeriod equals every day count object bit for bit, across month ends and leap days', () => {
    const random = createRandom(17);
    for (const name of DAY_COUNT_NAMES) {
      for (const dayCount of [getDayCount(name), getDayCount(name, 'period-contains-29-feb')]) {
        for (let i = 0; i < 2000; i++) {
          const frequency = FREQUENCIES[i % 4] as CouponFrequency;
          const referenceEnd = addDays(parseDate('2019-01-28'), Math.floor(random() * 3000));
          const referenceStart = addDays(referenceEnd, -Math.floor(365 / frequency));
          const start = addDays(referenceStart, Math.floor(random() * 40) - 10);
          const end = addDays(start, Math.floor(random() * 400));
          const context = { referenceStart, referenceEnd, frequency };
          expect(
            Object.is(
              getYearFractionInPeriod(dayCount, start, end, referenceStart, referenceEnd, frequency),
              dayCount.getYearFraction(start, end, context),
            ),
          ).toBe(true);
        }
      }
    }
  });
});

describe('lazily made coupon periods', () => {
  it('[SP2] a generated bond makes the same periods the eager builder makes, with steps, amortisation and a record date', () => {
    const convention: BondConvention = { ...SEBI_CORPORATE_BOND, recordDateDaysBeforeDue: 15 };
    const spec = {
      issueDate: parseDate('2021-03-13'),
      maturityDate: parseDate('2031-03-31'),
      couponRate: 0.0825,
      frequency: 4 as const,
      convention,
      couponSteps: [{ fromDate: parseDate('2025-03-31'), couponRate: 0.09 }],
      principalRepayments: [{ date: parseDate('2029-03-31'), principalPer100: 40 }],
      redemptionPer100: 101,
    };
    const bond = createFixedCouponBond(spec);
    const schedule = generateScheduleDates({ ...spec, endOfMonth: convention.endOfMonth });
    const eager = buildCouponPeriods({
      ...spec,
      schedule,
      dayCount: getDayCount(convention.accrualDayCount),
      calendar: INDIA_SETTLEMENT_CALENDAR,
    });
    const singles = eager.map((_, index) => getBondPeriod(bond, index));
    expect(singles).toEqual(eager);
    expect(bond.periods).toEqual(eager);
    expect(bond.periods).toBe(bond.periods);
    expect(getBondPeriod(bond, 3)).toBe(bond.periods[3]);
    expect({ ...bond }.periods).toEqual(eager);
    expect(JSON.parse(JSON.stringify(bond.periods))).toEqual(eager);
  });

  it('[SP2] pricing before and after the periods are made gives the same price', () => {
    const settlement = parseDate('2025-08-21');
    const first = createFixedCouponBond({
      issueDate: parseDate('2020-02-29'),
      maturityDate: parseDate('2044-08-31'),
      couponRate: 0.071,
      frequency: 12,
      convention: quantLibConvention('ACT/ACT-ICMA'),
    });
    const before = getCleanPriceFromYield(first, settlement, { rate: 0.068, compounding: 'monthly' }).per100;
    expect(first.periods.length).toBeGreaterThan(200);
    first.columns.settlementMemo = null;
    expect(getCleanPriceFromYield(first, settlement, { rate: 0.068, compounding: 'monthly' }).per100).toBe(before);
  });
});

describe('shared-step discounting', () => {
  it('[SP3] equals one exp per flow within 1e-13 relative (price and slope) on generated quantlib and XIRR bonds of up to 500 flows', () => {
    const random = createRandom(2025);
    const settlement = parseDate('2025-08-21');
    let checked = 0;
    let worstValue = 0;
    let worstSlope = 0;
    for (let i = 0; i < 700; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const dayCount = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const maturityDate = addDays(settlement, 30 + Math.floor(random() * 15000));
      const issueDate = addDays(settlement, -1 - Math.floor(random() * 3000));
      const couponRate = Math.round(random() * 1500) / 10_000;
      const bond =
        i % 2 === 0
          ? createFixedCouponBond({ issueDate, maturityDate, couponRate, frequency, convention: quantLibConvention(dayCount) })
          : createCorporateBond({ issueDate, maturityDate, couponRate, frequency });
      const flows = createPricingSetup(bond, settlement).exponentialFlows;
      if (flows === null) continue; // an XIRR bond with one flow within a year: simple interest
      const rate = -0.02 + random() * 0.3;
      const logGrowth = Math.log1p(rate / flows.periodsPerYear);
      let value = 0;
      let weighted = 0;
      for (let k = 0; k < flows.amounts.length; k++) {
        const pv = (flows.amounts[k] as number) * Math.exp(-(flows.exponents[k] as number) * logGrowth);
        value += pv;
        weighted += (flows.exponents[k] as number) * pv;
      }
      const slope = -weighted / (flows.periodsPerYear + rate);
      worstValue = Math.max(worstValue, Math.abs(evaluateExponentialFlows(flows, rate, true) / value - 1));
      worstSlope = Math.max(worstSlope, Math.abs((exponentialSlopeOut[0] as number) / slope - 1));
      checked++;
    }
    expect(checked).toBeGreaterThan(600);
    expect(worstValue).toBeLessThan(1e-13);
    expect(worstSlope).toBeLessThan(1e-13);
  });

  it('[SP3] more than 16 distinct steps fall back to one exp per flow', () => {
    const exponents = Array.from({ length: 20 }, (_, k) => k * 1.01 + (k * k) / 1000);
    const steps = exponents.map((e, k) => (k === 0 ? e : e - (exponents[k - 1] as number)));
    const amounts = exponents.map(() => 5);
    const flows = createExponentialFlows(2, amounts, exponents, steps);
    expect(flows.steps).toHaveLength(0);
    const expected = exponents.reduce((sum, e) => sum + 5 * Math.exp(-e * Math.log1p(0.07 / 2)), 0);
    expect(evaluateExponentialFlows(flows, 0.07, false)).toBeCloseTo(expected, 12);
    expect(getCompoundingForFrequency(2)).toBe('semi-annual');
  });
});

describe('build shortcuts (issue 17 §2, round 3)', () => {
  it('[SP2] plain coupon columns equal the general builder (same rate given per period) bit for bit, every day count and coupon rule', () => {
    const random = createRandom(303);
    let mismatches = 0;
    let checked = 0;
    for (let i = 0; i < 1400; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const dayCount = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const base = i % 3 === 0 ? SEBI_CORPORATE_BOND : quantLibConvention(dayCount);
      const convention: BondConvention = {
        ...base,
        accrualDayCount: dayCount,
        couponAmount: i % 2 === 0 ? 'day-count' : 'fixed-per-period',
      };
      const issueDate = addDays(parseDate('2012-02-29'), Math.floor(random() * 4000));
      const schedule = generateScheduleDates({
        issueDate,
        maturityDate: addDays(issueDate, 20 + Math.floor(random() * 12000)),
        frequency,
        endOfMonth: i % 5 === 0,
      });
      const couponRate = i % 11 === 0 ? 0 : Math.round(random() * 1500) / 10_000;
      const spec = {
        schedule,
        couponRate,
        redemptionPer100: i % 7 === 0 ? 101.5 : undefined,
        frequency,
        dayCount: getDayCount(dayCount),
        convention,
        calendar: INDIA_SETTLEMENT_CALENDAR,
      };
      const plain = computeCouponColumns(spec);
      const general = computeCouponColumns({ ...spec, couponRatesPerPeriod: schedule.dueDates.map(() => couponRate) });
      expect(plain.couponRates).toBeNull();
      expect(general.couponRates).not.toBeNull();
      const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, k) => Object.is(value, b[k]));
      if (
        !same(plain.amounts, general.amounts) ||
        !same(plain.interest, general.interest) ||
        !same(plain.outstanding, general.outstanding) ||
        !same(plain.yearFractions, general.yearFractions) ||
        !Object.is(plain.finalPremium, general.finalPremium) ||
        plain.principal !== general.principal
      ) {
        mismatches++;
      }
      checked++;
    }
    expect(checked).toBe(1400);
    expect(mismatches).toBe(0);
  });

  it('[SP3] a setup copies the flows and maps each to its step as the per-flow list and indexOf did', () => {
    const random = createRandom(404);
    const settlement = parseDate('2025-08-21');
    for (let i = 0; i < 400; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const dayCount = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const issueDate = addDays(settlement, -1 - Math.floor(random() * 3000));
      const maturityDate = addDays(settlement, 30 + Math.floor(random() * 9000));
      const bond = createFixedCouponBond({
        issueDate,
        maturityDate,
        couponRate: 0.07,
        frequency,
        convention: quantLibConvention(dayCount),
      });
      const setup = createPricingSetup(bond, settlement);
      const flows = setup.exponentialFlows;
      if (flows === null) throw new Error('a quantlib-mode setup has exponential flows');
      const expectedAmounts: number[] = [];
      for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
        expectedAmounts.push(
          k === setup.firstIndex ? setup.firstAmount : k === setup.lastIndex ? setup.lastAmount : (bond.columns.amounts[k] as number),
        );
      }
      expect(flows.amounts).toEqual(expectedAmounts);
      if (flows.steps.length === 0) continue;
      for (let k = 1; k < flows.amounts.length; k++) {
        const step = (flows.exponents[k] as number) - (flows.exponents[k - 1] as number);
        // The step the flow points at is the one whose exponent grew by it (up to the rounding of the sum).
        expect(Math.abs((flows.steps[flows.stepOfFlow[k] as number] as number) - step)).toBeLessThan(1e-9);
        expect(flows.steps.indexOf(flows.steps[flows.stepOfFlow[k] as number] as number)).toBe(flows.stepOfFlow[k]);
      }
    }
    const stepExponents = [0, 1, 0.5, 1, 1, 0.5, 0.25, 1];
    const made = createExponentialFlows(
      4,
      stepExponents.map(() => 2),
      stepExponents,
      stepExponents,
    );
    expect(made.steps).toEqual([1, 0.5, 0.25]);
    expect(made.stepOfFlow).toEqual(stepExponents.map((step, k) => (k === 0 ? 0 : [1, 0.5, 0.25].indexOf(step))));
  });
});

/** The schedule walk SP7 replaced: due dates by addMonths from maturity, descending, then reversed. */
function generateScheduleDatesByWalk(spec: ScheduleSpec): ScheduleDates | string {
  const { issueDate, maturityDate, frequency } = spec;
  if (!(maturityDate > issueDate)) return 'maturity';
  const packed = toPackedYmd(maturityDate);
  const endOfMonth =
    spec.endOfMonth === true && packed % 100 === getDaysInMonth(Math.floor(packed / 10000), Math.floor(packed / 100) % 100);
  const stopAt = spec.firstCouponDate ?? issueDate;
  const back = (k: number) => addMonths(maturityDate, -k * (12 / frequency), endOfMonth);
  const descending: CalendarDate[] = [maturityDate];
  let candidate = back(1);
  while (candidate > stopAt) {
    descending.push(candidate);
    candidate = back(descending.length);
  }
  if (spec.firstCouponDate !== undefined) {
    if (candidate !== spec.firstCouponDate || !(spec.firstCouponDate > issueDate)) return 'firstCouponDate';
    descending.push(candidate);
    candidate = back(descending.length);
  }
  const dueDates = descending.toReversed();
  const firstIsRegular = candidate === issueDate;
  if (!firstIsRegular && spec.stub === 'long-front' && dueDates.length > 1) {
    const dropped = dueDates.shift() as CalendarDate;
    return { issueDate, dueDates, firstReferenceStartDate: dropped, firstIsRegular: false };
  }
  return { issueDate, dueDates, firstReferenceStartDate: candidate, firstIsRegular };
}

/** The flows as the setup built them before SP7: each increment from its day count, pushed, steps found by indexOf. */
function getReferenceFlows(bond: Bond, setup: PricingSetup): { exponents: number[]; steps: number[]; stepOfFlow: number[] } {
  const xirr = bond.convention.yieldMethod === 'xirr';
  const f = bond.frequency;
  const exponents: number[] = [];
  const increments: number[] = [];
  let previous: number = setup.settlementDate;
  let years = 0;
  for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
    const date = k === setup.lastIndex ? setup.lastDate : (bond.columns.dueDates[k] as CalendarDate);
    if (xirr) {
      exponents.push((date - setup.settlementDate) / 365);
      increments.push((date - previous) / 365);
    } else {
      const period = getBondPeriod(bond, k);
      const increment =
        k === setup.firstIndex && previous !== period.accrualStartDate
          ? getYearFractionInPeriod(bond.dayCount, period.accrualStartDate, date, period.referenceStartDate, period.dueDate, f) -
            getYearFractionInPeriod(
              bond.dayCount,
              period.accrualStartDate,
              previous as CalendarDate,
              period.referenceStartDate,
              period.dueDate,
              f,
            )
          : getYearFractionInPeriod(bond.dayCount, previous as CalendarDate, date, period.referenceStartDate, period.dueDate, f);
      years += increment;
      exponents.push(f * years);
      increments.push(f * increment);
    }
    previous = date;
  }
  const steps: number[] = [];
  const stepOfFlow = [0];
  for (let k = 1; k < exponents.length; k++) {
    let index = steps.indexOf(increments[k] as number);
    if (index < 0) index = steps.push(increments[k] as number) - 1;
    stepOfFlow.push(index);
  }
  return { exponents, steps: steps.length > 16 ? [] : steps, stepOfFlow: steps.length > 16 ? [] : stepOfFlow };
}

const sameBits = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((value, k) => Object.is(value, b[k]));

describe('one pass per schedule and per day count (issue 17 §2, round 4)', () => {
  it('[SP7] due dates made once, ascending, by month index equal the addMonths walk they replace, with stubs, first coupon dates and month ends', () => {
    const random = createRandom(707);
    const fields = createScheduleDateFields(4);
    let mismatches = 0;
    let withFirstCoupon = 0;
    for (let i = 0; i < 20_000; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const issueDate = addDays(parseDate('1995-01-01'), Math.floor(random() * 15_000));
      let maturityDate = addDays(issueDate, 1 + Math.floor(random() * 365 * 45));
      if (i % 3 === 0) {
        const packed = toPackedYmd(maturityDate);
        const year = Math.floor(packed / 10000);
        const month = Math.floor(packed / 100) % 100;
        maturityDate = makeDate(year, month, getDaysInMonth(year, month) - (i % 4));
      }
      const spec: ScheduleSpec = {
        issueDate,
        maturityDate,
        frequency,
        endOfMonth: i % 2 === 0,
        stub: i % 5 === 0 ? 'long-front' : 'short-front',
      };
      const plain = generateScheduleDatesByWalk(spec);
      const withFirst: ScheduleSpec =
        i % 4 === 1 && typeof plain !== 'string'
          ? {
              ...spec,
              firstCouponDate: addDays(plain.dueDates[Math.min(i % 3, plain.dueDates.length - 1)] as CalendarDate, i % 8 === 1 ? 1 : 0),
            }
          : spec;
      const expected = generateScheduleDatesByWalk(withFirst);
      let actual: ScheduleDates | string;
      try {
        actual = generateScheduleDates(withFirst, fields);
      } catch (error) {
        actual = (error as Error).message.includes('firstCouponDate') ? 'firstCouponDate' : 'maturity';
      }
      if (withFirst.firstCouponDate !== undefined && typeof expected !== 'string') withFirstCoupon++;
      if (typeof expected === 'string' || typeof actual === 'string') {
        if (expected !== actual) mismatches++;
        continue;
      }
      const fieldsMatch = actual.dueDates.every(
        (date, k) =>
          toPackedYmd(date) === (fields.year[k] as number) * 10000 + (fields.month[k] as number) * 100 + (fields.day[k] as number),
      );
      if (
        !sameBits(actual.dueDates, expected.dueDates) ||
        actual.firstReferenceStartDate !== expected.firstReferenceStartDate ||
        actual.firstIsRegular !== expected.firstIsRegular ||
        fields.count !== actual.dueDates.length ||
        !fieldsMatch
      ) {
        mismatches++;
      }
    }
    expect(withFirstCoupon).toBeGreaterThan(1000);
    expect(mismatches).toBe(0);
  });

  it("[SP7] regular periods' fractions from the due dates' fields equal getYearFractionInPeriod for every day count, bit for bit", () => {
    const random = createRandom(808);
    const fields = createScheduleDateFields();
    let mismatches = 0;
    let periods = 0;
    for (let i = 0; i < 3000; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const name = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const dayCount = getDayCount(name, i % 3 === 0 ? 'period-contains-29-feb' : undefined);
      const issueDate = addDays(parseDate('2003-02-28'), Math.floor(random() * 9000));
      let maturityDate = addDays(issueDate, 40 + Math.floor(random() * 9000));
      if (i % 2 === 0) maturityDate = addMonths(maturityDate, 0, true);
      const packed = toPackedYmd(maturityDate);
      if (i % 4 === 0) {
        const year = Math.floor(packed / 10000);
        const month = Math.floor(packed / 100) % 100;
        maturityDate = makeDate(year, month, Math.min(getDaysInMonth(year, month), 28 + (i % 3)));
      }
      const schedule = generateScheduleDates({ issueDate, maturityDate, frequency, endOfMonth: i % 6 < 3 }, fields);
      const count = schedule.dueDates.length;
      const withFields = Array.from({ length: count }, () => -1);
      const withoutFields = Array.from({ length: count }, () => -1);
      fillRegularPeriodYearFractions(dayCount, schedule.dueDates, fields, frequency, count, withFields);
      fillRegularPeriodYearFractions(dayCount, schedule.dueDates, null, frequency, count, withoutFields);
      for (let k = 1; k < count; k++) {
        const start = schedule.dueDates[k - 1] as CalendarDate;
        const end = schedule.dueDates[k] as CalendarDate;
        const expected = getYearFractionInPeriod(dayCount, start, end, start, end, frequency);
        if (!Object.is(withFields[k], expected) || !Object.is(withoutFields[k], expected)) mismatches++;
        periods++;
      }
    }
    expect(periods).toBeGreaterThan(100_000);
    expect(mismatches).toBe(0);
  });

  it("[SP7] a built bond's columns (schedule fields, plain builder) equal the general builder on the walked schedule", () => {
    const random = createRandom(909);
    let mismatches = 0;
    for (let i = 0; i < 1400; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const dayCount = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const convention: BondConvention = {
        ...(i % 3 === 0 ? SEBI_CORPORATE_BOND : quantLibConvention(dayCount)),
        accrualDayCount: dayCount,
        couponAmount: i % 2 === 0 ? 'day-count' : 'fixed-per-period',
        endOfMonth: i % 5 < 2,
      };
      const issueDate = addDays(parseDate('2012-02-29'), Math.floor(random() * 4000));
      const maturityDate = addMonths(addDays(issueDate, 20 + Math.floor(random() * 12000)), 0, i % 7 < 3);
      const couponRate = i % 11 === 0 ? 0 : Math.round(random() * 1500) / 10_000;
      const stub = i % 9 === 0 ? ('long-front' as const) : undefined;
      const bond = createFixedCouponBond({ issueDate, maturityDate, couponRate, frequency, convention, stub });
      const schedule = generateScheduleDatesByWalk({ issueDate, maturityDate, frequency, endOfMonth: convention.endOfMonth, stub });
      if (typeof schedule === 'string') throw new Error(schedule);
      const general = computeCouponColumns({
        schedule,
        couponRate,
        couponRatesPerPeriod: schedule.dueDates.map(() => couponRate),
        frequency,
        dayCount: getDayCount(dayCount),
        convention,
        calendar: INDIA_SETTLEMENT_CALENDAR,
      });
      const columns = bond.columns;
      if (
        !sameBits(columns.dueDates, schedule.dueDates) ||
        !sameBits(columns.amounts, general.amounts) ||
        !sameBits(columns.interest, general.interest) ||
        !sameBits(columns.outstanding, general.outstanding) ||
        !sameBits(columns.couponYearFractions ?? [], general.yearFractions)
      ) {
        mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it("[SP7] a setup's exponents, steps and step indices, written in place, equal the per-flow chain and indexOf, with workouts and XIRR", () => {
    const random = createRandom(1010);
    const settlement = parseDate('2025-08-21');
    let mismatches = 0;
    let checked = 0;
    const made: { bond: Bond; setup: PricingSetup }[] = [];
    for (let i = 0; i < 1400; i++) {
      const frequency = FREQUENCIES[i % 4] as CouponFrequency;
      const dayCount = DAY_COUNT_NAMES[i % DAY_COUNT_NAMES.length] as DayCountName;
      const issueDate = addDays(settlement, -1 - Math.floor(random() * 3000));
      const maturityDate = addDays(settlement, 30 + Math.floor(random() * 12000));
      const callDate = addDays(settlement, 1 + Math.floor(random() * (maturityDate - settlement - 1)));
      const bond =
        i % 3 === 2
          ? createCorporateBond({
              issueDate,
              maturityDate,
              couponRate: 0.08,
              frequency,
              recordDateDaysBeforeDue: i % 2 === 0 ? 15 : undefined,
            })
          : createFixedCouponBond({ issueDate, maturityDate, couponRate: 0.07, frequency, convention: quantLibConvention(dayCount) });
      made.push({ bond, setup: createPricingSetup(bond, settlement) });
      made.push({ bond, setup: createPricingSetup(bond, settlement, { date: callDate as CalendarDate, pricePer100: 101 }) });
    }
    // Compared once every setup is made: no setup may share an array with a later one (scratch reuse).
    for (const { bond, setup } of made) {
      const flows = setup.exponentialFlows;
      if (flows !== null) {
        const expected = getReferenceFlows(bond, setup);
        if (
          !sameBits(flows.exponents, expected.exponents) ||
          !sameBits(flows.steps, expected.steps) ||
          !sameBits(flows.stepOfFlow, expected.stepOfFlow)
        ) {
          mismatches++;
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
    expect(mismatches).toBe(0);
  });

  it("[SP7] a setup keeps its own arrays: one made at the scratch's full length is unchanged by the setups made after it", () => {
    // More flows than any other test makes, so this setup's count is exactly the scratch's length.
    const bond = createFixedCouponBond({
      issueDate: parseDate('2020-01-15'),
      maturityDate: parseDate('2190-01-15'),
      couponRate: 0.07,
      frequency: 12,
      convention: quantLibConvention('ACT/365F'),
    });
    const first = createPricingSetup(bond, parseDate('2025-08-21'), { date: parseDate('2189-01-15'), pricePer100: 100 });
    const exponents = [...(first.exponentialFlows?.exponents ?? [])];
    const stepOfFlow = [...(first.exponentialFlows?.stepOfFlow ?? [])];
    expect(exponents.length).toBeGreaterThan(1900);
    createPricingSetup(bond, parseDate('2100-03-01'));
    createPricingSetup(bond, parseDate('2030-06-30'), { date: parseDate('2150-01-15'), pricePer100: 100 });
    expect(sameBits(first.exponentialFlows?.exponents ?? [], exponents)).toBe(true);
    expect(sameBits(first.exponentialFlows?.stepOfFlow ?? [], stepOfFlow)).toBe(true);
    expect(first.flowPeriods).toBe(first.exponentialFlows?.exponents);
  });
});
