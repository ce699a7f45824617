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
import type { ScheduleDates } from '../time/schedule';
import type { CouponFrequency, DayCount } from '../day-count/day-count';
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
  const fraction = dayCount.getYearFraction(startDate, dueDate, {
    referenceStart: referenceStartDate,
    referenceEnd: dueDate,
    frequency,
  });
  return outstandingPer100 * couponRate * fraction;
}

/**
 * Builds coupon periods from a generated schedule.
 * @throws BondMathError INVALID_ARGUMENT when a repayment is off the schedule or repays more than 100.
 */
export function buildCouponPeriods(spec: CouponPeriodSpec): CouponPeriod[] {
  const { schedule, frequency, dayCount, convention, calendar } = spec;
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
  const periods: CouponPeriod[] = [];
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
    const interest = getPeriodInterest(
      startDate,
      endDate,
      referenceStartDate,
      isRegular,
      couponRate,
      outstanding,
      frequency,
      dayCount,
      convention,
    );
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
    periods.push({
      accrualStartDate: startDate,
      dueDate: endDate,
      paymentDate: calendar.isBusinessDay(endDate)
        ? endDate
        : adjustDate(endDate, i === lastIndex ? convention.maturityPaymentConvention : convention.couponPaymentConvention, calendar),
      recordDate: convention.recordDateDaysBeforeDue === null ? null : addDays(endDate, -convention.recordDateDaysBeforeDue),
      referenceStartDate: referenceStartDate,
      isRegular: isRegular,
      couponRate,
      outstandingPer100: outstanding,
      interestPer100: interest,
      principalPer100: principal,
      premiumPer100: premium,
    });
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
  return periods;
}
