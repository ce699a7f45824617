/**
 * The book's hot loops (SPEC SP6): a bond's dirty price, and its slope, from the book's arrays,
 * in exactly the order of operations of `evaluateExponentialFlows`, so the results are
 * bit-identical to the per-bond API's. Internal to the package.
 */
import type { BondBook } from './bond-book-layout';
import { HEADER } from './bond-book-layout';
import { MAX_DISTINCT_STEPS } from './exponential-flows';

/** Per-evaluation step factors (no allocation per price). */
const stepFactors = new Float64Array(MAX_DISTINCT_STEPS);

/** Scratch slot for dP/d(rate) of the last {@link evaluateBookDirtyWithSlope} call. */
export const bookSlopeOut = new Float64Array(1);

/**
 * Dirty price per ₹100 ORIGINAL face of the book's bond whose header row starts at `row`, at a
 * rate in its compounding: evaluateExponentialFlows's value in the same order of operations.
 */
export function evaluateBookDirty(book: BondBook, row: number, rate: number): number {
  const header = book.header;
  const amounts = book.flowAmounts;
  const stepOfFlow = book.flowSteps;
  // `| 0`: int32 offsets, so the loops below index with integers, not doubles.
  const start = (header[row + HEADER.flowStart] as number) | 0;
  const n = (header[row + HEADER.flowCount] as number) | 0;
  const stepStart = (header[row + HEADER.stepStart] as number) | 0;
  const stepCount = (header[row + HEADER.stepCount] as number) | 0;
  const logGrowth = Math.log1p(rate / (header[row + HEADER.periodsPerYear] as number));
  const steps = book.stepExponents;
  for (let j = 0; j < stepCount; j++) stepFactors[j] = Math.exp(-(steps[stepStart + j] as number) * logGrowth);
  let discount = Math.exp(-(book.flowExponents[start] as number) * logGrowth);
  let value = (amounts[start] as number) * discount;
  let valueOdd = 0;
  const end = start + n;
  let k = start + 1;
  if (stepCount === 1) {
    // One step for every flow (ICMA, most 30/360 bonds: ~45 % of the mixed set): the same
    // products without reading each flow's step index; first · second is the same double.
    const factor = stepFactors[0] as number;
    const pairFactor = factor * factor;
    for (; k + 1 < end; k += 2) {
      const firstDiscount = discount * factor;
      discount *= pairFactor;
      valueOdd += (amounts[k] as number) * firstDiscount;
      value += (amounts[k + 1] as number) * discount;
    }
    if (k < end) {
      discount *= factor;
      valueOdd += (amounts[k] as number) * discount;
    }
    return value + valueOdd;
  }
  for (; k + 1 < end; k += 2) {
    const first = stepFactors[stepOfFlow[k] as number] as number;
    const second = stepFactors[stepOfFlow[k + 1] as number] as number;
    const firstDiscount = discount * first;
    discount *= first * second;
    valueOdd += (amounts[k] as number) * firstDiscount;
    value += (amounts[k + 1] as number) * discount;
  }
  if (k < end) {
    discount *= stepFactors[stepOfFlow[k] as number] as number;
    valueOdd += (amounts[k] as number) * discount;
  }
  return value + valueOdd;
}

/**
 * As {@link evaluateBookDirty}, and writes dP/d(rate) = −Σ e_k·PV_k / (m + rate) into
 * {@link bookSlopeOut} (evaluateExponentialFlows with `withSlope`).
 */
export function evaluateBookDirtyWithSlope(book: BondBook, row: number, rate: number): number {
  const header = book.header;
  const amounts = book.flowAmounts;
  const exponents = book.flowExponents;
  const stepOfFlow = book.flowSteps;
  // `| 0`: int32 offsets, so the loops below index with integers, not doubles.
  const start = (header[row + HEADER.flowStart] as number) | 0;
  const n = (header[row + HEADER.flowCount] as number) | 0;
  const stepStart = (header[row + HEADER.stepStart] as number) | 0;
  const stepCount = (header[row + HEADER.stepCount] as number) | 0;
  const m = header[row + HEADER.periodsPerYear] as number;
  const logGrowth = Math.log1p(rate / m);
  const steps = book.stepExponents;
  for (let j = 0; j < stepCount; j++) stepFactors[j] = Math.exp(-(steps[stepStart + j] as number) * logGrowth);
  let discount = Math.exp(-(exponents[start] as number) * logGrowth);
  let value = (amounts[start] as number) * discount;
  let valueOdd = 0;
  let weighted = (exponents[start] as number) * value;
  let weightedOdd = 0;
  const end = start + n;
  let k = start + 1;
  if (stepCount === 1) {
    // One step for every flow: as in evaluateBookDirty, no step index to read per flow.
    const factor = stepFactors[0] as number;
    const pairFactor = factor * factor;
    for (; k + 1 < end; k += 2) {
      const firstDiscount = discount * factor;
      discount *= pairFactor;
      const firstValue = (amounts[k] as number) * firstDiscount;
      const secondValue = (amounts[k + 1] as number) * discount;
      valueOdd += firstValue;
      value += secondValue;
      weightedOdd += (exponents[k] as number) * firstValue;
      weighted += (exponents[k + 1] as number) * secondValue;
    }
    if (k < end) {
      discount *= factor;
      const lastValue = (amounts[k] as number) * discount;
      valueOdd += lastValue;
      weightedOdd += (exponents[k] as number) * lastValue;
    }
    value += valueOdd;
    weighted += weightedOdd;
    bookSlopeOut[0] = -weighted / (m + rate);
    return value;
  }
  for (; k + 1 < end; k += 2) {
    const first = stepFactors[stepOfFlow[k] as number] as number;
    const second = stepFactors[stepOfFlow[k + 1] as number] as number;
    const firstDiscount = discount * first;
    discount *= first * second;
    const firstValue = (amounts[k] as number) * firstDiscount;
    const secondValue = (amounts[k + 1] as number) * discount;
    valueOdd += firstValue;
    value += secondValue;
    weightedOdd += (exponents[k] as number) * firstValue;
    weighted += (exponents[k + 1] as number) * secondValue;
  }
  if (k < end) {
    discount *= stepFactors[stepOfFlow[k] as number] as number;
    const lastValue = (amounts[k] as number) * discount;
    valueOdd += lastValue;
    weightedOdd += (exponents[k] as number) * lastValue;
  }
  value += valueOdd;
  weighted += weightedOdd;
  bookSlopeOut[0] = -weighted / (m + rate);
  return value;
}
