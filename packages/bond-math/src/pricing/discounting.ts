/**
 * The hot loops: present value of the buyer's flows at a yield, with its first
 * derivative, for the three yield methods. Internal to the package.
 *
 * Street (doc §2, §6; Excel PRICE, QuantLib FixedRateBond):
 *   P = Σ_{k=0..n−1} a_k · v^(k+w),  v = 1/(1 + y/f)
 * evaluated by Horner's rule in v (one `pow` per price, no allocation). With one
 * flow left and `lastPeriodSimpleInterest`, P = a/(1 + w·y/f) (Excel PRICE n = 1).
 *
 * XIRR (doc §4.3; SEBI corporates): P = Σ a_i (1 + y)^(−(d_i − s)/365), walked with one `exp`
 * per distinct day gap (`exponential-flows.ts`, SPEC SP3); one flow left → a/(1 + y·t) (doc §4.3a).
 *
 * Money market (doc §3): P = Σ a_i / (1 + y·(d_i − s)/365).
 *
 * Excel (SPEC PY11) is the street formula with w = DSC/E; QuantLib (SPEC PY10) is
 * P = Σ a_k (1 + y/f)^(−e_k) with e_k = `setup.flowPeriods[k]` (f × year fraction), walked
 * like XIRR (`setup.exponentialFlows`).
 *
 * All amounts and results are per ₹100 ORIGINAL face; callers apply `setup.scale`.
 */
import type { PricingSetup } from './pricing-setup';
import { isPeriodCountMethod, isPeriodicMethod } from './named-yield-modes';
import { evaluateExponentialFlows, exponentialSlopeOut } from './exponential-flows';

/** Scratch slot for the derivative of the last {@link evaluatePresentValueWithSlope} call (avoids allocating a pair). */
export const slopeOut = new Float64Array(1);

/** Scratch slot for Σ j·a_j·v^j of the last {@link hornerStreet} call with `withTimes`. */
const timeWeightedOut = new Float64Array(1);

/**
 * Σ_{j=0}^{n−1} a_j v^j over the setup's street flows (a_0 = firstAmount,
 * a_{n−1} = lastAmount, others from the bond's columns), n ≥ 2, by Horner's rule
 * split into even and odd chains in v² so the two dependency chains run in
 * parallel on the CPU. With `withTimes` it also accumulates Σ j·a_j·v^j into
 * `timeWeightedOut[0]` (for the derivative).
 */
function hornerStreet(setup: PricingSetup, v: number, withTimes: boolean): number {
  const amounts = setup.bond.columns.amounts;
  const first = setup.firstIndex;
  const top = setup.lastIndex - first; // n − 1 ≥ 1
  const v2 = v * v;
  let even: number;
  let odd: number;
  let evenTimes = 0;
  let oddTimes = 0;
  let j: number;
  if ((top & 1) === 1) {
    odd = setup.lastAmount;
    even = top - 1 === 0 ? setup.firstAmount : (amounts[first + top - 1] as number);
    if (withTimes) {
      oddTimes = top * odd;
      evenTimes = (top - 1) * even;
    }
    j = top - 2;
  } else {
    even = setup.lastAmount;
    odd = 0;
    if (withTimes) evenTimes = top * even;
    j = top - 1;
  }
  // j is odd here: consume pairs (j, j − 1) down to (1, 0); index 0 is firstAmount.
  if (withTimes) {
    for (; j >= 3; j -= 2) {
      const aOdd = amounts[first + j] as number;
      const aEven = amounts[first + j - 1] as number;
      odd = odd * v2 + aOdd;
      even = even * v2 + aEven;
      oddTimes = oddTimes * v2 + j * aOdd;
      evenTimes = evenTimes * v2 + (j - 1) * aEven;
    }
    if (j === 1) {
      const aOdd = amounts[first + 1] as number;
      odd = odd * v2 + aOdd;
      even = even * v2 + setup.firstAmount;
      oddTimes = oddTimes * v2 + aOdd;
      evenTimes = evenTimes * v2;
    }
    timeWeightedOut[0] = evenTimes + v * oddTimes;
  } else {
    for (; j >= 3; j -= 2) {
      odd = odd * v2 + (amounts[first + j] as number);
      even = even * v2 + (amounts[first + j - 1] as number);
    }
    if (j === 1) {
      odd = odd * v2 + (amounts[first + 1] as number);
      even = even * v2 + setup.firstAmount;
    }
  }
  return even + v * odd;
}

/**
 * Present value of the setup's flows at `rate` (per ₹100 original face), value only.
 * @param rate - yield in the bond's native compounding, decimal.
 */
export function evaluatePresentValue(setup: PricingSetup, rate: number): number {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  if (isPeriodCountMethod(method)) {
    const f = bond.frequency;
    const w = setup.periodFraction;
    if (setup.firstIndex === setup.lastIndex) {
      if (setup.singleFlowSimple) return setup.firstAmount / (1 + (w * rate) / f);
      return setup.firstAmount * Math.pow(1 + rate / f, -w);
    }
    const periodic = rate / f;
    const v = 1 / (1 + periodic);
    // v^w as exp(−w·log1p(y/f)): cheaper than Math.pow in V8 and accurate near y = 0.
    return Math.exp(-w * Math.log1p(periodic)) * hornerStreet(setup, v, false);
  }
  if (setup.exponentialFlows !== null) return evaluateExponentialFlows(setup.exponentialFlows, rate, false);
  return evaluatePresentValueWithSlope(setup, rate);
}

/**
 * Present value of the setup's flows at `rate` (per ₹100 original face); writes
 * dPV/dy into `slopeOut[0]`.
 * @param rate - yield in the bond's native compounding, decimal.
 */
export function evaluatePresentValueWithSlope(setup: PricingSetup, rate: number): number {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  const first = setup.firstIndex;
  const last = setup.lastIndex;
  const amounts = bond.columns.amounts;
  const simpleLast = setup.singleFlowSimple;
  if (isPeriodCountMethod(method)) {
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
    const periodic = rate / f;
    const v = 1 / (1 + periodic);
    const vw = Math.exp(-w * Math.log1p(periodic));
    const sum = hornerStreet(setup, v, true);
    // P = v^w·S(v); dP/dy = dP/dv·dv/dy = v^(w−1)·(w·S + Σ j·a_j·v^j)·(−v²/f)
    slopeOut[0] = -vw * (w * sum + (timeWeightedOut[0] as number)) * (v / f);
    return vw * sum;
  }
  if (setup.exponentialFlows !== null) {
    // quantlib: Σ a_k (1 + y/f)^(−e_k); XIRR: Σ a_k (1 + y)^(−t_k); dP/dy = −Σ e_k·PV_k / (m + y).
    const value = evaluateExponentialFlows(setup.exponentialFlows, rate, true);
    slopeOut[0] = exponentialSlopeOut[0] as number;
    return value;
  }
  const settlement = setup.settlementDate;
  const dueDates = bond.columns.dueDates;
  if (method === 'xirr') {
    // One flow left, due within a year: simple interest (doc §4.3a).
    const t = (setup.lastDate - settlement) / 365;
    const d = 1 + rate * t;
    slopeOut[0] = (-setup.firstAmount * t) / (d * d);
    return setup.firstAmount / d;
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
    if (setup.flowPeriods !== null) {
      flows.push({ date, years: (setup.flowPeriods[k - setup.firstIndex] as number) / bond.frequency, amount, simple: false });
    } else if (isPeriodCountMethod(method)) {
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
  return isPeriodicMethod(method) ? setup.bond.frequency : method === 'xirr' ? 1 : 0;
}
