/**
 * Yield from a dirty price: Newton's method safeguarded by a bracket (bisection
 * whenever a Newton step leaves it). The price is strictly decreasing and convex
 * in the yield for non-negative flows, so the root is unique and Newton converges
 * monotonically once on the low side; a closed form is used when one flow is
 * discounted with simple interest. Never returns silently without converging:
 * it throws NO_YIELD_EXISTS or YIELD_SOLVER_FAILED. Internal to the package.
 */
import type { PricingSetup } from './pricing-setup';
import { evaluatePresentValue, evaluatePresentValueWithSlope, slopeOut } from './discounting';
import { BondMathError } from '../errors';
import { isPeriodCountMethod, isPeriodicMethod } from './named-yield-modes';

/**
 * Stop when a Newton step is below this (relative to max(1, |y|)). Newton converges
 * quadratically here (e_{n+1} ≈ K·e_n², K = P''/2P' of order 10–100), so the point
 * after a 1e-10 step is accurate to ~1e-18, far inside the 1e-10 bar.
 */
export const NEWTON_STEP_TOLERANCE = 1e-10;
/**
 * Newton converges quadratically: after steps δ_(n−1), δ_n the error left after δ_n is about
 * K·δ_n² with K ≈ δ_n/δ_(n−1)², i.e. |δ_n|³/δ_(n−1)². Once a step is below
 * QUADRATIC_STEP_LIMIT and that predicted error below PREDICTED_ERROR_TOLERANCE (both relative
 * to max(1, |y|)), the step's result is returned without one more evaluation to see a step
 * below NEWTON_STEP_TOLERANCE: 1,000 times inside the 1e-13 of SPEC PY6. With the first guess
 * below, a solve on issue 17's mixed set takes 3.1 price evaluations instead of 4.2 (SPEC SP4).
 */
export const QUADRATIC_STEP_LIMIT = 1e-6;
export const PREDICTED_ERROR_TOLERANCE = 1e-16;
/** Bisection fallback stops at this bracket width (relative). */
const YIELD_TOLERANCE = 1e-13;
export const MAX_NEWTON_ITERATIONS = 60;
const MAX_BISECTIONS = 400;

/** Lowest admissible yield for the method (the price → ∞ there). */
function getLowerBound(setup: PricingSetup): number {
  const method = setup.bond.convention.yieldMethod;
  if (isPeriodicMethod(method)) return -setup.bond.frequency;
  if (method === 'xirr') return -1;
  // money market: 1 + y·t > 0 for the longest flow
  const t = (setup.lastDate - setup.settlementDate) / 365;
  return -1 / t;
}

/**
 * The price-independent facts the solver needs of a setup's flows: their undiscounted sum,
 * whether any is negative, and Σ a·t (t in the method's years) for the first guess. Computed
 * on the first solve and kept on the setup, so solving a book at one settlement date walks the
 * flows for them once per bond, not once per solve.
 */
function computeFlowSummary(setup: PricingSetup): void {
  if (!Number.isNaN(setup.flowTotalAmount)) return;
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  const dueDates = bond.columns.dueDates;
  const amounts = bond.columns.amounts;
  let totalAmount = 0;
  let hasNegative = false;
  let weightedTime = 0;
  let weightedSquaredTime = 0;
  for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
    const a = k === setup.firstIndex ? setup.firstAmount : k === setup.lastIndex ? setup.lastAmount : (amounts[k] as number);
    totalAmount += a;
    if (a < 0) hasNegative = true;
    const t =
      setup.flowPeriods !== null
        ? (setup.flowPeriods[k - setup.firstIndex] as number) / bond.frequency
        : isPeriodCountMethod(method)
          ? (k - setup.firstIndex + setup.periodFraction) / bond.frequency
          : ((k === setup.lastIndex ? setup.lastDate : (dueDates[k] as number)) - setup.settlementDate) / 365;
    weightedTime += a * t;
    weightedSquaredTime += a * t * t;
  }
  setup.flowHasNegative = hasNegative;
  setup.flowWeightedTime = weightedTime;
  setup.flowWeightedSquaredTime = weightedSquaredTime;
  setup.flowTotalAmount = totalAmount;
}

/**
 * First guess. With weights w = a/Σa and L = ln(1 + annual yield), P/Σa = Σ w·e^(−t·L); its
 * cumulant expansion ln(P/Σa) ≈ −T·L + ½·V·L² (T, V the weighted mean and variance of the flow
 * times) gives L = −2·ln(P/Σa) / (T + √(T² + 2·V·ln(P/Σa))). The variance term matters for long
 * bonds: the first-order guess (V = 0) is ~2.5e-2 high on a 44-year annual bond and cost Newton
 * two extra price evaluations (issue 17 §2). Money-market yields keep the simple-interest guess.
 */
function getInitialGuess(setup: PricingSetup, targetPer100Original: number): number {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  const totalAmount = setup.flowTotalAmount;
  const weightedTime = setup.flowWeightedTime;
  const weightedSquaredTime = setup.flowWeightedSquaredTime;
  const meanTime = Math.max(weightedTime / totalAmount, 1 / 365);
  if (method === 'money-market') return (totalAmount / targetPer100Original - 1) / meanTime;
  const logRatio = Math.log(targetPer100Original / totalAmount);
  const variance = Math.max(weightedSquaredTime / totalAmount - meanTime * meanTime, 0);
  const discriminant = meanTime * meanTime + 2 * variance * logRatio;
  // No real root (long high-coupon bonds far from par): the quadratic's vertex T/V, where the
  // expansion comes closest; the first-order −ln(P/Σa)/T lies further off there (44-year annual
  // 12.09 % bond at 10.66 %: vertex 12.5 %, first order 6.7 %).
  const logGrowth = discriminant > 0 ? (-2 * logRatio) / (meanTime + Math.sqrt(discriminant)) : meanTime / variance;
  const annual = Math.exp(logGrowth) - 1;
  if (!Number.isFinite(annual)) return 0.05;
  if (isPeriodicMethod(method)) {
    const f = bond.frequency;
    return f * (Math.pow(1 + Math.max(annual, -0.99), 1 / f) - 1);
  }
  return Math.max(annual, -0.99);
}

/**
 * Solves PV(y) = target for y (the bond's native compounding).
 * @param targetPer100Original - dirty price expressed per ₹100 ORIGINAL face.
 * @throws BondMathError NO_YIELD_EXISTS when the price is not positive or the buyer gets no positive flow.
 */
export function solveYield(setup: PricingSetup, targetPer100Original: number): number {
  if (!Number.isFinite(targetPer100Original) || targetPer100Original <= 0) {
    throw new BondMathError(
      'NO_YIELD_EXISTS',
      `no yield exists for a dirty price of ${targetPer100Original * setup.scale} per 100: the dirty price must be positive`,
      'price',
    );
  }
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  computeFlowSummary(setup);
  if (!(setup.flowTotalAmount > 0) || setup.flowHasNegative) {
    throw new BondMathError(
      'NO_YIELD_EXISTS',
      'no yield exists: the buyer receives no positive cash flow after settlement',
      'settlementDate',
    );
  }
  // Flows all due "now" in the method's time (Excel DSC/E = 0, or a 30/360 year fraction of 0
  // to the only flow): the price does not depend on the yield.
  const lastExponent =
    setup.flowPeriods !== null
      ? (setup.flowPeriods[setup.flowPeriods.length - 1] as number)
      : isPeriodCountMethod(method)
        ? setup.lastIndex - setup.firstIndex + setup.periodFraction
        : 1;
  if (!(lastExponent > 0)) {
    throw new BondMathError(
      'NO_YIELD_EXISTS',
      'no yield exists: every remaining flow is discounted over zero time, so the price does not depend on the yield',
      'price',
    );
  }
  // Closed forms for a single flow under simple interest.
  if (setup.singleFlowSimple) {
    const a = setup.firstAmount;
    if (isPeriodCountMethod(method)) {
      // a/(1 + w·y/f) = P  ⇒  y = (a/P − 1)·f/w
      return ((a / targetPer100Original - 1) * bond.frequency) / setup.periodFraction;
    }
    const t = (setup.lastDate - setup.settlementDate) / 365;
    return (a / targetPer100Original - 1) / t;
  }
  let low = getLowerBound(setup);
  let high = Number.POSITIVE_INFINITY;
  let rate = getInitialGuess(setup, targetPer100Original);
  if (!(rate > low)) rate = low + Math.min(1, Math.abs(low) * 0.5);
  let previousStep = Number.NaN; // the last Newton step taken (NaN after a bisection)
  for (let iteration = 0; iteration < MAX_NEWTON_ITERATIONS; iteration++) {
    const value = evaluatePresentValueWithSlope(setup, rate);
    const slope = slopeOut[0] as number;
    const difference = value - targetPer100Original;
    if (difference === 0) return rate;
    if (difference > 0) low = rate;
    else high = rate;
    const step = difference / slope;
    let next = rate - step;
    // Converged: a Newton step this small is accepted even when it lands on (or a rounding
    // past) the bracket bound that this very iterate just set. Sending it to bisection would
    // return the bracket's midpoint, up to a whole previous step away from the root.
    const size = Math.abs(step);
    const scale = Math.max(1, Math.abs(rate));
    if (Number.isFinite(next) && size < NEWTON_STEP_TOLERANCE * scale) return next;
    if (
      size < QUADRATIC_STEP_LIMIT * scale &&
      size < Math.abs(previousStep) &&
      (size * size * size) / (previousStep * previousStep) < PREDICTED_ERROR_TOLERANCE * scale &&
      next > low &&
      next < high
    ) {
      return next;
    }
    previousStep = step;
    if (!Number.isFinite(next) || next <= low || next >= high) {
      next = Number.isFinite(high) ? 0.5 * (low + high) : rate + Math.max(1, Math.abs(rate));
      previousStep = Number.NaN;
    }
    rate = next;
  }
  // Newton did not settle (pathological flows): fall back to plain bisection on the bracket.
  if (!Number.isFinite(high)) {
    high = Math.max(rate, 1);
    while (evaluatePresentValue(setup, high) > targetPer100Original) {
      high *= 2;
      if (high > 1e12) throw new BondMathError('YIELD_SOLVER_FAILED', 'yield solver could not bracket the price', 'price');
    }
  }
  for (let i = 0; i < MAX_BISECTIONS; i++) {
    const middle = 0.5 * (low + high);
    if (evaluatePresentValue(setup, middle) > targetPer100Original) low = middle;
    else high = middle;
    if (high - low < YIELD_TOLERANCE * Math.max(1, Math.abs(middle))) return 0.5 * (low + high);
  }
  throw new BondMathError('YIELD_SOLVER_FAILED', `yield solver did not converge for dirty price ${targetPer100Original}`, 'price');
}
