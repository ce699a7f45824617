/**
 * The batch CLI, tested by spawning the real binary (bin/bond-math.mjs) and by
 * calling its pure request handler.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { handleLine, handleRequest } from './cli';
import { parseDate } from './time/calendar-date';
import { createCorporateBond } from './instruments/corporate-bond';
import { createPerpetualBond } from './instruments/perpetual-bond';
import { getAccruedInterest, getYieldFromPrice } from './pricing/price-yield';
import { getPriceToWorkout, getYieldToWorkout } from './pricing/embedded-options';

const bin = fileURLToPath(new URL('../bin/bond-math.mjs', import.meta.url));

function runBinary(lines: string[]): Record<string, unknown>[] {
  const result = spawnSync(process.execPath, [bin], { input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('bond-math CLI', () => {
  it('[CL1][CL2] answers one JSON line per request and keeps going after a bad line, naming the field', () => {
    const results = runBinary([
      JSON.stringify({
        id: 'gsec',
        instrument: { type: 'gsec', isin: 'IN0020230085', issueDate: '2023-08-14', maturityDate: '2033-08-14', couponRate: 0.0718 },
        settlementDate: '2025-08-21',
        yield: 0.0652,
        units: 500000,
      }),
      '{ not json',
      JSON.stringify({
        id: 'bad-coupon',
        instrument: { type: 'corporate', maturityDate: '2030-04-29', couponRate: 'x', frequency: 1 },
        settlementDate: '2025-08-21',
        yield: 0.07,
      }),
      JSON.stringify({
        id: 'tbill',
        instrument: { type: 'tbill', issueDate: '2021-02-25', maturityDate: '2021-05-27' },
        settlementDate: '2021-02-25',
        cleanPrice: 99.2159,
      }),
    ]);
    expect(results).toHaveLength(4);
    expect(results[0]).toMatchObject({ id: 'gsec', ok: true, accruedDays: 7 });
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'INVALID_JSON', field: 'line' } });
    expect(results[2]).toMatchObject({ id: 'bad-coupon', ok: false, error: { code: 'INVALID_ARGUMENT', field: 'instrument.couponRate' } });
    expect(((results[3] as { yield: number }).yield * 100).toFixed(4)).toBe('3.1699');
  });

  it('[CL3] rolls settlement from tradeDate + settlementDays over holidays', () => {
    const result = handleRequest({
      instrument: { type: 'corporate', maturityDate: '2030-04-29', couponRate: 0.0673, frequency: 1, faceValue: 100000 },
      tradeDate: '2025-08-14',
      settlementDays: 1,
      cleanPrice: 100.0553,
      units: 10,
    });
    expect(result['settlementDate']).toBe('2025-08-18');
    expect(result['consideration']).toMatchObject({ units: 10, faceValuePerUnit: 100000 });
  });

  it('[CL4] answers day-count questions', () => {
    const result = handleRequest({ dayCount: '30E/360', startDate: '2007-02-28', endDate: '2007-03-31' });
    expect(result).toMatchObject({ days: 32 });
    const bad = handleLine(JSON.stringify({ dayCount: 'ACT/999', startDate: '2007-02-28', endDate: '2007-03-31' }), 1);
    expect(bad).toMatchObject({ ok: false, error: { field: 'dayCount' } });
  });

  it('[CL2] rejects ambiguous requests naming the field', () => {
    const both = handleLine(
      JSON.stringify({
        instrument: { type: 'tbill', maturityDate: '2025-11-20' },
        settlementDate: '2025-08-21',
        yield: 0.05,
        cleanPrice: 99,
      }),
      7,
    );
    expect(both).toMatchObject({ line: 7, ok: false, error: { field: 'yield' } });
    const noYield = handleLine(
      JSON.stringify({
        instrument: { type: 'gsec', maturityDate: '2033-08-14', couponRate: 0.07 },
        settlementDate: '2025-08-21',
        cleanPrice: -200,
      }),
      8,
    );
    expect(noYield).toMatchObject({ ok: false, error: { code: 'NO_YIELD_EXISTS', field: 'price' } });
  });

  it('[CL1] prices callable perpetuals to call and reports cash flows for a quantity', () => {
    const result = handleRequest({
      instrument: {
        type: 'perpetual',
        issueDate: '2023-09-15',
        couponRate: 0.087,
        frequency: 1,
        faceValue: 10000000,
        callSchedule: [{ date: '2028-09-15', price: 100 }],
      },
      settlementDate: '2025-08-21',
      cleanPrice: 101.5,
      cashflows: true,
      units: 1,
    });
    expect(result['yieldToCall']).toMatchObject({ callDate: '2028-09-15' });
    expect((result['yieldToWorst'] as { workout: string }).workout).toBe('call');
    expect(Array.isArray(result['cashflows'])).toBe(true);
  });

  it('[CL5][AI4] fixed: recordDateDays makes a trade after the record date ex-interest, in every yield method', () => {
    for (const yieldMethod of ['street', 'quantlib', 'excel'] as const) {
      const base = {
        instrument: {
          type: 'fixed',
          issueDate: '2024-05-15',
          maturityDate: '2031-05-15',
          couponRate: 0.0725,
          frequency: 2,
          dayCount: '30E/360',
          yieldMethod,
        },
        settlementDate: '2025-11-05',
        yield: 0.07,
      };
      const cum = handleRequest(base);
      const ex = handleRequest({ ...base, instrument: { ...base.instrument, recordDateDays: 15 } });
      expect(cum).toMatchObject({ exInterest: false });
      expect(ex).toMatchObject({ exInterest: true });
      expect(ex['accruedInterest'] as number).toBeLessThan(0);
      expect((ex['dirtyPrice'] as number) - (cum['dirtyPrice'] as number)).toBeCloseTo(-3.625 / Math.pow(1.035, 10 / 180), 2);
    }
    const bad = handleLine(
      JSON.stringify({
        instrument: { type: 'fixed', maturityDate: '2031-05-15', couponRate: 0.07, frequency: 2, recordDateDays: -3 },
        settlementDate: '2025-11-05',
        yield: 0.07,
      }),
      1,
    );
    expect(bad).toMatchObject({ ok: false, error: { field: 'instrument.recordDateDays' } });
  });

  it('[CL5][OP1][OP2] callable and puttable bonds: yield and price to each call and put, yield and price to worst', () => {
    const instrument = {
      type: 'corporate',
      issueDate: '2022-03-10',
      maturityDate: '2032-03-10',
      couponRate: 0.0815,
      frequency: 1,
      faceValue: 100000,
      callSchedule: [
        { date: '2024-03-10', price: 101 },
        { date: '2027-03-10', price: 100.5 },
        { date: '2029-03-10', price: 100 },
      ],
      putSchedule: [{ date: '2028-03-10', price: 100 }],
    };
    const result = handleRequest({ instrument, settlementDate: '2025-08-21', cleanPrice: 103.2 });
    const bond = createCorporateBond({
      issueDate: parseDate('2022-03-10'),
      maturityDate: parseDate('2032-03-10'),
      couponRate: 0.0815,
      frequency: 1,
      faceValuePerUnit: 100000,
      callSchedule: instrument.callSchedule.map((c) => ({ date: parseDate(c.date), pricePer100: c.price })),
      putSchedule: instrument.putSchedule.map((c) => ({ date: parseDate(c.date), pricePer100: c.price })),
    });
    const s = parseDate('2025-08-21');
    const quote = { kind: 'clean', per100: 103.2 } as const;
    const ytm = getYieldFromPrice(bond, s, quote);
    const calls = result['calls'] as { date: string; price: number; yield: number; cleanPrice: number }[];
    const puts = result['puts'] as { date: string; price: number; yield: number; cleanPrice: number }[];
    expect(calls.map((c) => c.date)).toEqual(['2027-03-10', '2029-03-10']);
    expect(puts.map((p) => p.date)).toEqual(['2028-03-10']);
    for (const row of [...calls, ...puts]) {
      const exercise = { date: parseDate(row.date), pricePer100: row.price };
      expect(row.yield).toBe(getYieldToWorkout(bond, s, quote, exercise).rate);
      expect(row.cleanPrice).toBe(getPriceToWorkout(bond, s, ytm, exercise).cleanPrice.per100);
    }
    const worst = Math.min(ytm.rate, ...calls.map((c) => c.yield));
    expect(result['yieldToWorst']).toMatchObject({ yield: worst, workout: 'call', workoutDate: '2027-03-10' });
    expect(result['yieldToCall']).toMatchObject({ callDate: '2027-03-10', yield: calls[0]?.yield });
    expect((result['priceToWorst'] as { cleanPrice: number }).cleanPrice).toBeLessThanOrEqual(
      Math.min(103.2, ...calls.map((c) => c.cleanPrice)) + 1e-9,
    );

    const putOnly = handleRequest({ instrument: { ...instrument, callSchedule: undefined }, settlementDate: '2025-08-21', yield: 0.075 });
    expect(putOnly['calls']).toEqual([]);
    expect((putOnly['puts'] as unknown[]).length).toBe(1);
    expect(putOnly['yieldToWorst']).toMatchObject({ workout: 'maturity' });
    expect((putOnly['yieldToWorst'] as { yield: number }).yield).toBeCloseTo(0.075, 13);

    // a street bond cannot be called off a coupon date: that row says why, the rest is answered
    const gsecLike = handleRequest({
      instrument: {
        type: 'fixed',
        issueDate: '2023-01-15',
        maturityDate: '2033-01-15',
        couponRate: 0.07,
        frequency: 2,
        callSchedule: [{ date: '2028-02-01' }, { date: '2029-01-15' }],
      },
      settlementDate: '2025-08-21',
      yield: 0.068,
    });
    const rows = gsecLike['calls'] as { error?: { code: string }; yield?: number }[];
    expect(rows[0]?.error?.code).toBe('UNSUPPORTED');
    expect(typeof rows[1]?.yield).toBe('number');
    expect(gsecLike['yieldToWorst']).toMatchObject({ error: { code: 'UNSUPPORTED', field: 'workoutDate' } });
    expect(gsecLike['yield']).toBe(0.068);
  });

  it('[CL5][PY3] corporate lastPeriod: simple (SEBI default) or compounded for the last flow', () => {
    const request = (lastPeriod?: string) => ({
      instrument: { type: 'corporate', issueDate: '2021-10-01', maturityDate: '2026-04-01', couponRate: 0.09, frequency: 1, lastPeriod },
      settlementDate: '2025-08-21',
      cleanPrice: 100.4,
    });
    const simple = handleRequest(request('simple'));
    const compounded = handleRequest(request('compounded'));
    const byDefault = handleRequest(request());
    expect(byDefault['yield']).toBe(simple['yield']);
    const dirty = simple['dirtyPrice'] as number;
    const t = (parseDate('2026-04-01') - parseDate('2025-08-21')) / 365;
    expect(simple['yield'] as number).toBeCloseTo((109 / dirty - 1) / t, 12);
    expect(compounded['yield'] as number).toBeCloseTo(Math.pow(109 / dirty, 1 / t) - 1, 12);
    expect(handleLine(JSON.stringify(request('daily')), 1)).toMatchObject({ ok: false, error: { field: 'instrument.lastPeriod' } });
  });

  it("[CL5][OP4] perpetual rollDate: coupons fall on the roll date's day, not the issue anniversary", () => {
    const instrument = {
      type: 'perpetual',
      issueDate: '2023-09-15',
      couponRate: 0.087,
      frequency: 1,
      faceValue: 10000000,
      callSchedule: [{ date: '2028-12-20', price: 100 }],
    };
    const rolled = handleRequest({
      instrument: { ...instrument, rollDate: '2028-12-20' },
      settlementDate: '2025-08-21',
      cleanPrice: 101.5,
      cashflows: true,
    });
    const bond = createPerpetualBond({
      issueDate: parseDate('2023-09-15'),
      couponRate: 0.087,
      frequency: 1,
      faceValuePerUnit: 10000000,
      callSchedule: [{ date: parseDate('2028-12-20'), pricePer100: 100 }],
      rollDate: parseDate('2028-12-20'),
    });
    const flows = rolled['cashflows'] as { dueDate: string }[];
    expect(flows[0]?.dueDate).toBe('2025-12-20');
    expect(rolled['accruedInterest']).toBe(getAccruedInterest(bond, parseDate('2025-08-21')).per100);
    expect(rolled['yield']).toBe(getYieldFromPrice(bond, parseDate('2025-08-21'), { kind: 'clean', per100: 101.5 }).rate);
    expect((rolled['calls'] as { yield: number }[])[0]?.yield).toBe(
      getYieldToWorkout(bond, parseDate('2025-08-21'), { kind: 'clean', per100: 101.5 }, bond.callSchedule[0] as never).rate,
    );
    // without rollDate the schedule runs on the issue anniversary and the off-roll call is refused per row
    const plain = handleRequest({ instrument, settlementDate: '2025-08-21', cleanPrice: 101.5, cashflows: true });
    expect((plain['cashflows'] as { dueDate: string }[])[0]?.dueDate).toBe('2025-09-15');
    expect(
      handleLine(JSON.stringify({ instrument: { ...instrument, rollDate: 'soon' }, settlementDate: '2025-08-21', cleanPrice: 101.5 }), 1),
    ).toMatchObject({
      ok: false,
      error: { field: 'instrument.rollDate' },
    });
  });
});
