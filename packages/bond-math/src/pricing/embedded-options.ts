/**
 * Bonds with calls and puts (doc §4.7): yield to call / put is the ordinary yield
 * equation with the flows truncated at the exercise date and redemption at the
 * exercise price; yield to worst = min(YTM, YTC_i) over calls after settlement
 * (puts are the investor's option, so they are not in the worst case); price to
 * worst from a yield = the lowest price over the same workout dates. Perpetuals
 * are priced to call.
 */
import type { CalendarDate } from '../time/calendar-date';
import { formatDate } from '../time/calendar-date';
import type { Bond, ExerciseDate } from '../instruments/bond';
import type { BondPrice, CleanPrice, DirtyPrice, Yield } from './quote';
import { createPricingSetup } from './pricing-setup';
import { evaluatePresentValue } from './discounting';
import { solveYield } from './yield-solver';
import { getDirtyTargetPer100Original, getNativeRate } from './price-yield';
import { BondMathError } from '../errors';

/** How a bond is assumed to end. */
export type WorkoutKind = 'maturity' | 'call' | 'put';

/** A yield or price to a workout date. */
export interface WorkoutResult {
  /** Which workout gave the result. */
  readonly workout: WorkoutKind;
  /** Workout date (maturity, call or put date). */
  readonly workoutDate: CalendarDate;
  /** Redemption price per ₹100 on the workout date. */
  readonly redemptionPer100: number;
}

/** Yield to a workout date. */
export interface YieldToWorkout extends WorkoutResult {
  readonly yield: Yield;
}

/** Price to a workout date. */
export interface PriceToWorkout extends WorkoutResult {
  readonly cleanPrice: CleanPrice;
  readonly dirtyPrice: DirtyPrice;
}

function pickExercise(
  schedule: readonly ExerciseDate[],
  settlementDate: CalendarDate,
  date: CalendarDate | undefined,
  field: string,
): ExerciseDate {
  const upcoming = schedule.filter((exercise) => exercise.date > settlementDate);
  const chosen = date === undefined ? upcoming[0] : upcoming.find((exercise) => exercise.date === date);
  if (!chosen) {
    throw new BondMathError(
      'INVALID_ARGUMENT',
      date === undefined
        ? `${field}: no exercise date after settlement ${formatDate(settlementDate)}`
        : `${field}: ${formatDate(date)} is not an exercise date after settlement`,
      field,
    );
  }
  return chosen;
}

/**
 * Yield to a given workout (exercise date and price).
 * @param price - clean or dirty price per ₹100.
 */
export function getYieldToWorkout(bond: Bond, settlementDate: CalendarDate, price: BondPrice, workout: ExerciseDate): Yield {
  const setup = createPricingSetup(bond, settlementDate, workout);
  return { rate: solveYield(setup, getDirtyTargetPer100Original(setup, price)), compounding: bond.yieldCompounding };
}

/**
 * Yield to call: to `callDate` (default: the first call after settlement).
 * @param price - clean or dirty price per ₹100.
 */
export function getYieldToCall(bond: Bond, settlementDate: CalendarDate, price: BondPrice, callDate?: CalendarDate): YieldToWorkout {
  const exercise = pickExercise(bond.callSchedule, settlementDate, callDate, 'callDate');
  return {
    workout: 'call',
    workoutDate: exercise.date,
    redemptionPer100: exercise.pricePer100,
    yield: getYieldToWorkout(bond, settlementDate, price, exercise),
  };
}

/**
 * Yield to put: to `putDate` (default: the first put after settlement).
 * @param price - clean or dirty price per ₹100.
 */
export function getYieldToPut(bond: Bond, settlementDate: CalendarDate, price: BondPrice, putDate?: CalendarDate): YieldToWorkout {
  const exercise = pickExercise(bond.putSchedule, settlementDate, putDate, 'putDate');
  return {
    workout: 'put',
    workoutDate: exercise.date,
    redemptionPer100: exercise.pricePer100,
    yield: getYieldToWorkout(bond, settlementDate, price, exercise),
  };
}

function getWorkouts(bond: Bond, settlementDate: CalendarDate): { kind: WorkoutKind; exercise: ExerciseDate | undefined }[] {
  const workouts: { kind: WorkoutKind; exercise: ExerciseDate | undefined }[] = [];
  for (const call of bond.callSchedule) if (call.date > settlementDate) workouts.push({ kind: 'call', exercise: call });
  workouts.push({ kind: 'maturity', exercise: undefined });
  return workouts;
}

/**
 * Yield to worst: the lowest of the yield to maturity and the yields to every call
 * after settlement (doc §4.7). For a bond without calls it is the yield to maturity.
 * @param price - clean or dirty price per ₹100.
 */
export function getYieldToWorst(bond: Bond, settlementDate: CalendarDate, price: BondPrice): YieldToWorkout {
  let best: YieldToWorkout | undefined;
  for (const { kind, exercise } of getWorkouts(bond, settlementDate)) {
    const setup = createPricingSetup(bond, settlementDate, exercise);
    const rate = solveYield(setup, getDirtyTargetPer100Original(setup, price));
    if (!best || rate < best.yield.rate) {
      best = {
        workout: kind,
        workoutDate: exercise ? exercise.date : bond.maturityDate,
        redemptionPer100: exercise ? exercise.pricePer100 : 100,
        yield: { rate, compounding: bond.yieldCompounding },
      };
    }
  }
  return best as YieldToWorkout;
}

/**
 * Price to worst: the lowest clean price over maturity and every call after
 * settlement at the same yield (doc §4.7, standard practice).
 */
export function getPriceToWorst(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield): PriceToWorkout {
  const rate = getNativeRate(bond, yieldValue);
  let best: PriceToWorkout | undefined;
  for (const { kind, exercise } of getWorkouts(bond, settlementDate)) {
    const setup = createPricingSetup(bond, settlementDate, exercise);
    const dirty = evaluatePresentValue(setup, rate) * setup.scale;
    if (!best || dirty < best.dirtyPrice.per100) {
      best = {
        workout: kind,
        workoutDate: exercise ? exercise.date : bond.maturityDate,
        redemptionPer100: exercise ? exercise.pricePer100 : 100,
        dirtyPrice: { kind: 'dirty', per100: dirty },
        cleanPrice: { kind: 'clean', per100: dirty - setup.accruedPer100Original * setup.scale },
      };
    }
  }
  return best as PriceToWorkout;
}

/**
 * Price (clean and dirty per ₹100) to a workout at a yield: e.g. a perpetual to its first call.
 */
export function getPriceToWorkout(bond: Bond, settlementDate: CalendarDate, yieldValue: Yield, workout: ExerciseDate): PriceToWorkout {
  const setup = createPricingSetup(bond, settlementDate, workout);
  const dirty = evaluatePresentValue(setup, getNativeRate(bond, yieldValue)) * setup.scale;
  return {
    workout: bond.callSchedule.some((call) => call.date === workout.date) ? 'call' : 'put',
    workoutDate: workout.date,
    redemptionPer100: workout.pricePer100,
    dirtyPrice: { kind: 'dirty', per100: dirty },
    cleanPrice: { kind: 'clean', per100: dirty - setup.accruedPer100Original * setup.scale },
  };
}
