import { describe, expect, it } from 'vitest';
import { createSloMonitor } from './slo';

function harness(p99Ms = 500, breachMinutes = 5) {
  let clock = Date.UTC(2026, 10, 23, 4, 0, 0);
  const lines: Array<{ level: 'error' | 'info'; message: string }> = [];
  const logger = {
    error: (_fields: object, message: string) => lines.push({ level: 'error', message }),
    info: (_fields: object, message: string) => lines.push({ level: 'info', message }),
  };
  const slo = createSloMonitor({ p99Ms, breachMinutes, now: () => clock, logger: logger as never });
  /** One minute of traffic: `n` requests, `slow` of them taking `slowMs`, the rest 20 ms. */
  const minute = (n: number, slow = 0, slowMs = 2000) => {
    for (let i = 0; i < n; i++) slo.record(i < slow ? slowMs : 20);
    clock += 60_000;
  };
  return { slo, lines, minute, advance: (ms: number) => (clock += ms) };
}

describe('createSloMonitor', () => {
  it('measures the p99 of each closed minute to within 10 %', () => {
    const { slo, minute } = harness();
    // 1,000 requests: 980 at 20 ms, 20 at 300 ms → the 990th fastest is 300 ms.
    minute(1000, 20, 300);
    const { last_minute_p99_ms } = slo.status();
    expect(last_minute_p99_ms).toBeGreaterThanOrEqual(300);
    expect(last_minute_p99_ms).toBeLessThanOrEqual(330);
    // 5 slow of 1,000 is under 1 %: the p99 is the fast majority.
    minute(1000, 5, 3000);
    expect(slo.status().last_minute_p99_ms).toBeLessThanOrEqual(22);
  });

  it('alerts once after five slow minutes in a row, and logs the recovery', () => {
    const { slo, lines, minute } = harness();
    for (let m = 0; m < 4; m++) minute(200, 10);
    expect(slo.status()).toMatchObject({ ok: true, breach_minutes: 4 });
    expect(lines).toEqual([]);
    minute(200, 10);
    expect(slo.status()).toMatchObject({ ok: false, breach_minutes: 5 });
    expect(lines).toEqual([{ level: 'error', message: 'SLO breach: API p99 above the objective' }]);
    // Still slow: no second alert.
    minute(200, 10);
    expect(lines).toHaveLength(1);
    minute(200);
    expect(slo.status()).toMatchObject({ ok: true, breach_minutes: 0 });
    expect(lines.at(-1)).toEqual({ level: 'info', message: 'SLO recovered' });
  });

  it('a good minute in between resets the count; quiet minutes judge nothing', () => {
    const { slo, lines, minute, advance } = harness();
    for (let m = 0; m < 4; m++) minute(200, 10);
    minute(200);
    for (let m = 0; m < 4; m++) minute(200, 10);
    expect(slo.status()).toMatchObject({ ok: true, breach_minutes: 4 });
    // Three requests in a minute, all slow: too few to call a p99.
    minute(3, 3);
    expect(slo.status()).toMatchObject({ ok: true, breach_minutes: 4, last_minute_p99_ms: null });
    // An idle hour closes as empty minutes without raising or clearing anything.
    advance(3_600_000);
    expect(slo.status()).toMatchObject({ ok: true, breach_minutes: 4 });
    expect(lines).toEqual([]);
  });
});
