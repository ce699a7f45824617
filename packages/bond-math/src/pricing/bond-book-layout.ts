/**
 * The memory layout of a {@link BondBook} (SPEC SP6): one header row of doubles per bond, then
 * the flows of every bond back to back. Internal to the package.
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond } from '../instruments/bond';
import type { BondMathError } from '../errors';

/** Header columns of one bond (a row of `BondBook.header`). */
export const HEADER = {
  /** 1 = flows in the book; 0 = priced through the per-bond API; −1 = refused (NaN). */
  layout: 0,
  /** Index of the bond's first flow in the flow arrays. */
  flowStart: 1,
  /** Number of flows. */
  flowCount: 2,
  /** Index of the bond's first distinct step in `stepExponents`. */
  stepStart: 3,
  /** Number of distinct steps. */
  stepCount: 4,
  /** Compounding periods per year of the rate (f in quantlib mode, 1 for XIRR). */
  periodsPerYear: 5,
  /** Accrued interest per ₹100 original face. */
  accrued: 6,
  /** Multiplier from per-100-original amounts to the quote basis. */
  scale: 7,
  /** Σ a_k (the solver's flow summary, SPEC SP4). */
  totalAmount: 8,
  /** max(Σ a_k·t_k / Σ a_k, 1/365), t_k in years. */
  meanTime: 9,
  /** max(Σ a_k·t_k² / Σ a_k − meanTime², 0). */
  variance: 10,
  /** 1 when the yield is periodic (quantlib), 0 for XIRR; the solver's lower bound follows. */
  periodic: 11,
  /** 1 when the solver may run (positive total, no negative flow, last exponent > 0). */
  solvable: 12,
} as const;
/** Doubles per header row. */
export const HEADER_WIDTH = 13;

/** Bonds at one settlement date in contiguous arrays. Build with {@link createBondBook}. */
export interface BondBook {
  /** The bonds, in the order of every input and output array. */
  readonly bonds: readonly Bond[];
  readonly settlementDate: CalendarDate;
  /** One row of {@link HEADER_WIDTH} doubles per bond. */
  readonly header: Float64Array;
  /** Flow amounts a_k per ₹100 original face, bond after bond. */
  readonly flowAmounts: Float64Array;
  /** Flow exponents e_k in compounding periods. */
  readonly flowExponents: Float64Array;
  /** Per flow k ≥ 1, the index of its step among its bond's distinct steps (entry of flow 0 unused). */
  readonly flowSteps: Uint8Array;
  /** The distinct step exponents, bond after bond. */
  readonly stepExponents: Float64Array;
  /** Why a bond was refused at settlement (its outputs are NaN), by index; empty when none was. */
  readonly errors: ReadonlyMap<number, BondMathError>;
}
