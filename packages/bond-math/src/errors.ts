/**
 * Typed errors of the bond-math library.
 *
 * Every precondition failure throws a {@link BondMathError} with a stable
 * SCREAMING_SNAKE `code` (STYLE.md practice 7/9) and, where a caller-supplied
 * value is at fault, the name of that `field`, so an edge (CLI, HTTP) can map
 * it to a field error without parsing the message.
 */

/** Stable error codes thrown by the library. */
export type BondMathErrorCode =
  | 'INVALID_DATE'
  | 'INVALID_ARGUMENT'
  | 'INVALID_SCHEDULE'
  | 'SETTLEMENT_BEFORE_ACCRUAL_START'
  | 'NO_FUTURE_CASHFLOWS'
  | 'NO_YIELD_EXISTS'
  | 'YIELD_SOLVER_FAILED'
  | 'YIELD_COMPOUNDING_MISMATCH'
  | 'SETTLEMENT_IN_SHUT_PERIOD'
  | 'NOT_A_BUSINESS_DAY'
  | 'UNSUPPORTED';

/**
 * The one error type the library throws for bad input or an impossible request.
 * `field` names the offending input (e.g. `"settlementDate"`, `"cleanPrice"`).
 */
export class BondMathError extends Error {
  /** Stable machine-readable code. */
  readonly code: BondMathErrorCode;
  /** Name of the caller-supplied field at fault, when there is one. */
  readonly field: string | undefined;

  constructor(code: BondMathErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'BondMathError';
    this.code = code;
    this.field = field;
  }
}

/** Throws INVALID_ARGUMENT naming `field` unless `condition` holds. */
export function requireArgument(condition: boolean, field: string, message: string): asserts condition {
  if (!condition) throw new BondMathError('INVALID_ARGUMENT', `${field}: ${message}`, field);
}
