/**
 * Consideration (what the buyer pays) and stamp duty, in integer paise.
 *
 * consideration = units × face value per unit × (clean + accrued)/100, rounded
 * half-up to the paisa (doc §1 [S18][S19], §4.6). The accrued-interest part is
 * rounded the same way and the principal part is the difference, so the two parts
 * always add up to the rounded total (NSE shows "trade value obligation" and
 * "accrued interest obligation" apart [S12b]).
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond } from '../instruments/bond';
import type { CleanPrice } from './quote';
import { createPricingSetup } from './pricing-setup';
import { roundRupeesToPaise } from './money';
import { requireArgument } from '../errors';

/** How stamp duty is rounded (doc §8.6: not fixed by any rule found). */
export type StampDutyRounding = 'paisa-half-up' | 'rupee-half-up';

/** A trade's money, in integer paise. */
export interface Consideration {
  /** Number of units (bonds) traded. */
  readonly units: number;
  /** Face value of one unit outstanding at settlement, ₹ (= issue face value unless amortised). */
  readonly faceValuePerUnit: number;
  /** Face amount traded: units × face value per unit, in paise. */
  readonly faceAmountPaise: number;
  /** Clean price per ₹100 used. */
  readonly cleanPricePer100: number;
  /** Accrued interest per ₹100 used. */
  readonly accruedInterestPer100: number;
  /** Accrued days. */
  readonly accruedDays: number;
  /** Principal (clean) part = total − accrued, paise. */
  readonly principalPaise: number;
  /** Accrued-interest part, paise (negative when ex-interest). */
  readonly accruedInterestPaise: number;
  /** Consideration = units × FV × (clean + accrued)/100, paise, half-up. */
  readonly totalPaise: number;
  /** Stamp duty paid by the buyer, paise (0 for government securities). */
  readonly stampDutyPaise: number;
  /** What the buyer pays: consideration + stamp duty, paise. */
  readonly buyerPaysPaise: number;
}

/**
 * Stamp duty on a transfer, paid by the buyer: 0.0001 % of consideration for
 * debentures, corporate bonds, CPs and CDs; nil for government securities
 * (Indian Stamp Act as amended by Finance Act 2019, from 1 Jul 2020; doc §4.6 [S7][S8]).
 * @param considerationPaise - consideration in paise.
 * @param rounding - default half-up to the paisa (an assumption, doc §8.6).
 * @returns stamp duty in paise.
 */
export function getStampDutyPaise(bond: Bond, considerationPaise: number, rounding: StampDutyRounding = 'paisa-half-up'): number {
  if (bond.convention.isGovernmentSecurity || bond.convention.stampDutyRate === 0 || considerationPaise <= 0) return 0;
  const dutyRupees = (considerationPaise / 100) * bond.convention.stampDutyRate;
  if (rounding === 'rupee-half-up') return roundRupeesToPaise(Math.round(dutyRupees + 1e-9));
  return roundRupeesToPaise(dutyRupees);
}

/**
 * Consideration for `units` units at a clean price on `settlementDate`.
 * @param units - number of units (bonds); a G-sec unit is ₹100 face, so ₹5 crore = 5,00,000 units.
 * @param price - clean price per ₹100.
 * @param stampDutyRounding - rounding of stamp duty (default half-up to the paisa).
 */
export function getConsideration(
  bond: Bond,
  settlementDate: CalendarDate,
  units: number,
  price: CleanPrice,
  stampDutyRounding: StampDutyRounding = 'paisa-half-up',
): Consideration {
  requireArgument(Number.isFinite(units) && units > 0, 'units', `must be a positive number of units, got ${units}`);
  requireArgument(price && price.kind === 'clean' && Number.isFinite(price.per100), 'price', 'must be a tagged clean price per 100');
  const setup = createPricingSetup(bond, settlementDate);
  const accruedPer100 = setup.accruedPer100Original * setup.scale;
  // Face per unit on which the per-100 quote applies: outstanding face under the `outstanding` basis.
  const faceValuePerUnit =
    bond.convention.amortisingPriceBasis === 'outstanding'
      ? (bond.faceValuePerUnit * setup.outstandingPer100) / 100
      : bond.faceValuePerUnit;
  const faceAmount = units * faceValuePerUnit;
  const totalPaise = roundRupeesToPaise((faceAmount * (price.per100 + accruedPer100)) / 100);
  const accruedInterestPaise = roundRupeesToPaise((faceAmount * accruedPer100) / 100);
  const stampDutyPaise = getStampDutyPaise(bond, totalPaise, stampDutyRounding);
  return {
    units,
    faceValuePerUnit,
    faceAmountPaise: roundRupeesToPaise(faceAmount),
    cleanPricePer100: price.per100,
    accruedInterestPer100: accruedPer100,
    accruedDays: setup.accruedDays,
    principalPaise: totalPaise - accruedInterestPaise,
    accruedInterestPaise,
    totalPaise,
    stampDutyPaise,
    buyerPaysPaise: totalPaise + stampDutyPaise,
  };
}
