/**
 * The hot loops: present value of the buyer's flows at a yield, with its first
 * derivative, for the three yield methods. Internal to the package.
 *
 * Street (doc §2, §6; Excel PRICE, QuantLib FixedRateBond):
 *   P = Σ_{k=0..n−1} a_k · v^(k+w),  v = 1/(1 + y/f)
 * evaluated by Horner's rule in v (one `pow` per price, no allocation). With one
 * flow left and `lastPeriodSimpleInterest`, P = a/(1 + w·y/f) (Excel PRICE n = 1).
 *
 * XIRR (doc §4.3; SEBI corporates): P = Σ a_i (1 + y)^(−(d_i − s)/365), computed as
 * exp(−t_i·ln(1+y)); one flow left → a/(1 + y·t) (doc §4.3a).
 *
 * Money market (doc §3): P = Σ a_i / (1 + y·(d_i − s)/365).
 *
 * All amounts and results are per ₹100 ORIGINAL face; callers apply `setup.scale`.
 */
import type { PricingSetup } from './pricing-setup';

/** Scratch slot for the derivative of the last {@link evaluatePresentValue} call (avoids allocating a pair). */
export const slopeOut = new Float64Array(1);

/**
 * Present value of the setup's flows at `rate` (per ₹100 original face); writes
 * dPV/dy into `slopeOut[0]`.
 * @param rate - yield in the bond's native compounding, decimal.
 */
export function evaluatePresentValue(setup: PricingSetup, rate: number): number {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  const first = setup.firstIndex;
  const last = setup.lastIndex;
  const amounts = bond.columns.amounts;
  const simpleLast = setup.singleFlowSimple;
  if (method === 'street') {
    const f = bond.frequency;
    const w = setup.periodFraction;
    if (first === last) {
      const a = setup.firstAmount;
      if (simpleLast) {
        const d = 1 + (w * rate) / f;
        slopeOut[0] = (-a * (w / f)) / (d * d);
        return a / d;
      }
      const base = 1 + rate / f;
      const df = Math.pow(base, -w);
      slopeOut[0] = (-a * (w / f) * df) / base;
      return a * df;
    }
    const v = 1 / (1 + rate / f);
    let p = setup.lastAmount;
    let dp = 0;
    for (let k = last - 1; k > first; k--) {
      dp = dp * v + p;
      p = p * v + (amounts[k] as number);
    }
    dp = dp * v + p;
    p = p * v + setup.firstAmount;
    const vw = Math.pow(v, w);
    // dP/dv = w·v^(w−1)·S + v^w·S';  dv/dy = −v²/f
    slopeOut[0] = ((w * vw * p) / v + vw * dp) * ((-v * v) / f);
    return vw * p;
  }
  const settlement = setup.settlementDate;
  const dueDates = bond.columns.dueDates;
  if (method === 'xirr') {
    if (simpleLast) {
      const t = (setup.lastDate - settlement) / 365;
      const d = 1 + rate * t;
      slopeOut[0] = (-setup.firstAmount * t) / (d * d);
      return setup.firstAmount / d;
    }
    const logGrowth = Math.log1p(rate);
    let value = 0;
    let timeWeighted = 0;
    for (let k = first; k <= last; k++) {
      const a = k === first ? setup.firstAmount : k === last ? setup.lastAmount : (amounts[k] as number);
      const t = ((k === last ? setup.lastDate : (dueDates[k] as number)) - settlement) / 365;
      const pv = a * Math.exp(-t * logGrowth);
      value += pv;
      timeWeighted += t * pv;
    }
    slopeOut[0] = -timeWeighted / (1 + rate);
    return value;
  }
  // money market: simple interest on actual/365 for every flow
  let value = 0;
  let slope = 0;
  for (let k = first; k <= last; k++) {
    const a = k === first ? setup.firstAmount : k === last ? setup.lastAmount : (amounts[k] as number);
    const t = ((k === last ? setup.lastDate : (dueDates[k] as number)) - settlement) / 365;
    const d = 1 + rate * t;
    value += a / d;
    slope -= (a * t) / (d * d);
  }
  slopeOut[0] = slope;
  return value;
}

/** One future flow as seen from settlement: time in years and amount per ₹100 original face. */
export interface TimedFlow {
  /** Date of the flow. */
  readonly date: number;
  /** Time from settlement in years under the yield method (street: periods/f). */
  readonly years: number;
  /** Amount per ₹100 original face. */
  readonly amount: number;
  /** True when this flow is discounted with simple interest. */
  readonly simple: boolean;
}

/** The setup's flows with their discounting times (for risk measures; allocates). */
export function getTimedFlows(setup: PricingSetup): TimedFlow[] {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  const flows: TimedFlow[] = [];
  for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
    const amount =
      k === setup.firstIndex ? setup.firstAmount : k === setup.lastIndex ? setup.lastAmount : (bond.columns.amounts[k] as number);
    const date = k === setup.lastIndex ? setup.lastDate : (bond.columns.dueDates[k] as number);
    if (method === 'street') {
      flows.push({
        date,
        years: (k - setup.firstIndex + setup.periodFraction) / bond.frequency,
        amount,
        simple: setup.singleFlowSimple,
      });
    } else {
      flows.push({
        date,
        years: (date - setup.settlementDate) / 365,
        amount,
        simple: method === 'money-market' || setup.singleFlowSimple,
      });
    }
  }
  return flows;
}

/** Compounding periods per year of the setup's yield method (0 = simple). */
export function getPeriodsPerYear(setup: PricingSetup): number {
  const method = setup.bond.convention.yieldMethod;
  return method === 'street' ? setup.bond.frequency : method === 'xirr' ? 1 : 0;
}
