/**
 * Accrued interest, clean ↔ dirty, price from yield and yield from price.
 * All prices and accrued interest are per ₹100 of face value (outstanding face
 * for amortising bonds unless the convention says `original`).
 */
import type { CalendarDate } from '../time/calendar-date';
import type { Bond } from '../instruments/bond';
import type { BondPrice, CleanPrice, DirtyPrice, Yield } from './quote';
import { convertYield } from './quote';
import type { PricingSetup } from './pricing-setup';
import { createPricingSetup } from './pricing-setup';
import { evaluatePresentValue } from './discounting';
import { solveYield } from './yield-solver';
import { BondMathError } from '../errors';
import { getBondPeriod } from '../instruments/bond-periods';

/** Accrued interest at a settlement date. */
export interface AccruedInterest {
  /** Accrued interest per ₹100 of face value; negative when ex-interest (doc §4.4). */
  readonly per100: number;
  /** Days accrued, in the accrual day count's days (30/360 days for G-secs). */
  readonly accruedDays: number;
  /** True when settlement is after the record date of the current period. */
  readonly exInterest: boolean;
  /** Start of the current accrual period (last coupon date, or issue date). */
  readonly periodStartDate: CalendarDate;
  /** Due date of the next coupon. */
  readonly nextDueDate: CalendarDate;
}

/** Clean, dirty and accrued at a yield. */
export interface PriceFromYield {
  readonly cleanPrice: CleanPrice;
  readonly dirtyPrice: DirtyPrice;
  /** Accrued interest per ₹100. */
  readonly accruedInterestPer100: number;
}

/** The yield expressed in the bond's native compounding (converting compounded rates if needed). */
export function getNativeRate(bond: Bond, yieldValue: Yield): number {
  if (!Number.isFinite(yieldValue.rate)) {
    throw new BondMathError('INVALID_ARGUMENT', `yield rate must be a finite decimal, got ${yieldValue.rate}`, 'yield');
  }
  if (yieldValue.compounding === bond.yieldCompounding) return yieldValue.rate;
  return convertYield(yieldValue, bond.yieldCompounding).rate;
}

/**
 * Accrued interest per ₹100 at `settlementDate`, accruing over [last coupon, settlement)
 * (RBI primer "from the last coupon day till a day prior to the settlement" [S18]).
 * G-secs: 100·c·D30E(L, s)/360 [S16]; SEBI corporates: 100·c·(s − L)/(365|366) [S1][S6].
 * @param bond - the bond.
 * @param settlementDate - settlement date.
 */
export function getAccruedInterest(bond: Bond, settlementDate: CalendarDate): AccruedInterest {
  const setup = createPricingSetup(bond, settlementDate);
  const period = getBondPeriod(bond, setup.firstIndex);
  return {
    per100: setup.accruedPer100Original * setup.scale,
    accruedDays: setup.accruedDays,
    exInterest: setup.exInterest,
    periodStartDate: period.accrualStartDate,
    nextDueDate: period.dueDate,
  };
}

/** Dirty price per ₹100 for a prepared setup at a native-compounding rate. */
export function getSetupDirtyPer100(setup: PricingSetup, nativeRate: number): number {
  return evaluatePresentValue(setup, nativeRate) * setup.scale;
}

/**
 * Dirty price per ₹100 from a yield (doc §6 formula summary).
 * @param yieldValue - yield; a compounded yield in another compounding is converted to the bond's.
 */
export function getDirtyPriceFromYield(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield): DirtyPrice {
  const setup = createPricingSetup(bond, settlementDate);
  return { kind: 'dirty', per100: evaluatePresentValue(setup, getNativeRate(bond, yieldValue)) * setup.scale };
}

/**
 * Clean price per ₹100 from a yield: dirty − accrued.
 * @param yieldValue - yield with its compounding.
 */
export function getCleanPriceFromYield(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield): CleanPrice {
  const setup = createPricingSetup(bond, settlementDate);
  const dirty = evaluatePresentValue(setup, getNativeRate(bond, yieldValue));
  return { kind: 'clean', per100: (dirty - setup.accruedPer100Original) * setup.scale };
}

/** Clean price, dirty price and accrued interest per ₹100 from a yield. */
export function getPriceFromYield(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield): PriceFromYield {
  const setup = createPricingSetup(bond, settlementDate);
  const dirty = evaluatePresentValue(setup, getNativeRate(bond, yieldValue)) * setup.scale;
  const accrued = setup.accruedPer100Original * setup.scale;
  return {
    cleanPrice: { kind: 'clean', per100: dirty - accrued },
    dirtyPrice: { kind: 'dirty', per100: dirty },
    accruedInterestPer100: accrued,
  };
}

/** Dirty price target per ₹100 original face for a tagged price. */
export function getDirtyTargetPer100Original(setup: PricingSetup, price: BondPrice): number {
  if (!price || (price.kind !== 'clean' && price.kind !== 'dirty') || !Number.isFinite(price.per100)) {
    throw new BondMathError('INVALID_ARGUMENT', 'price must be a tagged clean or dirty price per 100 with a finite value', 'price');
  }
  const quoted = price.per100 / setup.scale;
  return price.kind === 'dirty' ? quoted : quoted + setup.accruedPer100Original;
}

/**
 * Yield from a clean or dirty price per ₹100, in the bond's quoted compounding
 * (semi-annual for G-secs, annual for SEBI corporates, simple for T-bills).
 * @throws BondMathError NO_YIELD_EXISTS when the dirty price is not positive or no flow remains.
 */
export function getYieldFromPrice(bond: Bond, settlementDate: CalendarDate, price: BondPrice): Yield {
  const setup = createPricingSetup(bond, settlementDate);
  return { rate: solveYield(setup, getDirtyTargetPer100Original(setup, price)), compounding: bond.yieldCompounding };
}

/** Dirty price per ₹100 from a clean price: clean + accrued. */
export function toDirtyPrice(bond: Bond, settlementDate: CalendarDate, price: CleanPrice): DirtyPrice {
  const setup = createPricingSetup(bond, settlementDate);
  return { kind: 'dirty', per100: price.per100 + setup.accruedPer100Original * setup.scale };
}

/** Clean price per ₹100 from a dirty price: dirty − accrued. */
export function toCleanPrice(bond: Bond, settlementDate: CalendarDate, price: DirtyPrice): CleanPrice {
  const setup = createPricingSetup(bond, settlementDate);
  return { kind: 'clean', per100: price.per100 - setup.accruedPer100Original * setup.scale };
}
