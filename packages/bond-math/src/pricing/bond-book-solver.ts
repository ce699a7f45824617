/**
 * The yield of one bond of a book (SPEC SP6): `solveYield`'s Newton iteration — the same first
 * guess, bracket, steps and stopping rules, on the book's arrays — so the result is
 * bit-identical to `getYieldFromPrice`. Internal to the package.
 */
import type { BondBook } from './bond-book-layout';
import { HEADER } from './bond-book-layout';
import { bookSlopeOut, evaluateBookDirtyWithSlope } from './bond-book-evaluate';
import { MAX_NEWTON_ITERATIONS, NEWTON_STEP_TOLERANCE, PREDICTED_ERROR_TOLERANCE, QUADRATIC_STEP_LIMIT } from './yield-solver';

/**
 * First guess of `getInitialGuess` (yield-solver.ts) from the book's flow summary: the cumulant
 * expansion of ln(P/Σa) in L = ln(1 + annual yield), converted to the bond's compounding.
 */
function getBookInitialGuess(header: Float64Array, row: number, targetPer100Original: number): number {
  const meanTime = header[row + HEADER.meanTime] as number;
  const variance = header[row + HEADER.variance] as number;
  const logRatio = Math.log(targetPer100Original / (header[row + HEADER.totalAmount] as number));
  const discriminant = meanTime * meanTime + 2 * variance * logRatio;
  const logGrowth = discriminant > 0 ? (-2 * logRatio) / (meanTime + Math.sqrt(discriminant)) : meanTime / variance;
  const annual = Math.exp(logGrowth) - 1;
  if (!Number.isFinite(annual)) return 0.05;
  if (header[row + HEADER.periodic] === 1) {
    const f = header[row + HEADER.periodsPerYear] as number;
    return f * (Math.pow(1 + Math.max(annual, -0.99), 1 / f) - 1);
  }
  return Math.max(annual, -0.99);
}

/**
 * Solves the book bond's dirty price = target for its yield (its own compounding).
 * @param row - the bond's header row offset; the row must be laid out and solvable.
 * @param targetPer100Original - dirty price per ₹100 original face, positive and finite.
 * @returns the yield, or NaN when Newton does not settle (the caller then takes the per-bond
 *   solver, whose bisection follows the same Newton steps).
 */
export function solveBookBond(book: BondBook, row: number, targetPer100Original: number): number {
  const header = book.header;
  let low = header[row + HEADER.periodic] === 1 ? -(header[row + HEADER.periodsPerYear] as number) : -1;
  let high = Number.POSITIVE_INFINITY;
  let rate = getBookInitialGuess(header, row, targetPer100Original);
  if (!(rate > low)) rate = low + Math.min(1, Math.abs(low) * 0.5);
  let previousStep = Number.NaN;
  for (let iteration = 0; iteration < MAX_NEWTON_ITERATIONS; iteration++) {
    const value = evaluateBookDirtyWithSlope(book, row, rate);
    const slope = bookSlopeOut[0] as number;
    const difference = value - targetPer100Original;
    if (difference === 0) return rate;
    if (difference > 0) low = rate;
    else high = rate;
    const step = difference / slope;
    let next = rate - step;
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
  return Number.NaN;
}
