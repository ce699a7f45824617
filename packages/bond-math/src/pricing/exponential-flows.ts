/**
 * Flows discounted as P = Σ a_k · g^(−e_k) with g = 1 + y/m and a per-flow exponent e_k: the
 * `quantlib` mode (m = f, e_k = f·τ_k, SPEC PY10) and XIRR (m = 1, e_k = (d_k − s)/365, SPEC PY3).
 * Internal to the package.
 *
 * Why: one `exp` per flow per evaluation (44 flows → 44 `exp`, ~0.5 µs) dominated pricing and
 * solving. The exponent steps e_k − e_{k−1} take very few distinct values on a schedule (XIRR:
 * the day gaps 28–31, 89–92, 181–184 or 365–366 over 365; QuantLib mode: f × the day count's
 * fraction of a coupon period, e.g. 1 for ICMA and for most 30/360 periods), so an evaluation
 * takes one `exp` per DISTINCT step and walks the flows with one multiplication each:
 * g^(−e_k) = g^(−e_{k−1}) · g^(−(e_k − e_{k−1})). Each factor is exact to an ulp; over up to
 * 500 multiplications the price and its slope stay within 2e-14 relative of one `exp` per flow
 * (measured in fast-paths.test.ts, SPEC SP3), ~1e-12 per 100 of price: inside the agreement
 * with QuantLib (1e-11), and the solver's 1e-13 in yield is unaffected (it inverts this same
 * function).
 */

/**
 * The buyer's flows of a setup in the exponential form (per ₹100 original face). Plain packed
 * arrays, not typed arrays: a setup is built for every bond priced at a new settlement date,
 * and V8 allocates small typed arrays (off-heap backing stores) far more slowly.
 */
export interface ExponentialFlows {
  /** Compounding periods per year of the rate: f (quantlib) or 1 (XIRR). */
  readonly periodsPerYear: number;
  /** Amounts a_k, the first and last as the setup adjusts them (ex-interest, workout). */
  readonly amounts: readonly number[];
  /** Exponents e_k in compounding periods (the derivative's weights). */
  readonly exponents: readonly number[];
  /** The distinct step exponents; empty when the steps are too varied to share (each flow then takes its own `exp`). */
  readonly steps: readonly number[];
  /** Per flow k ≥ 1, the index in `steps` of its step from flow k − 1 (entry 0 unused). */
  readonly stepOfFlow: readonly number[];
}

/** Beyond this many distinct steps the per-flow `exp` is as cheap; never reached by regular schedules. */
export const MAX_DISTINCT_STEPS = 16;

/** Scratch for the per-evaluation step factors (no allocation per price). */
const stepFactors = new Float64Array(MAX_DISTINCT_STEPS);

/**
 * Scratch for the per-flow exponents and steps a setup computes before they are collected
 * ({@link getExponentScratch}, {@link getStepScratch}) and for the step indices: packed double
 * (and small-integer) arrays reused from setup to setup, so each setup copies out its columns
 * with one `slice` at their final length instead of growing them by `push`.
 */
const exponentScratch: number[] = [0.5];
const stepScratch: number[] = [0.5];
const stepIndexScratch: number[] = [0];

/** The exponent scratch, at least `count` long (fill entries 0..count − 1, then call {@link createExponentialFlows}). */
export function getExponentScratch(count: number): number[] {
  while (exponentScratch.length < count) exponentScratch.push(0.5);
  return exponentScratch;
}

/** The step scratch, at least `count` long. */
export function getStepScratch(count: number): number[] {
  while (stepScratch.length < count) stepScratch.push(0.5);
  return stepScratch;
}

/**
 * Collects the flows; `stepExponents[k]` (k ≥ 1) is e_k − e_{k−1} as the caller computed it
 * (the increment it summed into e_k), so equal gaps give bit-equal steps and share a factor.
 * `exponents` and `stepExponents` may be longer than `amounts` (the scratch arrays above): only
 * their first `amounts.length` entries are read, and the flows keep a copy of `exponents`.
 */
export function createExponentialFlows(
  periodsPerYear: number,
  amounts: readonly number[],
  exponents: readonly number[],
  stepExponents: readonly number[],
): ExponentialFlows {
  const count = amounts.length;
  // Always a copy: `exponents` is often the shared scratch, which the next setup overwrites.
  const ownExponents = exponents.slice(0, count);
  const steps: number[] = [];
  while (stepIndexScratch.length < count) stepIndexScratch.push(0);
  const stepOfFlow = stepIndexScratch;
  // Each step is found by a scan of the (≤ 16) distinct ones so far; the previous flow's step is
  // tried first (consecutive steps are mostly equal). Distinct steps are distinct values, so the
  // index found is the scan's either way (NaN never matches, as in the scan).
  let previousStep = Number.NaN;
  let previousIndex = 0;
  for (let k = 1; k < count; k++) {
    const step = stepExponents[k] as number;
    let index = previousIndex;
    if (step !== previousStep) {
      index = 0;
      while (index < steps.length && steps[index] !== step) index++;
      if (index === steps.length) {
        if (steps.length === MAX_DISTINCT_STEPS) return { periodsPerYear, amounts, exponents: ownExponents, steps: [], stepOfFlow: [] };
        steps.push(step);
      }
      previousStep = step;
      previousIndex = index;
    }
    stepOfFlow[k] = index;
  }
  stepOfFlow[0] = 0;
  return { periodsPerYear, amounts, exponents: ownExponents, steps, stepOfFlow: count > 0 ? stepOfFlow.slice(0, count) : [0] };
}

/** Scratch slot for dP/dy of the last {@link evaluateExponentialFlows} call with `withSlope`. */
export const exponentialSlopeOut = new Float64Array(1);

/**
 * Σ a_k (1 + rate/m)^(−e_k); with `withSlope` also writes dP/d(rate) = −Σ e_k·PV_k / (m + rate)
 * into {@link exponentialSlopeOut}.
 * @param rate - yield compounded m times a year, decimal.
 */
export function evaluateExponentialFlows(flows: ExponentialFlows, rate: number, withSlope: boolean): number {
  const m = flows.periodsPerYear;
  const logGrowth = Math.log1p(rate / m);
  const amounts = flows.amounts;
  const exponents = flows.exponents;
  const steps = flows.steps;
  const n = amounts.length;
  let value = 0;
  let weighted = 0;
  if (steps.length > 0 || n === 1) {
    for (let j = 0; j < steps.length; j++) stepFactors[j] = Math.exp(-(steps[j] as number) * logGrowth);
    const stepOfFlow = flows.stepOfFlow;
    // Two flows per step: the discount chain advances by the pair's product, so the multiplications
    // that depend on the previous discount are half as many (the CPU overlaps the rest).
    let discount = Math.exp(-(exponents[0] as number) * logGrowth);
    value = (amounts[0] as number) * discount;
    let valueOdd = 0;
    let weightedOdd = 0;
    if (withSlope) weighted = (exponents[0] as number) * value;
    let k = 1;
    for (; k + 1 < n; k += 2) {
      const first = stepFactors[stepOfFlow[k] as number] as number;
      const second = stepFactors[stepOfFlow[k + 1] as number] as number;
      const firstDiscount = discount * first;
      discount *= first * second;
      const firstValue = (amounts[k] as number) * firstDiscount;
      const secondValue = (amounts[k + 1] as number) * discount;
      valueOdd += firstValue;
      value += secondValue;
      if (withSlope) {
        weightedOdd += (exponents[k] as number) * firstValue;
        weighted += (exponents[k + 1] as number) * secondValue;
      }
    }
    if (k < n) {
      discount *= stepFactors[stepOfFlow[k] as number] as number;
      const lastValue = (amounts[k] as number) * discount;
      valueOdd += lastValue;
      if (withSlope) weightedOdd += (exponents[k] as number) * lastValue;
    }
    value += valueOdd;
    weighted += weightedOdd;
  } else {
    for (let k = 0; k < n; k++) {
      const e = exponents[k] as number;
      const pv = (amounts[k] as number) * Math.exp(-e * logGrowth);
      value += pv;
      weighted += e * pv;
    }
  }
  if (withSlope) exponentialSlopeOut[0] = -weighted / (m + rate);
  return value;
}
