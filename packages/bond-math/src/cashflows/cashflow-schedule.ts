/**
 * The cash flows a holder of `units` units receives after a settlement date, in
 * paise, on both due and payment dates (doc §4.2: yield uses due dates, money moves
 * on payment dates).
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond, CouponPeriod } from '../instruments/bond';
import { createPricingSetup } from '../pricing/pricing-setup';
import { roundRupeesToPaise } from '../pricing/money';
import { requireArgument } from '../errors';

/** One future cash flow for a quantity. */
export interface CashflowRow {
  /** Unadjusted due date. */
  readonly dueDate: CalendarDate;
  /** Holiday-adjusted payment date. */
  readonly paymentDate: CalendarDate;
  /** Record date, if any. */
  readonly recordDate: CalendarDate | null;
  /** Annual coupon rate of the period, decimal. */
  readonly couponRate: number;
  /** Interest per ₹100 original face. */
  readonly interestPer100: number;
  /** Principal (plus premium) per ₹100 original face. */
  readonly principalPer100: number;
  /** Interest for the quantity, paise (half-up). */
  readonly interestPaise: number;
  /** Principal and premium for the quantity, paise (half-up). */
  readonly principalPaise: number;
  /** Interest + principal, paise. */
  readonly totalPaise: number;
}

/**
 * Future cash flows (due after settlement) for `units` units. A coupon whose record
 * date has passed is left out (it goes to the seller, doc §4.4).
 * @param units - number of units held.
 */
export function getCashflowSchedule(bond: Bond, settlementDate: CalendarDate, units: number): CashflowRow[] {
  requireArgument(Number.isFinite(units) && units > 0, 'units', `must be a positive number of units, got ${units}`);
  const setup = createPricingSetup(bond, settlementDate);
  const perUnit = bond.faceValuePerUnit / 100;
  const rows: CashflowRow[] = [];
  for (let k = setup.firstIndex; k < bond.periods.length; k++) {
    const period = bond.periods[k] as CouponPeriod;
    const interestPer100 = k === setup.firstIndex && setup.exInterest ? 0 : period.interestPer100;
    const principalPer100 = period.principalPer100 + period.premiumPer100;
    const interestPaise = roundRupeesToPaise(units * perUnit * interestPer100);
    const principalPaise = roundRupeesToPaise(units * perUnit * principalPer100);
    rows.push({
      dueDate: period.dueDate,
      paymentDate: period.paymentDate,
      recordDate: period.recordDate,
      couponRate: period.couponRate,
      interestPer100,
      principalPer100,
      interestPaise,
      principalPaise,
      totalPaise: interestPaise + principalPaise,
    });
  }
  return rows;
}
