/**
 * What a bond *is* (QuantLib's instrument/pricing split): its coupon periods on
 * unadjusted due dates, adjusted payment dates, outstanding principal, embedded
 * options and market convention. How it is *valued* lives in `pricing/`.
 *
 * Amounts inside a bond are per ₹100 of ORIGINAL face value; prices and accrued
 * interest handed to callers are per ₹100 of outstanding face (see
 * `BondConvention.amortisingPriceBasis`).
 */
import type { CalendarDate } from '../time/calendar-date';
import type { CouponFrequency, DayCount } from '../day-count/day-count';
import type { BondConvention } from '../conventions/market-conventions';
import type { Compounding } from '../pricing/quote';

/** What kind of instrument a bond is (drives labels and presets, never pricing branches). */
export type InstrumentKind =
  | 'government-security'
  | 'state-development-loan'
  | 'treasury-bill'
  | 'cash-management-bill'
  | 'commercial-paper'
  | 'certificate-of-deposit'
  | 'corporate-bond'
  | 'zero-coupon-bond'
  | 'fixed-coupon-bond'
  | 'floating-rate-bond'
  | 'perpetual-bond';

/** One coupon period: accrual from `accrualStartDate` to `dueDate`, paid on `paymentDate`. */
export interface CouponPeriod {
  /** Unadjusted accrual start (previous due date, or the issue date). */
  readonly accrualStartDate: CalendarDate;
  /** Unadjusted due date; accrual ends here and yield↔price discounts from here (doc §4.2 [S9]). */
  readonly dueDate: CalendarDate;
  /** Holiday-adjusted payment date (informational; pricing uses due dates). */
  readonly paymentDate: CalendarDate;
  /** Record date; trades settling after it are ex-interest. null = none (doc §4.4). */
  readonly recordDate: CalendarDate | null;
  /** Start of the regular (notional) period ending at the due date; ≠ accrualStartDate for a stub. */
  readonly referenceStartDate: CalendarDate;
  /** True for a full regular period. */
  readonly isRegular: boolean;
  /** Annual coupon rate of the period, decimal. */
  readonly couponRate: number;
  /** Principal outstanding during the period, per ₹100 original face. */
  readonly outstandingPer100: number;
  /** Interest paid on the due date, per ₹100 original face. */
  readonly interestPer100: number;
  /** Principal repaid on the due date (reduces outstanding), per ₹100 original face. */
  readonly principalPer100: number;
  /** Redemption premium paid on the due date on top of principal (no accrual), per ₹100 original face. */
  readonly premiumPer100: number;
}

/** A call or put date with its exercise price. */
export interface ExerciseDate {
  /** Exercise (due) date; the bond is redeemed on it. */
  readonly date: CalendarDate;
  /** Clean redemption price per ₹100 of outstanding face, e.g. 100 or 101.5. */
  readonly pricePer100: number;
}

/**
 * Columns of the coupon periods as flat number arrays, precomputed once per bond so
 * the pricing loops (price↔yield) read packed doubles and allocate nothing. (Plain
 * packed arrays, not typed arrays: V8 allocates small typed arrays far more slowly,
 * and bond construction is on the build-then-price hot path.)
 */
export interface BondCashflowColumns {
  /** Due dates (day numbers), ascending. */
  readonly dueDates: readonly number[];
  /** Total cash flow per due date (interest + principal + premium), per ₹100 original face. */
  readonly amounts: readonly number[];
  /** Interest part per due date, per ₹100 original face. */
  readonly interest: readonly number[];
  /** Principal outstanding during each period, per ₹100 original face. */
  readonly outstanding: readonly number[];
  /**
   * Each period's day-count year fraction where the builder computed it for the coupon (NaN
   * elsewhere), or null: the `quantlib` yield mode discounts with the same fractions instead
   * of computing them again for every settlement date (internal to `pricing/`).
   */
  readonly couponYearFractions: readonly number[] | null;
  /**
   * The period list once made (as given, for a bond built from a list); internal, see
   * `instruments/bond-periods.ts`: a generated bond makes it on first access to `periods`.
   */
  periodList: readonly CouponPeriod[] | null;
  /** What a generated bond's periods are made from (internal, `bond-periods.ts`), or null. */
  readonly periodSource: unknown;
  /**
   * Memo of the last settlement-dependent pricing setup (internal to `pricing/`).
   * Pricing a book at one settlement date re-uses it; it never changes a result.
   */
  settlementMemo: unknown;
}

/** A bond (any kind: G-sec, SDL, T-bill, NCD, zero, FRB, perpetual). Immutable. */
export interface Bond {
  /** Instrument kind. */
  readonly kind: InstrumentKind;
  /** ISIN or other identifier, if known. */
  readonly identifier: string | null;
  /** Human description, e.g. "7.18% GS 2033". */
  readonly description: string;
  /** Interest accrues from this date. */
  readonly issueDate: CalendarDate;
  /** Final due date (deemed maturity for a perpetual). */
  readonly maturityDate: CalendarDate;
  /** Coupons per year (also the street yield's compounding). */
  readonly frequency: CouponFrequency;
  /** Face value of one unit in ₹ (₹100 G-sec, ₹1,000 / ₹10,000 / ₹1 lakh / ₹10 lakh NCDs, doc §4.5). */
  readonly faceValuePerUnit: number;
  /** Market convention preset (with any overrides). */
  readonly convention: BondConvention;
  /** Accrual day count resolved from the convention. */
  readonly dayCount: DayCount;
  /** Compounding of this bond's quoted yield. */
  readonly yieldCompounding: Compounding;
  /** Coupon periods, ascending. */
  readonly periods: readonly CouponPeriod[];
  /** Precomputed columns of `periods`. */
  readonly columns: BondCashflowColumns;
  /** Issuer calls, ascending (empty when none). */
  readonly callSchedule: readonly ExerciseDate[];
  /** Investor puts, ascending (empty when none). */
  readonly putSchedule: readonly ExerciseDate[];
  /** True for a perpetual (maturity is deemed, doc §4.7 [S27]). */
  readonly isPerpetual: boolean;
}

/** Builds the columns of a period list. */
export function buildCashflowColumns(periods: readonly CouponPeriod[]): BondCashflowColumns {
  const n = periods.length;
  const dueDates: number[] = [];
  const amounts: number[] = [];
  const interest: number[] = [];
  const outstanding: number[] = [];
  for (let i = 0; i < n; i++) {
    const period = periods[i] as CouponPeriod;
    dueDates.push(period.dueDate);
    interest.push(period.interestPer100);
    amounts.push(period.interestPer100 + period.principalPer100 + period.premiumPer100);
    outstanding.push(period.outstandingPer100);
  }
  return {
    dueDates,
    amounts,
    interest,
    outstanding,
    couponYearFractions: null,
    periodList: periods,
    periodSource: null,
    settlementMemo: null,
  };
}
