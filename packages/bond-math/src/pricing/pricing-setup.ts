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
  const fraction = bond.dayCount.getYearFraction(period.accrualStartDate, date, {
    referenceStart: period.referenceStartDate,
    referenceEnd: period.dueDate,
    frequency: bond.frequency,
  });
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
  const { periods, columns } = bond;
  if (settlementDate < bond.issueDate) {
    throw new BondMathError(
      'SETTLEMENT_BEFORE_ACCRUAL_START',
      `settlementDate ${formatDate(settlementDate)} is before the issue date ${formatDate(bond.issueDate)}`,
      'settlementDate',
    );
  }
  const firstIndex = findPeriodIndex(columns.dueDates, settlementDate);
  if (firstIndex >= periods.length) {
    throw new BondMathError(
      'NO_FUTURE_CASHFLOWS',
      `settlementDate ${formatDate(settlementDate)} is on or after the final due date ${formatDate(bond.maturityDate)}`,
      'settlementDate',
    );
  }
  const period = periods[firstIndex] as CouponPeriod;
  const exInterest = period.recordDate !== null && settlementDate > period.recordDate;
  const accruedDays = bond.dayCount.getDayCountDays(period.accrualStartDate, settlementDate);
  let accrued = getPeriodAccrued(bond, period, settlementDate);
  // SEBI CIR/MRD/DP/03/2013 record date: the seller keeps the coupon, so the buyer's
  // accrued interest is negative: −(interest for [s, N)) (doc §4.4, open item §8.5).
  if (exInterest) accrued -= period.interestPer100;

  const couponPeriodDays = bond.dayCount.getCouponPeriodDays(period.referenceStartDate, period.dueDate, bond.frequency);
  const periodDays = period.isRegular ? couponPeriodDays : bond.dayCount.getDayCountDays(period.accrualStartDate, period.dueDate);
  let periodFraction = (periodDays - accruedDays) / couponPeriodDays;
  if (periodFraction <= 0) {
    // CONVENTION-DEVIATION: under 30E/360 (E − A)/E can reach 0 before the due date
    // (29 Feb → 30 Aug counts 181 days against E = 180; 30 May → 31 May counts 0 days),
    // and the price would then not depend on the yield. Such dates are G-sec shut days
    // (doc §2), so no market rule covers them; use the actual fraction left, (N − s)/(N − L).
    periodFraction = (period.dueDate - settlementDate) / (period.dueDate - period.referenceStartDate);
  }

  let lastIndex = periods.length - 1;
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
    const workoutPeriod = periods[index];
    if (!workoutPeriod) throw new BondMathError('INVALID_ARGUMENT', 'workout date is after maturity', 'workoutDate');
    lastIndex = index;
    lastDate = workout.date;
    const redemption = (workoutPeriod.outstandingPer100 * workout.pricePer100) / 100;
    if (workoutPeriod.dueDate === workout.date) {
      lastAmount = workoutPeriod.interestPer100 + redemption;
    } else {
      if (bond.convention.yieldMethod === 'street') {
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
  const method = bond.convention.yieldMethod;
  const singleFlowSimple =
    firstIndex === lastIndex &&
    (method === 'money-market' || (bond.convention.lastPeriodSimpleInterest && (method === 'street' || lastDate - settlementDate <= 365)));
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
  };
}
