/**
 * The two explicit, named yield modes that reproduce outside references (SPEC PY10,
 * PY11). Neither is a default: Indian presets keep the street convention (PY1).
 *
 * - `quantlib`: QuantLib `FixedRateBond` / `CashFlows::npv` with a compounded
 *   `InterestRate` at the coupon frequency. Each flow is discounted by
 *   (1 + y/f)^(−f·τ), τ the sum of the day count's year fractions over the chain
 *   settlement → d₁ → d₂ → … → d_k (QuantLib discounts interval by interval with
 *   each coupon's reference period), the first link being YF(L, d₁) − YF(L, s) with L
 *   the accrual start (QuantLib 1.29 `getStepwiseDiscountTime`). No simple-interest
 *   last period, no (E − A)/E.
 * - `excel`: Excel `PRICE` / `YIELD` for bases 0–4: P = Σ a_k (1 + y/f)^(−(k − 1 + DSC/E))
 *   (N = 1: a/(1 + (DSC/E)·y/f)), accrued 100·(R/f)·A/E, with E = COUPDAYS and
 *   DSC = COUPDAYSNC per basis (for the 30/360 bases E − A, as Excel computes it);
 *   a non-positive DSC/E is 0.
 *
 * Internal to the package.
 */
import type { CalendarDate } from '../time/calendar-date';
import { toPackedYmd } from '../time/calendar-date';
import type { DayCountName } from '../day-count/day-count';
import { getYearFractionInPeriod } from '../day-count/year-fraction';
import type { Bond, CouponPeriod } from '../instruments/bond';
import type { YieldMethod } from '../conventions/market-conventions';
import { BondMathError } from '../errors';
import { getBondPeriod } from '../instruments/bond-periods';

/** Excel day-count basis (0 US 30/360, 1 actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360). */
export type ExcelBasis = 0 | 1 | 2 | 3 | 4;

/** True for the methods compounded at the coupon frequency (street, quantlib, excel). */
export function isPeriodicMethod(method: YieldMethod): boolean {
  return method === 'street' || method === 'quantlib' || method === 'excel';
}

/** True for the methods whose exponent is "whole periods + a broken first period" (Horner in v). */
export function isPeriodCountMethod(method: YieldMethod): boolean {
  return method === 'street' || method === 'excel';
}

/**
 * The Excel basis of a bond's accrual day count.
 * @throws BondMathError UNSUPPORTED for the SEBI day count (Excel has no such basis).
 */
export function getExcelBasis(name: DayCountName): ExcelBasis {
  switch (name) {
    case '30/360':
      return 0;
    case 'ACT/ACT-ICMA':
    case 'ACT/ACT-ISDA':
      return 1;
    case 'ACT/360':
      return 2;
    case 'ACT/365F':
      return 3;
    case '30E/360':
      return 4;
    default:
      throw new BondMathError(
        'UNSUPPORTED',
        `yieldMethod excel: day count ${name} has no Excel basis (use 30/360, ACT/ACT-ICMA, ACT/ACT-ISDA, ACT/360, ACT/365F or 30E/360)`,
        'yieldMethod',
      );
  }
}

function isLastOfFebruary(year: number, month: number, day: number): boolean {
  if (month !== 2) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day === (leap ? 29 : 28);
}

/**
 * Excel's 30/360 day numerator: basis 0 is US (NASD) 30/360 with the February rule
 * (start on the last of February → 30; both on the last of February → end 30; end 31
 * and start ≥ 30 → 30; start 31 → 30), basis 4 European (both days capped at 30).
 */
export function getExcelThirty360Days(start: CalendarDate, end: CalendarDate, basis: 0 | 4): number {
  const a = toPackedYmd(start);
  const b = toPackedYmd(end);
  const y1 = Math.floor(a / 10000);
  const m1 = Math.floor(a / 100) % 100;
  let d1 = a % 100;
  const y2 = Math.floor(b / 10000);
  const m2 = Math.floor(b / 100) % 100;
  let d2 = b % 100;
  if (basis === 4) {
    d1 = Math.min(d1, 30);
    d2 = Math.min(d2, 30);
  } else {
    if (isLastOfFebruary(y1, m1, d1)) {
      if (isLastOfFebruary(y2, m2, d2)) d2 = 30;
      d1 = 30;
    }
    if (d2 === 31 && d1 >= 30) d2 = 30;
    if (d1 === 31) d1 = 30;
  }
  return 360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1);
}

/** Excel's broken-period inputs for the period containing settlement. */
export interface ExcelPeriodFacts {
  /** DSC/E, floored at 0. */
  readonly periodFraction: number;
  /** A/E: the fraction of the period's coupon accrued (Excel accrued = (R/f)·A/E per 100). */
  readonly accruedFraction: number;
  /** A in the basis' days. */
  readonly accruedDays: number;
}

/**
 * COUPDAYBS (A), COUPDAYS (E) and COUPDAYSNC (DSC) of Excel for `period` at `settlement`,
 * measured from the period's notional start (Excel's COUPPCD; Excel has no stubs).
 */
export function getExcelPeriodFacts(bond: Bond, period: CouponPeriod, settlement: CalendarDate): ExcelPeriodFacts {
  const basis = getExcelBasis(bond.convention.accrualDayCount);
  const f = bond.frequency;
  const previous = period.referenceStartDate;
  const next = period.dueDate;
  let a: number;
  let e: number;
  let dsc: number;
  if (basis === 0 || basis === 4) {
    e = 360 / f;
    a = getExcelThirty360Days(previous, settlement, basis);
    dsc = e - a;
  } else {
    a = settlement - previous;
    dsc = next - settlement;
    e = basis === 1 ? next - previous : basis === 2 ? 360 / f : 365 / f;
  }
  const w = dsc / e;
  return { periodFraction: w > 0 ? w : 0, accruedFraction: a / e, accruedDays: a };
}

/**
 * QuantLib's discount exponents in coupon periods, f·τ_k, for the flows at indices
 * `firstIndex..lastIndex` (the last one dated `lastDate`): τ accumulates the day
 * count's year fraction interval by interval from settlement, each with its coupon's
 * reference period (QuantLib `CashFlows::npv` with an `InterestRate`).
 * @param exponentsOut - receives f·τ of flow k at index k − firstIndex (at least that long: written in place).
 * @param stepsOut - receives f × each flow's increment of τ (the exponent steps), likewise.
 * @param firstPeriod - the coupon period at `firstIndex`, when the caller has made it.
 */
export function getQuantLibFlowPeriods(
  bond: Bond,
  settlement: CalendarDate,
  firstIndex: number,
  lastIndex: number,
  lastDate: CalendarDate,
  exponentsOut: number[],
  stepsOut: number[],
  firstPeriod?: CouponPeriod,
): void {
  const f = bond.frequency;
  const columns = bond.columns;
  const dueDates = columns.dueDates;
  const couponFractions = columns.couponYearFractions;
  let previous = settlement;
  let years = 0;
  for (let k = firstIndex; k <= lastIndex; k++) {
    const dueDate = dueDates[k] as CalendarDate;
    const date = k === lastIndex ? lastDate : dueDate;
    // A whole coupon period after the first: the fraction the builder computed for the coupon
    // (same dates, same reference period), when it did.
    const known = k > firstIndex && date === dueDate && couponFractions !== null ? (couponFractions[k] as number) : Number.NaN;
    let increment = known;
    if (Number.isNaN(known)) {
      // The settlement's period is usually known to the caller; making it again costs a calendar look-up.
      const period = k === firstIndex && firstPeriod !== undefined ? firstPeriod : getBondPeriod(bond, k);
      const dayCount = bond.dayCount;
      const referenceStart = period.referenceStartDate;
      const referenceEnd = period.dueDate;
      // QuantLib's getStepwiseDiscountTime: inside the settlement's period the time is the
      // coupon's fraction minus the accrued fraction, both from the accrual start (this is
      // what makes 30/360 and ISDA differ from a plain fraction settlement → due date).
      increment =
        k === firstIndex && previous !== period.accrualStartDate
          ? getYearFractionInPeriod(dayCount, period.accrualStartDate, date, referenceStart, referenceEnd, f) -
            getYearFractionInPeriod(dayCount, period.accrualStartDate, previous, referenceStart, referenceEnd, f)
          : getYearFractionInPeriod(dayCount, previous, date, referenceStart, referenceEnd, f);
    }
    years += increment;
    exponentsOut[k - firstIndex] = f * years;
    stepsOut[k - firstIndex] = f * increment;
    previous = date;
  }
}
