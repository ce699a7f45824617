/**
 * A bond's coupon periods, made lazily for generated bonds. `createFixedCouponBond` computes
 * and validates every period's amounts as columns when the bond is built, but makes the
 * `CouponPeriod` objects only when `bond.periods` is first read: pricing reads the columns and
 * one or two periods ({@link getBondPeriod}), so building and pricing a bond allocates no list
 * of ~50 objects. Plain data and module functions, no per-bond closures. Internal to the package.
 */
import type { HolidayCalendar } from '../time/holiday-calendar';
import type { ScheduleDates } from '../time/schedule';
import type { BondConvention } from '../conventions/market-conventions';
import type { CouponColumns } from '../cashflows/coupon-periods';
import { createCouponPeriod } from '../cashflows/coupon-periods';
import type { Bond, BondCashflowColumns, CouponPeriod } from './bond';

/** What a generated bond's periods are made from (`BondCashflowColumns.periodSource`). */
export interface GeneratedPeriods {
  readonly schedule: ScheduleDates;
  readonly columns: CouponColumns;
  readonly convention: BondConvention;
  readonly calendar: HolidayCalendar;
}

/** The coupon period at `index` (0 ≤ index < number of periods), without making the whole list. */
export function getBondPeriod(bond: Bond, index: number): CouponPeriod {
  const columns = bond.columns;
  if (columns.periodList !== null) return columns.periodList[index] as CouponPeriod;
  const source = columns.periodSource as GeneratedPeriods;
  return createCouponPeriod(source.schedule, source.columns, index, source.convention, source.calendar);
}

/** Every coupon period of the bond whose columns these are, made once. */
export function getColumnPeriods(columns: BondCashflowColumns): readonly CouponPeriod[] {
  if (columns.periodList === null) {
    const source = columns.periodSource as GeneratedPeriods;
    const list: CouponPeriod[] = [];
    for (let index = 0; index < columns.dueDates.length; index++) {
      list.push(createCouponPeriod(source.schedule, source.columns, index, source.convention, source.calendar));
    }
    columns.periodList = list;
  }
  return columns.periodList;
}
