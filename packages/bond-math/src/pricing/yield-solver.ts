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

/**
 * Stop when a Newton step is below this (relative to max(1, |y|)). Newton converges
 * quadratically here (e_{n+1} ≈ K·e_n², K = P''/2P' of order 10–100), so the point
 * after a 1e-10 step is accurate to ~1e-18, far inside the 1e-10 bar.
 */
const NEWTON_STEP_TOLERANCE = 1e-10;
/** Bisection fallback stops at this bracket width (relative). */
const YIELD_TOLERANCE = 1e-13;
const MAX_NEWTON_ITERATIONS = 60;
const MAX_BISECTIONS = 400;

/** Lowest admissible yield for the method (the price → ∞ there). */
function getLowerBound(setup: PricingSetup): number {
  const method = setup.bond.convention.yieldMethod;
  if (method === 'street') return -setup.bond.frequency;
  if (method === 'xirr') return -1;
  // money market: 1 + y·t > 0 for the longest flow
  const t = (setup.lastDate - setup.settlementDate) / 365;
  return -1 / t;
}

/** Undiscounted sum and amount-weighted mean time (years) of the flows, for the first guess. */
function getInitialGuess(setup: PricingSetup, targetPer100Original: number, totalAmount: number): number {
  const bond = setup.bond;
  const method = bond.convention.yieldMethod;
  let weightedTime = 0;
  const dueDates = bond.columns.dueDates;
  const amounts = bond.columns.amounts;
  for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
    const a = k === setup.firstIndex ? setup.firstAmount : k === setup.lastIndex ? setup.lastAmount : (amounts[k] as number);
    const t =
      method === 'street'
        ? (k - setup.firstIndex + setup.periodFraction) / bond.frequency
        : ((k === setup.lastIndex ? setup.lastDate : (dueDates[k] as number)) - setup.settlementDate) / 365;
    weightedTime += a * t;
  }
  const meanTime = Math.max(weightedTime / totalAmount, 1 / 365);
  const annual = Math.pow(totalAmount / targetPer100Original, 1 / meanTime) - 1;
  if (!Number.isFinite(annual)) return 0.05;
  if (method === 'street') {
    const f = bond.frequency;
    return f * (Math.pow(1 + Math.max(annual, -0.99), 1 / f) - 1);
  }
  if (method === 'money-market') return (totalAmount / targetPer100Original - 1) / meanTime;
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
  let totalAmount = 0;
  let hasNegative = false;
  for (let k = setup.firstIndex; k <= setup.lastIndex; k++) {
    const a = k === setup.firstIndex ? setup.firstAmount : k === setup.lastIndex ? setup.lastAmount : (bond.columns.amounts[k] as number);
    totalAmount += a;
    if (a < 0) hasNegative = true;
  }
  if (!(totalAmount > 0) || hasNegative) {
    throw new BondMathError(
      'NO_YIELD_EXISTS',
      'no yield exists: the buyer receives no positive cash flow after settlement',
      'settlementDate',
    );
  }
  // Closed forms for a single flow under simple interest.
  if (setup.singleFlowSimple) {
    const a = setup.firstAmount;
    if (method === 'street') {
      // a/(1 + w·y/f) = P  ⇒  y = (a/P − 1)·f/w
      return ((a / targetPer100Original - 1) * bond.frequency) / setup.periodFraction;
    }
    const t = (setup.lastDate - setup.settlementDate) / 365;
    return (a / targetPer100Original - 1) / t;
  }
  let low = getLowerBound(setup);
  let high = Number.POSITIVE_INFINITY;
  let rate = getInitialGuess(setup, targetPer100Original, totalAmount);
  if (!(rate > low)) rate = low + Math.min(1, Math.abs(low) * 0.5);
  for (let iteration = 0; iteration < MAX_NEWTON_ITERATIONS; iteration++) {
    const value = evaluatePresentValueWithSlope(setup, rate);
    const slope = slopeOut[0] as number;
    const difference = value - targetPer100Original;
    if (difference === 0) return rate;
    if (difference > 0) low = rate;
    else high = rate;
    let next = rate - difference / slope;
    if (!Number.isFinite(next) || next <= low || next >= high) {
      next = Number.isFinite(high) ? 0.5 * (low + high) : rate + Math.max(1, Math.abs(rate));
    }
    if (Math.abs(next - rate) < NEWTON_STEP_TOLERANCE * Math.max(1, Math.abs(rate)) && next > low && next < high) return next;
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
