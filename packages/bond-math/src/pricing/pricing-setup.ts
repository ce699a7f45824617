/**
 * The settlement-dependent facts of a bond (which period we are in, accrued
 * interest, ex-interest, the broken-period fraction, the flows the buyer gets up
 * to a workout date), computed once and shared by price↔yield, risk and options.
 * Internal to the package.
 */
import type { CalendarDate } from '../time/calendar-date';
import { formatDate } from '../time/calendar-date';
import type { Bond, CouponPeriod, ExerciseDate } from '../instruments/bond';
import { BondMathError } from '../errors';
import { getBondPeriod } from '../instruments/bond-periods';
import { getYearFractionInPeriod } from '../day-count/year-fraction';
import { getExcelPeriodFacts, getQuantLibFlowPeriods } from './named-yield-modes';
import type { ExponentialFlows } from './exponential-flows';
import { createExponentialFlows, getExponentScratch, getStepScratch } from './exponential-flows';

/** Settlement-dependent pricing inputs (per ₹100 ORIGINAL face unless stated). */
export interface PricingSetup {
  readonly bond: Bond;
  readonly settlementDate: CalendarDate;
  /** Index of the period containing settlement (first due date > settlement). */
  readonly firstIndex: number;
  /** Index of the last flow received (maturity, or the workout date's period). */
  readonly lastIndex: number;
  /** Cash flow at `firstIndex` (coupon removed when ex-interest). */
  readonly firstAmount: number;
  /** Cash flow at `lastIndex` (with workout redemption); equals firstAmount when first = last. */
  readonly lastAmount: number;
  /** Date of the last flow (a workout date may fall inside a period). */
  readonly lastDate: CalendarDate;
  /** Street broken-period fraction w = (period days − A)/E (doc §2, §6). */
  readonly periodFraction: number;
  /** Accrued interest, per ₹100 original face (negative when ex-interest). */
  readonly accruedPer100Original: number;
  /** Accrued days A in the accrual day count. */
  readonly accruedDays: number;
  /** True when settlement is after the period's record date. */
  readonly exInterest: boolean;
  /** Principal outstanding at settlement, per ₹100 original face. */
  readonly outstandingPer100: number;
  /** Multiplier from per-100-original amounts to the quote basis (100/outstanding or 1). */
  readonly scale: number;
  /**
   * True when the one remaining flow is discounted with simple interest: Excel PRICE's
   * last coupon period (street), or a SEBI bond's last flow due within a year (doc §4.3,
   * §4.3a). A long zero-coupon bond stays compounded.
   */
  readonly singleFlowSimple: boolean;
  /**
   * `quantlib` mode only (else null): discount exponent in coupon periods of each flow
   * `firstIndex..lastIndex`, f × the day count's year fraction from settlement (SPEC PY10).
   */
  readonly flowPeriods: readonly number[] | null;
  /**
   * `quantlib` and compounded `xirr` (else null): the flows as Σ a_k (1 + y/m)^(−e_k) with their
   * shared exponent steps, for the pricing loops (see `exponential-flows.ts`).
   */
  readonly exponentialFlows: ExponentialFlows | null;
  // The solver's price-independent facts of the flows (`yield-solver.ts`), NaN until the first
  // solve computes them. Fields of the setup, not an object made at that solve: on a large book
  // that object lies far from its setup and cost every solve one more cache miss.
  /** Σ a_k, per ₹100 original face; NaN until the first solve. */
  flowTotalAmount: number;
  /** True when a flow is negative (no unique yield then); meaningful once flowTotalAmount is set. */
  flowHasNegative: boolean;
  /** Σ a_k·t_k with t_k in the method's years. */
  flowWeightedTime: number;
  /** Σ a_k·t_k². */
  flowWeightedSquaredTime: number;
}

/** Index of the first period whose due date is after `settlementDate` (periods.length when none). */
export function findPeriodIndex(dueDates: readonly number[], settlementDate: number): number {
  let low = 0;
  let high = dueDates.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((dueDates[mid] as number) > settlementDate) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Accrued interest of `period` from its start to `date`, per ₹100 original face. */
export function getPeriodAccrued(bond: Bond, period: CouponPeriod, date: CalendarDate): number {
  if (period.couponRate === 0 || period.outstandingPer100 === 0) return 0;
  const fraction = getYearFractionInPeriod(
    bond.dayCount,
    period.accrualStartDate,
    date,
    period.referenceStartDate,
    period.dueDate,
    bond.frequency,
  );
  return period.outstandingPer100 * period.couponRate * fraction;
}

/**
 * Builds the pricing setup for a settlement date, optionally truncated at a workout
 * (call/put) date where the outstanding face is redeemed at the exercise price.
 * @throws BondMathError SETTLEMENT_BEFORE_ACCRUAL_START, NO_FUTURE_CASHFLOWS, UNSUPPORTED.
 */
export function createPricingSetup(bond: Bond, settlementDate: CalendarDate, workout?: ExerciseDate): PricingSetup {
  if (workout === undefined) {
    // Memo of the last settlement per bond: pricing a book at one date builds each setup once.
    const memo = bond.columns.settlementMemo as PricingSetup | null;
    if (memo !== null && memo.settlementDate === settlementDate) return memo;
    const setup = buildPricingSetup(bond, settlementDate, undefined);
    bond.columns.settlementMemo = setup;
    return setup;
  }
  return buildPricingSetup(bond, settlementDate, workout);
}

function buildPricingSetup(bond: Bond, settlementDate: CalendarDate, workout: ExerciseDate | undefined): PricingSetup {
  if (!Number.isInteger(settlementDate)) {
    throw new BondMathError('INVALID_DATE', 'settlementDate must be a CalendarDate', 'settlementDate');
  }
  const columns = bond.columns;
  const periodCount = columns.dueDates.length;
  if (settlementDate < bond.issueDate) {
    throw new BondMathError(
      'SETTLEMENT_BEFORE_ACCRUAL_START',
      `settlementDate ${formatDate(settlementDate)} is before the issue date ${formatDate(bond.issueDate)}`,
      'settlementDate',
    );
  }
  const firstIndex = findPeriodIndex(columns.dueDates, settlementDate);
  if (firstIndex >= periodCount) {
    throw new BondMathError(
      'NO_FUTURE_CASHFLOWS',
      `settlementDate ${formatDate(settlementDate)} is on or after the final due date ${formatDate(bond.maturityDate)}`,
      'settlementDate',
    );
  }
  const period = getBondPeriod(bond, firstIndex);
  const method = bond.convention.yieldMethod;
  const exInterest = period.recordDate !== null && settlementDate > period.recordDate;
  const excel = method === 'excel' ? getExcelPeriodFacts(bond, period, settlementDate) : null;
  const accruedDays = excel ? excel.accruedDays : bond.dayCount.getDayCountDays(period.accrualStartDate, settlementDate);
  // Excel PRICE's accrued is (R/f)·A/E of the period's coupon (SPEC PY11).
  let accrued = excel
    ? (period.outstandingPer100 * period.couponRate * excel.accruedFraction) / bond.frequency
    : getPeriodAccrued(bond, period, settlementDate);
  // SEBI CIR/MRD/DP/03/2013 record date: the seller keeps the coupon, so the buyer's
  // accrued interest is negative: −(interest for [s, N)) (doc §4.4, open item §8.5).
  if (exInterest) accrued -= period.interestPer100;

  const couponPeriodDays = bond.dayCount.getCouponPeriodDays(period.referenceStartDate, period.dueDate, bond.frequency);
  const periodDays = period.isRegular ? couponPeriodDays : bond.dayCount.getDayCountDays(period.accrualStartDate, period.dueDate);
  let periodFraction = excel ? excel.periodFraction : (periodDays - accruedDays) / couponPeriodDays;
  if (periodFraction <= 0 && method !== 'excel') {
    // CONVENTION-DEVIATION: under 30E/360 (E − A)/E can reach 0 before the due date
    // (29 Feb → 30 Aug counts 181 days against E = 180; 30 May → 31 May counts 0 days),
    // and the price would then not depend on the yield. Such dates are G-sec shut days
    // (doc §2), so no market rule covers them; use the actual fraction left, (N − s)/(N − L).
    periodFraction = (period.dueDate - settlementDate) / (period.dueDate - period.referenceStartDate);
  }

  let lastIndex = periodCount - 1;
  let lastDate = bond.maturityDate;
  let lastAmount = columns.amounts[lastIndex] as number;
  if (workout) {
    if (!(workout.date > settlementDate)) {
      throw new BondMathError(
        'INVALID_ARGUMENT',
        `workout date ${formatDate(workout.date)} is not after settlement ${formatDate(settlementDate)}`,
        'workoutDate',
      );
    }
    const index = findPeriodIndex(columns.dueDates, workout.date - 1);
    const workoutPeriod = index < periodCount ? getBondPeriod(bond, index) : undefined;
    if (!workoutPeriod) throw new BondMathError('INVALID_ARGUMENT', 'workout date is after maturity', 'workoutDate');
    lastIndex = index;
    lastDate = workout.date;
    const redemption = (workoutPeriod.outstandingPer100 * workout.pricePer100) / 100;
    if (workoutPeriod.dueDate === workout.date) {
      lastAmount = workoutPeriod.interestPer100 + redemption;
    } else {
      if (method === 'street' || method === 'excel') {
        throw new BondMathError(
          'UNSUPPORTED',
          `workout date ${formatDate(workout.date)} is not a coupon date; the street convention needs call/put dates on coupon dates`,
          'workoutDate',
        );
      }
      lastAmount = getPeriodAccrued(bond, workoutPeriod, workout.date) + redemption;
    }
  }
  let firstAmount = firstIndex === lastIndex ? lastAmount : (columns.amounts[firstIndex] as number);
  if (exInterest) firstAmount -= period.interestPer100;
  if (firstIndex === lastIndex) lastAmount = firstAmount;

  const outstandingPer100 = period.outstandingPer100;
  const scale = bond.convention.amortisingPriceBasis === 'outstanding' && outstandingPer100 > 0 ? 100 / outstandingPer100 : 1;
  // Excel PRICE always discounts a single remaining flow with simple interest; QuantLib never does.
  const singleFlowSimple =
    firstIndex === lastIndex &&
    (method === 'money-market' ||
      method === 'excel' ||
      (method !== 'quantlib' && bond.convention.lastPeriodSimpleInterest && (method === 'street' || lastDate - settlementDate <= 365)));
  let flowPeriods: readonly number[] | null = null;
  let exponentialFlows: ExponentialFlows | null = null;
  if (method === 'quantlib' || (method === 'xirr' && !singleFlowSimple)) {
    // One copy of the column (a slice, not a push per flow: this runs for every bond priced at a
    // new date), then the first and last amounts as adjusted above (first wins when they coincide).
    const amounts = columns.amounts.slice(firstIndex, lastIndex + 1);
    amounts[amounts.length - 1] = lastAmount;
    amounts[0] = firstAmount;
    // Exponents and steps are written into scratch at their final length and copied out once
    // by createExponentialFlows (SPEC SP7).
    const count = lastIndex - firstIndex + 1;
    const exponents = getExponentScratch(count);
    const steps = getStepScratch(count);
    if (method === 'quantlib') {
      getQuantLibFlowPeriods(bond, settlementDate, firstIndex, lastIndex, lastDate, exponents, steps, period);
      exponentialFlows = createExponentialFlows(bond.frequency, amounts, exponents, steps);
      flowPeriods = exponentialFlows.exponents;
    } else {
      // XIRR: e_k = (d_k − s)/365 years at annual compounding; steps are the day gaps / 365.
      let previous: number = settlementDate;
      for (let k = firstIndex; k <= lastIndex; k++) {
        const date = k === lastIndex ? lastDate : (columns.dueDates[k] as number);
        exponents[k - firstIndex] = (date - settlementDate) / 365;
        steps[k - firstIndex] = (date - previous) / 365;
        previous = date;
      }
      exponentialFlows = createExponentialFlows(1, amounts, exponents, steps);
    }
  }
  return {
    bond,
    settlementDate,
    firstIndex,
    lastIndex,
    firstAmount,
    lastAmount,
    lastDate,
    periodFraction,
    accruedPer100Original: accrued,
    accruedDays,
    exInterest,
    outstandingPer100,
    scale,
    singleFlowSimple,
    flowPeriods,
    exponentialFlows,
    flowTotalAmount: Number.NaN,
    flowHasNegative: false,
    flowWeightedTime: Number.NaN,
    flowWeightedSquaredTime: Number.NaN,
  };
}
