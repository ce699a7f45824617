/**
 * Turning a schedule (or a term-sheet cash-flow table) into coupon periods with
 * amounts: coupon rate per period (step-up/step-down), interest on the principal
 * outstanding during the period (doc §4.1, §4.7), partial redemptions, redemption
 * premium, adjusted payment dates and record dates.
 */
import type { CalendarDate } from '../time/calendar-date';
import { addDays, formatDate } from '../time/calendar-date';
import type { HolidayCalendar } from '../time/holiday-calendar';
import { adjustDate } from '../time/holiday-calendar';
import type { ScheduleDateFields, ScheduleDates } from '../time/schedule';
import type { CouponFrequency, DayCount } from '../day-count/day-count';
import { fillRegularPeriodYearFractions, getYearFractionInPeriod } from '../day-count/year-fraction';
import type { BondConvention } from '../conventions/market-conventions';
import type { CouponPeriod } from '../instruments/bond';
import { BondMathError } from '../errors';

/** A coupon step: from `fromDate` on, periods accrue at `couponRate`. */
export interface CouponStep {
  /** Periods whose accrual starts on or after this date take the new rate. */
  readonly fromDate: CalendarDate;
  /** New annual coupon rate, decimal. */
  readonly couponRate: number;
}

/** A scheduled partial redemption. */
export interface PrincipalRepayment {
  /** Due date of the repayment; must be a coupon due date. */
  readonly date: CalendarDate;
  /** Principal repaid, per ₹100 of original face. */
  readonly principalPer100: number;
}

/** Inputs of {@link buildCouponPeriods}. */
export interface CouponPeriodSpec {
  /** Due dates (compact schedule). */
  readonly schedule: ScheduleDates;
  /** Annual coupon rate, decimal (before any step). */
  readonly couponRate: number;
  /** Step-up / step-down coupons, ascending by date. */
  readonly couponSteps?: readonly CouponStep[];
  /** Explicit rate per period (overrides couponRate/steps), e.g. an FRB's known and assumed coupons. */
  readonly couponRatesPerPeriod?: readonly number[];
  /** Partial redemptions before maturity. */
  readonly principalRepayments?: readonly PrincipalRepayment[];
  /** Redemption price at maturity per ₹100 of outstanding face (default 100). */
  readonly redemptionPer100?: number;
  readonly frequency: CouponFrequency;
  readonly dayCount: DayCount;
  readonly convention: BondConvention;
  readonly calendar: HolidayCalendar;
  /**
   * The civil fields of `schedule`'s due dates, when the caller generated it with them
   * ({@link generateScheduleDates}'s `fieldsOut`); used when their count matches.
   */
  readonly dueDateFields?: ScheduleDateFields;
}

const PRINCIPAL_TOLERANCE = 1e-9;
const NO_REPAYMENTS: readonly PrincipalRepayment[] = [];
const NO_STEPS: readonly CouponStep[] = [];

/** Interest for a period on `outstandingPer100` at `couponRate` under the convention's coupon rule. */
export function getPeriodInterest(
  startDate: CalendarDate,
  dueDate: CalendarDate,
  referenceStartDate: CalendarDate,
  isRegular: boolean,
  couponRate: number,
  outstandingPer100: number,
  frequency: CouponFrequency,
  dayCount: DayCount,
  convention: BondConvention,
): number {
  if (couponRate === 0) return 0;
  if (convention.couponAmount === 'fixed-per-period' && isRegular) return (outstandingPer100 * couponRate) / frequency;
  return outstandingPer100 * couponRate * getCouponYearFraction(startDate, dueDate, referenceStartDate, frequency, dayCount);
}

/** The day count's year fraction of a coupon period (its own reference period ends on the due date). */
function getCouponYearFraction(
  startDate: CalendarDate,
  dueDate: CalendarDate,
  referenceStartDate: CalendarDate,
  frequency: CouponFrequency,
  dayCount: DayCount,
): number {
  return getYearFractionInPeriod(dayCount, startDate, dueDate, referenceStartDate, dueDate, frequency);
}

/**
 * A generated bond's periods as columns (one entry per due date), computed and validated when
 * the bond is built; the `CouponPeriod` objects are made from them only when asked for
 * ({@link createCouponPeriod}), so pricing a freshly built bond allocates none.
 */
export interface CouponColumns {
  /** Annual coupon rate of every period when it does not vary, decimal. */
  readonly couponRate: number;
  /** Annual coupon rate per period (steps or explicit rates), else null. */
  readonly couponRates: number[] | null;
  /** Principal outstanding during each period, per ₹100 original face. */
  readonly outstanding: number[];
  /** Interest per due date, per ₹100 original face. */
  readonly interest: number[];
  /** Principal repaid per due date (amortising bonds), else null: all of it at maturity. */
  readonly principal: number[] | null;
  /** Redemption premium at maturity, per ₹100 original face (none before). */
  readonly finalPremium: number;
  /** Total flow per due date (interest + principal + premium), per ₹100 original face. */
  readonly amounts: number[];
  /** The day-count year fraction of each period where the coupon rule computed it, NaN elsewhere. */
  readonly yearFractions: number[];
}

/**
 * Computes the amounts of every period of a generated schedule.
 * @throws BondMathError INVALID_ARGUMENT when a repayment is off the schedule or repays more than 100.
 */
export function computeCouponColumns(spec: CouponPeriodSpec): CouponColumns {
  const { schedule, frequency, dayCount, convention } = spec;
  const steps = spec.couponSteps ?? NO_STEPS;
  const rates = spec.couponRatesPerPeriod;
  const dueDates = schedule.dueDates;
  if (rates && rates.length !== dueDates.length) {
    throw new BondMathError(
      'INVALID_ARGUMENT',
      `couponRatesPerPeriod has ${rates.length} rates for ${dueDates.length} periods`,
      'couponRatesPerPeriod',
    );
  }
  // Most bonds repay only at maturity: no Map to allocate for them (this runs per bond built).
  const repaymentList = spec.principalRepayments ?? NO_REPAYMENTS;
  const repayments = repaymentList.length > 0 ? new Map<number, number>() : null;
  if (repayments !== null) {
    for (const repayment of repaymentList) {
      repayments.set(repayment.date, (repayments.get(repayment.date) ?? 0) + repayment.principalPer100);
    }
  }
  const redemptionPer100 = spec.redemptionPer100 ?? 100;
  if (repayments === null && !rates && steps.length === 0) return computePlainCouponColumns(spec, redemptionPer100);
  const couponRates: number[] | null = rates || steps.length > 0 ? [] : null;
  const principals: number[] | null = repayments !== null ? [] : null;
  const outstandings: number[] = [];
  const interests: number[] = [];
  const amounts: number[] = [];
  const yearFractions: number[] = [];
  let finalPremium = 0;
  let outstanding = 100;
  const lastIndex = dueDates.length - 1;
  for (let i = 0; i <= lastIndex; i++) {
    const startDate = i === 0 ? schedule.issueDate : (dueDates[i - 1] as CalendarDate);
    const endDate = dueDates[i] as CalendarDate;
    const referenceStartDate = i === 0 ? schedule.firstReferenceStartDate : startDate;
    const isRegular = i === 0 ? schedule.firstIsRegular : true;
    let couponRate = spec.couponRate;
    if (rates) couponRate = rates[i] as number;
    else if (steps.length > 0) for (const step of steps) if (startDate >= step.fromDate) couponRate = step.couponRate;
    // The year fraction is computed only where the coupon rule needs it (as getPeriodInterest does).
    const fraction =
      couponRate === 0 || (convention.couponAmount === 'fixed-per-period' && isRegular)
        ? Number.NaN
        : getCouponYearFraction(startDate, endDate, referenceStartDate, frequency, dayCount);
    const interest =
      couponRate === 0 ? 0 : Number.isNaN(fraction) ? (outstanding * couponRate) / frequency : outstanding * couponRate * fraction;
    let principal = 0;
    let premium = 0;
    if (i === lastIndex) {
      principal = outstanding;
      if (repayments !== null) repayments.delete(endDate);
      premium = (outstanding * (redemptionPer100 - 100)) / 100;
    } else {
      if (repayments !== null) {
        principal = repayments.get(endDate) ?? 0;
        repayments.delete(endDate);
      }
      if (principal > outstanding + PRINCIPAL_TOLERANCE || principal < 0) {
        throw new BondMathError(
          'INVALID_ARGUMENT',
          `principalRepayments: ${principal} on ${formatDate(endDate)} exceeds outstanding ${outstanding}`,
          'principalRepayments',
        );
      }
    }
    if (couponRates !== null) couponRates.push(couponRate);
    if (principals !== null) principals.push(principal);
    if (i === lastIndex) finalPremium = premium;
    outstandings.push(outstanding);
    interests.push(interest);
    amounts.push(interest + principal + premium);
    yearFractions.push(fraction);
    outstanding -= principal;
    if (Math.abs(outstanding) < PRINCIPAL_TOLERANCE) outstanding = 0;
  }
  if (repayments !== null && repayments.size > 0) {
    const [date] = repayments.keys();
    throw new BondMathError(
      'INVALID_ARGUMENT',
      `principalRepayments: ${formatDate(date as CalendarDate)} is not a coupon due date of the schedule`,
      'principalRepayments',
    );
  }
  return {
    couponRate: spec.couponRate,
    couponRates,
    outstanding: outstandings,
    interest: interests,
    principal: principals,
    finalPremium,
    amounts,
    yearFractions,
  };
}

/**
 * Scratch columns of {@link computePlainCouponColumns}, reused from bond to bond: each column is
 * written here at its final length, then copied out with one `slice`, which gives a packed
 * array of exactly that length. (`new Array(n)` would be made at its length too but stays
 * "holey" in V8, and every price that later reads it pays a hole check: measured, per-bond price
 * and solve 20–40 % slower on 20,000 bonds; `push` from empty reallocates each column three or
 * four times on the way to ~60 entries.) They start as double arrays and only ever hold numbers,
 * so they stay packed doubles (`HUNDREDS`: small integers).
 */
const interestScratch: number[] = [0.5];
const fractionScratch: number[] = [0.5];
const HUNDREDS: number[] = [100];

function ensureScratchLength(count: number): void {
  while (interestScratch.length < count) interestScratch.push(0.5);
  while (fractionScratch.length < count) fractionScratch.push(0.5);
  while (HUNDREDS.length < count) HUNDREDS.push(100);
}

/**
 * {@link computeCouponColumns} for the common bond (one coupon rate, all principal at
 * maturity): the same expressions with the outstanding face fixed at 100 until maturity, and
 * no per-period checks of steps and repayments. The regular periods' day-count fractions are
 * filled in one pass per day count, from the due dates' civil fields when the schedule was
 * generated with them (SPEC SP7, {@link fillRegularPeriodYearFractions}: the same doubles).
 */
function computePlainCouponColumns(spec: CouponPeriodSpec, redemptionPer100: number): CouponColumns {
  const { schedule, frequency, dayCount, convention, couponRate } = spec;
  const dueDates = schedule.dueDates;
  const count = dueDates.length;
  const fields = spec.dueDateFields !== undefined && spec.dueDateFields.count === count ? spec.dueDateFields : null;
  ensureScratchLength(count);
  const interests = interestScratch;
  const fractions = fractionScratch;
  const fixedPerPeriod = convention.couponAmount === 'fixed-per-period';
  const outstanding = 100;
  // The year fraction is computed only where the coupon rule needs it (as getPeriodInterest does):
  // never for a zero coupon, and under the fixed-per-period rule only for an irregular first period.
  if (couponRate === 0) {
    for (let i = 0; i < count; i++) fractions[i] = Number.NaN;
  } else {
    if (count > 0) {
      fractions[0] =
        fixedPerPeriod && schedule.firstIsRegular
          ? Number.NaN
          : getCouponYearFraction(schedule.issueDate, dueDates[0] as CalendarDate, schedule.firstReferenceStartDate, frequency, dayCount);
    }
    if (fixedPerPeriod) for (let i = 1; i < count; i++) fractions[i] = Number.NaN;
    else fillRegularPeriodYearFractions(dayCount, dueDates, fields, frequency, count, fractions);
  }
  if (couponRate === 0) {
    for (let i = 0; i < count; i++) interests[i] = 0;
  } else {
    // A regular period's interest under the fixed-per-period rule, as computeCouponColumns writes it.
    const fixedInterest = (outstanding * couponRate) / frequency;
    for (let i = 0; i < count; i++) {
      const fraction = fractions[i] as number;
      interests[i] = Number.isNaN(fraction) ? fixedInterest : outstanding * couponRate * fraction;
    }
  }
  const interestColumn = interests.slice(0, count);
  // Before maturity a flow is its interest: computeCouponColumns's interest + 0 + 0 is the same
  // double, as an interest here is never −0 (a product of non-negative factors or the literal 0).
  const finalPremium = count === 0 ? 0 : (outstanding * (redemptionPer100 - 100)) / 100;
  if (count > 0) interests[count - 1] = (interests[count - 1] as number) + outstanding + finalPremium;
  return {
    couponRate,
    couponRates: null,
    outstanding: HUNDREDS.slice(0, count),
    interest: interestColumn,
    principal: null,
    finalPremium,
    amounts: interests.slice(0, count),
    yearFractions: fractions.slice(0, count),
  };
}

/** The coupon period at `index` of a generated schedule from its computed columns. */
export function createCouponPeriod(
  schedule: ScheduleDates,
  columns: CouponColumns,
  index: number,
  convention: BondConvention,
  calendar: HolidayCalendar,
): CouponPeriod {
  const dueDates = schedule.dueDates;
  const startDate = index === 0 ? schedule.issueDate : (dueDates[index - 1] as CalendarDate);
  const endDate = dueDates[index] as CalendarDate;
  const isLast = index === dueDates.length - 1;
  return {
    accrualStartDate: startDate,
    dueDate: endDate,
    paymentDate: calendar.isBusinessDay(endDate)
      ? endDate
      : adjustDate(endDate, isLast ? convention.maturityPaymentConvention : convention.couponPaymentConvention, calendar),
    recordDate: convention.recordDateDaysBeforeDue === null ? null : addDays(endDate, -convention.recordDateDaysBeforeDue),
    referenceStartDate: index === 0 ? schedule.firstReferenceStartDate : startDate,
    isRegular: index === 0 ? schedule.firstIsRegular : true,
    couponRate: columns.couponRates !== null ? (columns.couponRates[index] as number) : columns.couponRate,
    outstandingPer100: columns.outstanding[index] as number,
    interestPer100: columns.interest[index] as number,
    principalPer100:
      columns.principal !== null ? (columns.principal[index] as number) : isLast ? (columns.outstanding[index] as number) : 0,
    premiumPer100: isLast ? columns.finalPremium : 0,
  };
}

/**
 * Builds coupon periods from a generated schedule.
 * @throws BondMathError INVALID_ARGUMENT when a repayment is off the schedule or repays more than 100.
 */
export function buildCouponPeriods(spec: CouponPeriodSpec): CouponPeriod[] {
  const columns = computeCouponColumns(spec);
  const periods: CouponPeriod[] = [];
  for (let i = 0; i < spec.schedule.dueDates.length; i++) {
    periods.push(createCouponPeriod(spec.schedule, columns, i, spec.convention, spec.calendar));
  }
  return periods;
}
