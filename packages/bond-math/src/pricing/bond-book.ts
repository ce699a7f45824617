/**
 * A book of bonds at one settlement date, laid out for pricing many bonds in one pass
 * (issue 17 §2, SPEC SP6). Results are bit-identical to the per-bond API
 * (`getCleanPriceFromYield`, `getYieldFromPrice`); only the memory layout differs.
 *
 * Why: on 20,000 bonds the per-bond API waits for memory. Each price follows a chain of
 * dependent loads (bond → columns → memoised setup → flow arrays) to objects scattered over
 * the heap, and the CPU cannot start the next bond's loads until the chain resolves. A book
 * copies every bond's flows once into a few contiguous typed arrays (struct of arrays: one
 * header row per bond, then amounts, exponents and step indices back to back), so a pass over
 * the book reads memory in order and the hardware prefetcher has the next bond in cache before
 * it is needed.
 *
 * Bonds whose setup is not in the exponential form (street, Excel and money-market yields,
 * XIRR with one simple-interest flow left, flows too varied to share steps) keep a header row
 * marked "per bond" and are priced and solved through the per-bond functions, so every bond
 * gets the per-bond answer. A bond the per-bond API would refuse (settlement before issue, no
 * future flow, no yield for the price) gets NaN, and the refusal is kept in `errors`.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond } from '../instruments/bond';
import { BondMathError } from '../errors';
import type { PricingSetup } from './pricing-setup';
import { createPricingSetup } from './pricing-setup';
import { cleanPrice } from './quote';
import { getCleanPriceFromYield, getYieldFromPrice } from './price-yield';
import { isPeriodicMethod } from './named-yield-modes';
import { evaluateBookDirty } from './bond-book-evaluate';
import { solveBookBond } from './bond-book-solver';
import type { BondBook } from './bond-book-layout';
import { HEADER, HEADER_WIDTH } from './bond-book-layout';

/** True when the setup's flows are in the exponential form with shared steps (the evaluator's fast branch). */
function isBookLayout(setup: PricingSetup): boolean {
  const flows = setup.exponentialFlows;
  return flows !== null && (flows.steps.length > 0 || flows.amounts.length === 1);
}

/**
 * Copies each bond's settlement facts and flows into a book (SPEC SP6).
 * @param bonds - any bonds; those outside the exponential form are priced per bond.
 * @param settlementDate - the settlement date of every price and yield asked of the book.
 * @throws BondMathError INVALID_DATE when `settlementDate` is not a CalendarDate.
 */
export function createBondBook(bonds: readonly Bond[], settlementDate: CalendarDate): BondBook {
  if (!Number.isInteger(settlementDate)) {
    // The per-bond API refuses it for every bond alike: once here, not as 20,000 NaNs.
    throw new BondMathError('INVALID_DATE', 'settlementDate must be a CalendarDate', 'settlementDate');
  }
  const count = bonds.length;
  const setups: (PricingSetup | null)[] = [];
  const errors = new Map<number, BondMathError>();
  let flowTotal = 0;
  let stepTotal = 0;
  for (let i = 0; i < count; i++) {
    let setup: PricingSetup | null = null;
    try {
      setup = createPricingSetup(bonds[i] as Bond, settlementDate);
    } catch (error) {
      if (!(error instanceof BondMathError)) throw error;
      errors.set(i, error);
    }
    setups.push(setup);
    if (setup !== null && isBookLayout(setup)) {
      flowTotal += (setup.exponentialFlows as NonNullable<PricingSetup['exponentialFlows']>).amounts.length;
      stepTotal += (setup.exponentialFlows as NonNullable<PricingSetup['exponentialFlows']>).steps.length;
    }
  }
  const header = new Float64Array(count * HEADER_WIDTH);
  const flowAmounts = new Float64Array(flowTotal);
  const flowExponents = new Float64Array(flowTotal);
  const flowSteps = new Uint8Array(flowTotal);
  const stepExponents = new Float64Array(stepTotal);
  let flowAt = 0;
  let stepAt = 0;
  for (let i = 0; i < count; i++) {
    const row = i * HEADER_WIDTH;
    const setup = setups[i] as PricingSetup | null;
    if (setup === null) {
      header[row + HEADER.layout] = -1;
      continue;
    }
    if (!isBookLayout(setup)) continue; // layout 0: per bond
    const flows = setup.exponentialFlows as NonNullable<PricingSetup['exponentialFlows']>;
    const n = flows.amounts.length;
    const m = flows.periodsPerYear;
    // The solver's flow summary exactly as yield-solver.ts computes it: t_k = e_k/m years
    // (quantlib: flowPeriods/f; XIRR: (d_k − s)/365 with m = 1), summed in flow order.
    let totalAmount = 0;
    let hasNegative = false;
    let weightedTime = 0;
    let weightedSquaredTime = 0;
    for (let k = 0; k < n; k++) {
      const a = flows.amounts[k] as number;
      const e = flows.exponents[k] as number;
      flowAmounts[flowAt + k] = a;
      flowExponents[flowAt + k] = e;
      flowSteps[flowAt + k] = k === 0 ? 0 : (flows.stepOfFlow[k] as number);
      totalAmount += a;
      if (a < 0) hasNegative = true;
      const t = e / m;
      weightedTime += a * t;
      weightedSquaredTime += a * t * t;
    }
    for (let j = 0; j < flows.steps.length; j++) stepExponents[stepAt + j] = flows.steps[j] as number;
    const periodic = isPeriodicMethod(setup.bond.convention.yieldMethod);
    // The last flow's exponent: the solver refuses a price that does not depend on the yield.
    const lastExponent = periodic ? (flows.exponents[n - 1] as number) : 1;
    const meanTime = Math.max(weightedTime / totalAmount, 1 / 365);
    header[row + HEADER.layout] = 1;
    header[row + HEADER.flowStart] = flowAt;
    header[row + HEADER.flowCount] = n;
    header[row + HEADER.stepStart] = stepAt;
    header[row + HEADER.stepCount] = flows.steps.length;
    header[row + HEADER.periodsPerYear] = m;
    header[row + HEADER.accrued] = setup.accruedPer100Original;
    header[row + HEADER.scale] = setup.scale;
    header[row + HEADER.totalAmount] = totalAmount;
    header[row + HEADER.meanTime] = meanTime;
    header[row + HEADER.variance] = Math.max(weightedSquaredTime / totalAmount - meanTime * meanTime, 0);
    header[row + HEADER.periodic] = periodic ? 1 : 0;
    header[row + HEADER.solvable] = totalAmount > 0 && !hasNegative && lastExponent > 0 ? 1 : 0;
    flowAt += n;
    stepAt += flows.steps.length;
  }
  // A copy of the list: the caller may reorder or reuse its array; the rows follow this one.
  return { bonds: bonds.slice(), settlementDate, header, flowAmounts, flowExponents, flowSteps, stepExponents, errors };
}

/**
 * Clean prices per ₹100 of every bond of the book at the given yields: out[i] equals
 * `getCleanPriceFromYield(book.bonds[i], book.settlementDate, makeYield(rates[i], bond.yieldCompounding)).per100`.
 * @param ratesInBondCompounding - yield of each bond, decimal, in its own `yieldCompounding`.
 * @param cleanPricesPer100Out - receives the clean prices; NaN for a refused bond or a non-finite yield.
 */
export function getBookCleanPrices(book: BondBook, ratesInBondCompounding: Float64Array, cleanPricesPer100Out: Float64Array): void {
  checkLengths(book, ratesInBondCompounding, cleanPricesPer100Out);
  const header = book.header;
  const count = book.bonds.length;
  for (let i = 0; i < count; i++) {
    const row = i * HEADER_WIDTH;
    const layout = header[row + HEADER.layout] as number;
    const rate = ratesInBondCompounding[i] as number;
    if (layout === 1 && Number.isFinite(rate)) {
      const dirty = evaluateBookDirty(book, row, rate);
      cleanPricesPer100Out[i] = (dirty - (header[row + HEADER.accrued] as number)) * (header[row + HEADER.scale] as number);
    } else {
      cleanPricesPer100Out[i] = layout === -1 ? Number.NaN : getCleanPricePerBond(book, i, rate);
    }
  }
}

/**
 * Yields of every bond of the book from clean prices: out[i] equals
 * `getYieldFromPrice(book.bonds[i], book.settlementDate, cleanPrice(prices[i])).rate`, in the bond's
 * `yieldCompounding`.
 * @param cleanPricesPer100 - clean price of each bond per ₹100.
 * @param ratesOut - receives the yields, decimal; NaN where the per-bond API throws (no yield exists, refused bond).
 */
export function getBookYields(book: BondBook, cleanPricesPer100: Float64Array, ratesOut: Float64Array): void {
  checkLengths(book, cleanPricesPer100, ratesOut);
  const header = book.header;
  const count = book.bonds.length;
  for (let i = 0; i < count; i++) {
    const row = i * HEADER_WIDTH;
    const layout = header[row + HEADER.layout] as number;
    const price = cleanPricesPer100[i] as number;
    if (layout === 1 && header[row + HEADER.solvable] === 1 && Number.isFinite(price)) {
      const target = price / (header[row + HEADER.scale] as number) + (header[row + HEADER.accrued] as number);
      const rate = target > 0 ? solveBookBond(book, row, target) : Number.NaN;
      // Newton did not settle (never seen on regular schedules): the per-bond solver's bisection.
      ratesOut[i] = Number.isNaN(rate) && target > 0 ? getYieldPerBond(book, i, price) : rate;
    } else {
      ratesOut[i] = layout === -1 ? Number.NaN : getYieldPerBond(book, i, price);
    }
  }
}

function checkLengths(book: BondBook, input: Float64Array, output: Float64Array): void {
  if (input.length !== book.bonds.length || output.length !== book.bonds.length) {
    throw new BondMathError(
      'INVALID_ARGUMENT',
      `the book has ${book.bonds.length} bonds; got ${input.length} inputs and room for ${output.length} results`,
      'book',
    );
  }
}

function getCleanPricePerBond(book: BondBook, index: number, rate: number): number {
  const bond = book.bonds[index] as Bond;
  try {
    return getCleanPriceFromYield(bond, book.settlementDate, { rate, compounding: bond.yieldCompounding }).per100;
  } catch (error) {
    if (error instanceof BondMathError) return Number.NaN;
    throw error;
  }
}

function getYieldPerBond(book: BondBook, index: number, price: number): number {
  try {
    return getYieldFromPrice(book.bonds[index] as Bond, book.settlementDate, cleanPrice(price)).rate;
  } catch (error) {
    if (error instanceof BondMathError) return Number.NaN;
    throw error;
  }
}
