/**
 * @dart/bond-math: a pure fixed-income library for the Indian debt market.
 * No runtime dependencies, no I/O, no clock. Explicit named exports only.
 * See ../README.md (API, CLI) and ../SPEC.md (rules and their sources).
 */

// errors
export type { BondMathErrorCode } from './errors';
export { BondMathError } from './errors';

// time: dates, calendars, settlement, schedules
export type { CalendarDate } from './time/calendar-date';
export {
  makeDate,
  parseDate,
  formatDate,
  getYear,
  getMonth,
  getDayOfMonth,
  getWeekday,
  isLeapYear,
  isEndOfMonth,
  getDaysInMonth,
  addDays,
  addMonths,
  addYears,
  getActualDays,
  minDate,
  maxDate,
} from './time/calendar-date';
export type { HolidayCalendar, HolidayEntry, BusinessDayConvention } from './time/holiday-calendar';
export { createHolidayCalendar, adjustDate, addBusinessDays, countBusinessDays, WEEKENDS_ONLY_CALENDAR } from './time/holiday-calendar';
export { INDIA_SETTLEMENT_HOLIDAYS, INDIA_SETTLEMENT_CALENDAR } from './time/india-holidays';
export { getSettlementDate } from './time/settlement';
export type { ScheduleSpec, SchedulePeriod, ScheduleDates, StubType } from './time/schedule';
export { generateSchedule, generateScheduleDates, expandScheduleDates } from './time/schedule';

// day counts
export type { DayCount, DayCountName, CouponFrequency, YearFractionContext } from './day-count/day-count';
export { THIRTY_E_360, getThirtyE360Days } from './day-count/thirty-e-360';
export { THIRTY_360_BOND_BASIS, getThirty360BondBasisDays } from './day-count/thirty-360-bond-basis';
export { ACTUAL_365_FIXED } from './day-count/actual-365-fixed';
export { ACTUAL_360 } from './day-count/actual-360';
export { ACTUAL_ACTUAL_ISDA, getActualActualIsdaYearFraction } from './day-count/actual-actual-isda';
export { ACTUAL_ACTUAL_ICMA, getActualActualIcmaYearFraction } from './day-count/actual-actual-icma';
export type { SebiLeapYearRule } from './day-count/actual-365-366-sebi';
export { ACTUAL_365_366_SEBI, createSebiActualDayCount, getSebiDenominator, containsLeapDay } from './day-count/actual-365-366-sebi';
export { getDayCount, DAY_COUNT_NAMES } from './day-count/registry';

// conventions (presets as data)
export type { BondConvention, YieldMethod, CouponAmountRule, AmortisingPriceBasis } from './conventions/market-conventions';
export {
  INDIAN_GOVERNMENT_SECURITY,
  SEBI_CORPORATE_BOND,
  INDIAN_TREASURY_BILL,
  INDIAN_MONEY_MARKET_INSTRUMENT,
  ICMA_STREET,
  BOND_CONVENTIONS,
} from './conventions/market-conventions';

// cash flows
export type { CouponStep, PrincipalRepayment } from './cashflows/coupon-periods';
export type { TermSheetCashflow } from './cashflows/term-sheet';
export type { CashflowRow } from './cashflows/cashflow-schedule';
export { getCashflowSchedule } from './cashflows/cashflow-schedule';

// instruments
export type { Bond, CouponPeriod, ExerciseDate, InstrumentKind, BondCashflowColumns } from './instruments/bond';
export type { FixedCouponBondSpec, BondIdentity } from './instruments/fixed-coupon-bond';
export { createFixedCouponBond } from './instruments/fixed-coupon-bond';
export type { GovernmentSecuritySpec, LastPeriodTreatment } from './instruments/government-security';
export { createGovernmentSecurity } from './instruments/government-security';
export type { CorporateBondSpec } from './instruments/corporate-bond';
export { createCorporateBond } from './instruments/corporate-bond';
export type { ZeroCouponBondSpec } from './instruments/zero-coupon-bond';
export { createZeroCouponBond } from './instruments/zero-coupon-bond';
export type { DiscountInstrumentSpec, DiscountInstrumentKind } from './instruments/discount-instrument';
export { createDiscountInstrument } from './instruments/discount-instrument';
export type { FloatingRateBondSpec, KnownCoupon } from './instruments/floating-rate-bond';
export { createFloatingRateGovernmentBond } from './instruments/floating-rate-bond';
export type { PerpetualBondSpec } from './instruments/perpetual-bond';
export { createPerpetualBond } from './instruments/perpetual-bond';

// pricing
export type { CleanPrice, DirtyPrice, BondPrice, Yield, Compounding } from './pricing/quote';
export { cleanPrice, dirtyPrice, makeYield, convertYield, getCompoundingForFrequency, getCompoundingPeriodsPerYear } from './pricing/quote';
export type { AccruedInterest, PriceFromYield } from './pricing/price-yield';
export {
  getAccruedInterest,
  getDirtyPriceFromYield,
  getCleanPriceFromYield,
  getPriceFromYield,
  getYieldFromPrice,
  toDirtyPrice,
  toCleanPrice,
} from './pricing/price-yield';
export type { BondBook } from './pricing/bond-book-layout';
export { createBondBook, getBookCleanPrices, getBookYields } from './pricing/bond-book';
export type { RiskMeasures } from './pricing/risk';
export { getRiskMeasures } from './pricing/risk';
export type { WorkoutKind, YieldToWorkout, PriceToWorkout, WorkoutResult } from './pricing/embedded-options';
export {
  getYieldToCall,
  getYieldToPut,
  getYieldToWorst,
  getPriceToWorst,
  getYieldToWorkout,
  getPriceToWorkout,
} from './pricing/embedded-options';
export type { Consideration, StampDutyRounding } from './pricing/consideration';
export { getConsideration, getStampDutyPaise } from './pricing/consideration';
export { roundRupeesToPaise, formatPaise } from './pricing/money';
export { isInShutPeriod, assertSettlementAllowed, getBondSettlementDate } from './pricing/settlement-checks';
