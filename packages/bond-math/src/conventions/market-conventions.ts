/**
 * Market conventions as named presets (data, not `if (market === …)` branches;
 * the rateslib pattern, STYLE.md). Every field cites the conventions doc
 * (`docs/conventions.md`, "doc §n") and its sources.
 */
import type { DayCountName } from '../day-count/day-count';
import type { SebiLeapYearRule } from '../day-count/actual-365-366-sebi';
import type { BusinessDayConvention } from '../time/holiday-calendar';

/**
 * How a yield turns into a price.
 * - `street`: compounded at the coupon frequency, exponent in coupon periods with a
 *   broken first period w = (E − A)/E (doc §2, §6; equals Excel `PRICE` basis 4 and QuantLib
 *   for 30E/360 with coupon days ≤ 28 and for ACT/ACT-ICMA; SPEC PY1).
 * - `xirr`: annually compounded, exponent actual days / 365 from settlement to each
 *   due date (Excel `XIRR`; SEBI corporate "annualised yield"; doc §4.3, §4.3a).
 * - `money-market`: simple interest, actual days / 365 (T-bills, CMBs, CPs, CDs; doc §3).
 * - `quantlib` (explicit, never a preset default): QuantLib FixedRateBond, compounded at
 *   the coupon frequency with the day count's year fraction to each flow (SPEC PY10).
 * - `excel` (explicit, never a preset default): Excel PRICE/YIELD for bases 0–4,
 *   exponent k − 1 + DSC/E, accrued (R/f)·A/E (SPEC PY11).
 */
export type YieldMethod = 'street' | 'xirr' | 'money-market' | 'quantlib' | 'excel';

/** How the coupon amount of a period is set. */
export type CouponAmountRule =
  /** c/f per regular period whatever its length (G-secs: "F·c/2 every half-year", doc §2). */
  | 'fixed-per-period'
  /** c × day-count year fraction of the period (SEBI days/365|366, doc §4.1). */
  | 'day-count';

/** Per 100 of which face an amortising bond is quoted (doc §4.7, open item §8.8). */
export type AmortisingPriceBasis = 'outstanding' | 'original';

/** A bond market convention: everything about how a bond of that market is priced. */
export interface BondConvention {
  /** Preset name. */
  readonly name: string;
  /** Day count for accrued interest (and coupon amounts under `day-count`). */
  readonly accrualDayCount: DayCountName;
  /** Leap-year window of the SEBI day count (ignored by other day counts). */
  readonly sebiLeapYearRule: SebiLeapYearRule;
  /** How a period's coupon amount is set. */
  readonly couponAmount: CouponAmountRule;
  /** Yield ↔ price method. */
  readonly yieldMethod: YieldMethod;
  /** When one cash flow remains, discount it with simple interest (Excel `PRICE` n = 1; NSE corporates doc §4.3a). */
  readonly lastPeriodSimpleInterest: boolean;
  /** Business days from trade to settlement (T+n). */
  readonly settlementDays: number;
  /** Calendar days before each due date on which no trade may settle (G-sec shut period = 1, doc §2). */
  readonly shutPeriodDays: number;
  /** Record date = due date − this many calendar days; trades settling after it are ex-interest (doc §4.4); null = none. */
  readonly recordDateDaysBeforeDue: number | null;
  /** Payment-date roll of a coupon falling on a holiday (doc §2, §4.2: next working day). */
  readonly couponPaymentConvention: BusinessDayConvention;
  /** Payment-date roll of the maturity redemption on a holiday (doc §2, §4.2: previous working day). */
  readonly maturityPaymentConvention: BusinessDayConvention;
  /** End-of-month rule for generated schedules. */
  readonly endOfMonth: boolean;
  /** Government security: no stamp duty (doc §2 [S7]). */
  readonly isGovernmentSecurity: boolean;
  /** Stamp duty paid by the buyer as a fraction of consideration (0.000001 = 0.0001 %, doc §4.6 [S7]). */
  readonly stampDutyRate: number;
  /** Quote basis of amortising bonds. */
  readonly amortisingPriceBasis: AmortisingPriceBasis;
}

/**
 * Indian dated G-secs and SDLs (doc §2): semi-annual, 30E/360 accrual [S16][S17],
 * fixed c/2 coupons, street yield semi-annually compounded (Excel `PRICE`/`YIELD`
 * basis 4) [S18][S30], simple interest in the last period as Excel does (selectable,
 * doc §8.3), T+1 [S24], one-day shut period [S23], coupon on a holiday paid next
 * working day and maturity previous working day [S25], no stamp duty [S7].
 */
export const INDIAN_GOVERNMENT_SECURITY: BondConvention = {
  name: 'IN-GSEC',
  accrualDayCount: '30E/360',
  sebiLeapYearRule: 'year-ending-on-due-date',
  couponAmount: 'fixed-per-period',
  yieldMethod: 'street',
  lastPeriodSimpleInterest: true,
  settlementDays: 1,
  shutPeriodDays: 1,
  recordDateDaysBeforeDue: null,
  couponPaymentConvention: 'following',
  maturityPaymentConvention: 'preceding',
  endOfMonth: false,
  isGovernmentSecurity: true,
  stampDutyRate: 0,
  amortisingPriceBasis: 'outstanding',
};

/**
 * SEBI-regulated listed corporate bonds / NCDs (doc §4): actual/365-or-366
 * accrual and coupons [S1][S3][S6], XIRR annual yield on unadjusted due dates
 * [S9][S32] with simple interest for the last flow (doc §4.3a), record date a
 * property of the security (none by default, doc §4.3a/§8.5), coupon on a holiday
 * paid next working day and maturity previous [S1][S3], 0.0001 % stamp duty paid by
 * the buyer [S7][S8], T+1 settlement by default (deal parameter, doc §5).
 */
export const SEBI_CORPORATE_BOND: BondConvention = {
  name: 'IN-SEBI-CORPORATE',
  accrualDayCount: 'ACT/365-366-SEBI',
  sebiLeapYearRule: 'year-ending-on-due-date',
  couponAmount: 'day-count',
  yieldMethod: 'xirr',
  lastPeriodSimpleInterest: true,
  settlementDays: 1,
  shutPeriodDays: 0,
  recordDateDaysBeforeDue: null,
  couponPaymentConvention: 'following',
  maturityPaymentConvention: 'preceding',
  endOfMonth: false,
  isGovernmentSecurity: false,
  stampDutyRate: 0.000001,
  amortisingPriceBasis: 'outstanding',
};

/**
 * T-bills and CMBs (doc §3): discount, simple yield on actual/365 for every tenor
 * [S16b][S21][S22], T+1, government (no stamp duty).
 */
export const INDIAN_TREASURY_BILL: BondConvention = {
  name: 'IN-TBILL',
  accrualDayCount: 'ACT/365F',
  sebiLeapYearRule: 'year-ending-on-due-date',
  couponAmount: 'day-count',
  yieldMethod: 'money-market',
  lastPeriodSimpleInterest: true,
  settlementDays: 1,
  shutPeriodDays: 0,
  recordDateDaysBeforeDue: null,
  couponPaymentConvention: 'following',
  maturityPaymentConvention: 'preceding',
  endOfMonth: false,
  isGovernmentSecurity: true,
  stampDutyRate: 0,
  amortisingPriceBasis: 'outstanding',
};

/**
 * Commercial paper and certificates of deposit: discount instruments with the
 * money-market yield on actual/365 like T-bills (doc §3), but not government
 * securities, so 0.0001 % stamp duty applies (doc §4.6 [S7]).
 */
export const INDIAN_MONEY_MARKET_INSTRUMENT: BondConvention = {
  ...INDIAN_TREASURY_BILL,
  name: 'IN-CP-CD',
  isGovernmentSecurity: false,
  stampDutyRate: 0.000001,
};

/**
 * Plain international street convention: ACT/ACT ICMA, street yield at the coupon
 * frequency compounded through the last period (QuantLib FixedRateBond default).
 * Offered for independent cross-checks, not an Indian market rule.
 */
export const ICMA_STREET: BondConvention = {
  name: 'ICMA-STREET',
  accrualDayCount: 'ACT/ACT-ICMA',
  sebiLeapYearRule: 'year-ending-on-due-date',
  couponAmount: 'fixed-per-period',
  yieldMethod: 'street',
  lastPeriodSimpleInterest: false,
  settlementDays: 2,
  shutPeriodDays: 0,
  recordDateDaysBeforeDue: null,
  couponPaymentConvention: 'following',
  maturityPaymentConvention: 'following',
  endOfMonth: true,
  isGovernmentSecurity: false,
  stampDutyRate: 0,
  amortisingPriceBasis: 'outstanding',
};

/** All presets by name. */
export const BOND_CONVENTIONS: Readonly<Record<string, BondConvention>> = {
  [INDIAN_GOVERNMENT_SECURITY.name]: INDIAN_GOVERNMENT_SECURITY,
  [SEBI_CORPORATE_BOND.name]: SEBI_CORPORATE_BOND,
  [INDIAN_TREASURY_BILL.name]: INDIAN_TREASURY_BILL,
  [INDIAN_MONEY_MARKET_INSTRUMENT.name]: INDIAN_MONEY_MARKET_INSTRUMENT,
  [ICMA_STREET.name]: ICMA_STREET,
};
