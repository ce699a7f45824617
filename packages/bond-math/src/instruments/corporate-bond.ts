/**
 * SEBI-regime listed corporate bonds / NCDs (doc §4): actual/365-or-366 coupons
 * and accrual, XIRR yield on unadjusted due dates, outstanding face for
 * amortising bonds, record-date ex-interest; schedule generated from maturity or
 * taken from the term sheet (step-up, partial and cumulative redemption).
 */
import type { CalendarDate } from '../time/calendar-date';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import type { StubType } from '../time/schedule';
import type { CouponFrequency } from '../day-count/day-count';
import type { SebiLeapYearRule } from '../day-count/actual-365-366-sebi';
import { getDayCount } from '../day-count/registry';
import type { BondConvention } from '../conventions/market-conventions';
import { SEBI_CORPORATE_BOND } from '../conventions/market-conventions';
import type { CouponStep, PrincipalRepayment } from '../cashflows/coupon-periods';
import type { TermSheetCashflow } from '../cashflows/term-sheet';
import { buildPeriodsFromTermSheet } from '../cashflows/term-sheet';
import type { Bond } from './bond';
import type { BondIdentity } from './fixed-coupon-bond';
import { assembleBond, createFixedCouponBond, validateBondInputs } from './fixed-coupon-bond';
import { BondMathError } from '../errors';

/** Inputs of {@link createCorporateBond}. */
export interface CorporateBondSpec extends BondIdentity {
  /** Allotment / deemed date of allotment: interest accrues from it. */
  readonly issueDate: CalendarDate;
  /** Final due date (required unless `cashflows` is given). */
  readonly maturityDate?: CalendarDate;
  /** Annual coupon rate, decimal (required unless `cashflows` is given). */
  readonly couponRate?: number;
  /** Coupons per year from the term sheet (doc §4.3a: frequency must come from the term sheet). */
  readonly frequency: CouponFrequency;
  /** Record date: calendar days before each due date (NCDs commonly 15, doc §4.4); omit for none. */
  readonly recordDateDaysBeforeDue?: number | null;
  /** SEBI leap-year window (doc §8.1); default `year-ending-on-due-date`. */
  readonly sebiLeapYearRule?: SebiLeapYearRule;
  /** End-of-month rule for the generated schedule. */
  readonly endOfMonth?: boolean;
  /** Stub placement for an issue date off the roll. */
  readonly stub?: StubType;
  /** First coupon date, if fixed by the term sheet. */
  readonly firstCouponDate?: CalendarDate;
  /** Step-up / step-down coupons. */
  readonly couponSteps?: readonly CouponStep[];
  /** Partial redemptions per ₹100 original face. */
  readonly principalRepayments?: readonly PrincipalRepayment[];
  /** Redemption price at maturity per ₹100 outstanding (default 100). */
  readonly redemptionPer100?: number;
  /** Term-sheet cash-flow table; when given, the schedule is taken from it instead of generated. */
  readonly cashflows?: readonly TermSheetCashflow[];
  /** Convention fields to override. */
  readonly conventionOverrides?: Partial<BondConvention>;
}

/** The SEBI corporate convention with a bond's own record date and leap-year rule. */
export function getCorporateConvention(spec: {
  readonly recordDateDaysBeforeDue?: number | null;
  readonly sebiLeapYearRule?: SebiLeapYearRule;
  readonly conventionOverrides?: Partial<BondConvention>;
}): BondConvention {
  return {
    ...SEBI_CORPORATE_BOND,
    recordDateDaysBeforeDue: spec.recordDateDaysBeforeDue ?? null,
    sebiLeapYearRule: spec.sebiLeapYearRule ?? SEBI_CORPORATE_BOND.sebiLeapYearRule,
    ...spec.conventionOverrides,
  };
}

/**
 * Creates a SEBI corporate bond / NCD.
 * @throws BondMathError INVALID_ARGUMENT naming the missing or bad field.
 */
export function createCorporateBond(spec: CorporateBondSpec): Bond {
  const convention = getCorporateConvention(spec);
  if (spec.cashflows) {
    validateBondInputs({ frequency: spec.frequency, faceValuePerUnit: spec.faceValuePerUnit });
    const faceValuePerUnit = spec.faceValuePerUnit ?? 100;
    const periods = buildPeriodsFromTermSheet({
      issueDate: spec.issueDate,
      faceValuePerUnit,
      cashflows: spec.cashflows,
      frequency: spec.frequency,
      dayCount: getDayCount(convention.accrualDayCount, convention.sebiLeapYearRule),
      convention,
      calendar: spec.calendar ?? INDIA_SETTLEMENT_CALENDAR,
    });
    return assembleBond({
      kind: 'corporate-bond',
      identifier: spec.identifier,
      description: spec.description,
      frequency: spec.frequency,
      faceValuePerUnit,
      convention,
      periods,
      callSchedule: spec.callSchedule,
      putSchedule: spec.putSchedule,
    });
  }
  if (spec.maturityDate === undefined) throw new BondMathError('INVALID_ARGUMENT', 'maturityDate is required', 'maturityDate');
  if (spec.couponRate === undefined) throw new BondMathError('INVALID_ARGUMENT', 'couponRate is required', 'couponRate');
  return createFixedCouponBond(
    { ...spec, maturityDate: spec.maturityDate, couponRate: spec.couponRate },
    { kind: 'corporate-bond', convention },
  );
}
