/**
 * Risk measures at a yield: Macaulay and modified duration, convexity, PV01.
 * Derivatives are analytic in the bond's own yield (native compounding), so
 * modified duration = −(1/P)·dP/dy exactly, including the simple-interest last period.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond, ExerciseDate } from '../instruments/bond';
import type { DirtyPrice, Yield } from './quote';
import { createPricingSetup } from './pricing-setup';
import { getTimedFlows, getPeriodsPerYear } from './discounting';
import { getNativeRate } from './price-yield';
import { BondMathError } from '../errors';

/** Risk measures of a bond at a yield. */
export interface RiskMeasures {
  /** Dirty price per ₹100 at the yield. */
  readonly dirtyPrice: DirtyPrice;
  /** Macaulay duration in years: Σ t·PV / P, t in the yield method's years. */
  readonly macaulayDurationYears: number;
  /** Modified duration: −(1/P)·dP/dy (years; % price change per 1.00 yield change). */
  readonly modifiedDuration: number;
  /** Convexity: (1/P)·d²P/dy² (years²). */
  readonly convexity: number;
  /** PV01: fall in dirty price per ₹100 for a 1 bp rise in yield (first-order, −dP/dy × 0.0001). */
  readonly pv01Per100: number;
}

/**
 * Computes duration, convexity and PV01 at `yieldValue`.
 * @param workout - optional call/put date and price to measure to (duration to call).
 */
export function getRiskMeasures(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield, workout?: ExerciseDate): RiskMeasures {
  const setup = createPricingSetup(bond, settlementDate, workout);
  const rate = getNativeRate(bond, yieldValue);
  const periodsPerYear = getPeriodsPerYear(setup);
  let value = 0;
  let slope = 0;
  let curvature = 0;
  let timeWeighted = 0;
  for (const flow of getTimedFlows(setup)) {
    const t = flow.years;
    if (flow.simple || periodsPerYear === 0) {
      const discount = 1 / (1 + rate * t);
      const pv = flow.amount * discount;
      value += pv;
      timeWeighted += t * pv;
      slope -= flow.amount * t * discount * discount;
      curvature += 2 * flow.amount * t * t * discount * discount * discount;
    } else {
      const base = 1 + rate / periodsPerYear;
      const pv = flow.amount * Math.pow(base, -periodsPerYear * t);
      value += pv;
      timeWeighted += t * pv;
      slope -= (t * pv) / base;
      curvature += (t * (t + 1 / periodsPerYear) * pv) / (base * base);
    }
  }
  if (!(value > 0)) throw new BondMathError('NO_FUTURE_CASHFLOWS', 'no positive cash flow to measure', 'settlementDate');
  return {
    dirtyPrice: { kind: 'dirty', per100: value * setup.scale },
    macaulayDurationYears: timeWeighted / value,
    modifiedDuration: -slope / value,
    convexity: curvature / value,
    pv01Per100: -slope * setup.scale * 1e-4,
  };
}
