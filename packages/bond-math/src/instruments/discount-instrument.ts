/**
 * Discount money-market instruments (doc §3): T-bills (91/182/364 days), CMBs,
 * commercial paper and certificates of deposit. Issued at a discount, redeemed at
 * par; price ↔ yield by simple interest on actual/365: P = 100/(1 + y·D/365) [S21][S22].
 */
import type { CalendarDate } from '../time/calendar-date';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import { INDIAN_MONEY_MARKET_INSTRUMENT, INDIAN_TREASURY_BILL } from '../conventions/market-conventions';
import { buildCouponPeriods } from '../cashflows/coupon-periods';
import { getDayCount } from '../day-count/registry';
import type { Bond } from './bond';
import type { BondIdentity } from './fixed-coupon-bond';
import { assembleBond, validateBondInputs } from './fixed-coupon-bond';
import { BondMathError } from '../errors';

/** Kinds of discount instrument. */
export type DiscountInstrumentKind = 'treasury-bill' | 'cash-management-bill' | 'commercial-paper' | 'certificate-of-deposit';

/** Inputs of {@link createDiscountInstrument}. */
export interface DiscountInstrumentSpec extends BondIdentity {
  /** Default `treasury-bill`. T-bills and CMBs are government (no stamp duty); CP and CD are not. */
  readonly kind?: DiscountInstrumentKind;
  /** Issue date. */
  readonly issueDate: CalendarDate;
  /** Maturity (redemption at par). */
  readonly maturityDate: CalendarDate;
}

/** Creates a T-bill, CMB, CP or CD. */
export function createDiscountInstrument(spec: DiscountInstrumentSpec): Bond {
  validateBondInputs({ frequency: 1, faceValuePerUnit: spec.faceValuePerUnit });
  if (!(spec.maturityDate > spec.issueDate)) {
    throw new BondMathError('INVALID_SCHEDULE', 'maturityDate must be after issueDate', 'maturityDate');
  }
  const kind = spec.kind ?? 'treasury-bill';
  const convention = kind === 'treasury-bill' || kind === 'cash-management-bill' ? INDIAN_TREASURY_BILL : INDIAN_MONEY_MARKET_INSTRUMENT;
  const periods = buildCouponPeriods({
    schedule: { issueDate: spec.issueDate, dueDates: [spec.maturityDate], firstReferenceStartDate: spec.issueDate, firstIsRegular: false },
    couponRate: 0,
    frequency: 1,
    dayCount: getDayCount(convention.accrualDayCount),
    convention,
    calendar: spec.calendar ?? INDIA_SETTLEMENT_CALENDAR,
  });
  return assembleBond({
    kind,
    identifier: spec.identifier,
    description: spec.description,
    frequency: 1,
    faceValuePerUnit: spec.faceValuePerUnit,
    convention,
    periods,
  });
}
