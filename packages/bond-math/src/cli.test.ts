/**
 * The batch CLI, tested by spawning the real binary (bin/bond-math.mjs) and by
 * calling its pure request handler.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { handleLine, handleRequest } from './cli';

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
});
