/**
 * Perpetual bonds (e.g. Basel III AT1): no maturity, so they are quoted to the call
 * (doc §4.7: "Quotes normally use yield-to-call"). For a price-to-maturity figure the
 * schedule runs to a deemed maturity, 100 years from issue by default, as SEBI's
 * mutual-fund valuation rule does [S27].
 */
import type { CalendarDate } from '../time/calendar-date';
import { addYears } from '../time/calendar-date';
import type { CouponFrequency } from '../day-count/day-count';
import type { BondConvention } from '../conventions/market-conventions';
import type { Bond, ExerciseDate } from './bond';
import type { BondIdentity } from './fixed-coupon-bond';
import { createFixedCouponBond } from './fixed-coupon-bond';
import { getCorporateConvention } from './corporate-bond';
import { requireArgument } from '../errors';

/** Inputs of {@link createPerpetualBond}. */
export interface PerpetualBondSpec extends BondIdentity {
  readonly issueDate: CalendarDate;
  /** Annual coupon rate, decimal. */
  readonly couponRate: number;
  /** Coupons per year. */
  readonly frequency: CouponFrequency;
  /** Issuer call dates (at least one). */
  readonly callSchedule: readonly ExerciseDate[];
  /** Years from issue to the deemed maturity (default 100, SEBI [S27]). */
  readonly deemedMaturityYears?: number;
  /** A date on the coupon roll (e.g. the first call date) from which the schedule is generated. Default: issue anniversary. */
  readonly rollDate?: CalendarDate;
  /** Convention (default SEBI corporate). */
  readonly convention?: BondConvention;
  /** Record date days before due (SEBI corporate convention only). */
  readonly recordDateDaysBeforeDue?: number | null;
}

/** Creates a perpetual bond priced to call; its maturity is deemed. */
export function createPerpetualBond(spec: PerpetualBondSpec): Bond {
  requireArgument(spec.callSchedule.length > 0, 'callSchedule', 'a perpetual needs at least one call date');
  const years = spec.deemedMaturityYears ?? 100;
  requireArgument(Number.isInteger(years) && years > 0 && years <= 200, 'deemedMaturityYears', 'must be an integer 1–200');
  const roll = spec.rollDate ?? spec.issueDate;
  const yearsFromRoll = years - Math.floor((roll - spec.issueDate) / 366);
  return createFixedCouponBond(
    { ...spec, maturityDate: addYears(roll, yearsFromRoll), isPerpetual: true },
    {
      kind: 'perpetual-bond',
      convention: spec.convention ?? getCorporateConvention({ recordDateDaysBeforeDue: spec.recordDateDaysBeforeDue ?? null }),
    },
  );
}
