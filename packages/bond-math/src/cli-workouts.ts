/**
 * The CLI's answer for bonds with calls or puts (SPEC CL5): the yield to EACH call and
 * put date after settlement, the price to each at the request's yield, the yield to
 * worst and the price to worst. Pure; used by `cli.ts`.
 */
import type { CalendarDate } from './time/calendar-date';
import { formatDate } from './time/calendar-date';
import type { Bond, ExerciseDate } from './instruments/bond';
import type { BondPrice, Yield } from './pricing/quote';
import { getYieldToWorkout, getYieldToWorst, getPriceToWorst, getPriceToWorkout, getYieldToCall } from './pricing/embedded-options';
import { BondMathError } from './errors';

type Json = Record<string, unknown>;

/** The value of `compute`, or `{ error }` when the method cannot price that workout (the line still succeeds). */
function attempt(compute: () => Json): Json {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof BondMathError)) throw error;
    return { error: { code: error.code, field: error.field ?? null, message: error.message } };
  }
}

/** One exercise date's yield at the quote and price at the yield. */
function describeWorkout(bond: Bond, settlement: CalendarDate, quote: BondPrice, yieldValue: Yield, exercise: ExerciseDate): Json {
  return {
    date: formatDate(exercise.date),
    price: exercise.pricePer100,
    ...attempt(() => {
      const price = getPriceToWorkout(bond, settlement, yieldValue, exercise);
      return {
        yield: getYieldToWorkout(bond, settlement, quote, exercise).rate,
        cleanPrice: price.cleanPrice.per100,
        dirtyPrice: price.dirtyPrice.per100,
      };
    }),
  };
}

/**
 * Workout fields of a result: `calls` and `puts` (each date after settlement with
 * `yield` at the quoted price and `cleanPrice`/`dirtyPrice` at `yieldValue`),
 * `yieldToCall` (first call), `yieldToWorst` and `priceToWorst`. Empty when the bond
 * has no call or put after settlement.
 * @param quote - the quoted (or derived) clean price per ₹100.
 * @param yieldValue - the request's yield, or the yield to maturity of the quoted price.
 */
export function describeWorkouts(bond: Bond, settlement: CalendarDate, quote: BondPrice, yieldValue: Yield): Json {
  const calls = bond.callSchedule.filter((call) => call.date > settlement);
  const puts = bond.putSchedule.filter((put) => put.date > settlement);
  if (calls.length === 0 && puts.length === 0) return {};
  const result: Json = {
    calls: calls.map((call) => describeWorkout(bond, settlement, quote, yieldValue, call)),
    puts: puts.map((put) => describeWorkout(bond, settlement, quote, yieldValue, put)),
  };
  if (calls.length > 0) {
    result['yieldToCall'] = attempt(() => {
      const ytc = getYieldToCall(bond, settlement, quote);
      return { yield: ytc.yield.rate, callDate: formatDate(ytc.workoutDate), callPrice: ytc.redemptionPer100 };
    });
  }
  // Yield and price to worst run over maturity and the calls (puts are the investor's option, OP2/OP3).
  result['yieldToWorst'] = attempt(() => {
    const ytw = getYieldToWorst(bond, settlement, quote);
    return { yield: ytw.yield.rate, workout: ytw.workout, workoutDate: formatDate(ytw.workoutDate) };
  });
  result['priceToWorst'] = attempt(() => {
    const ptw = getPriceToWorst(bond, settlement, yieldValue);
    return { cleanPrice: ptw.cleanPrice.per100, workout: ptw.workout, workoutDate: formatDate(ptw.workoutDate) };
  });
  return result;
}
