/**
 * The latency SLO wired into the app (lib/slo.ts has the arithmetic): API responses are measured,
 * and a minute whose p99 is over the objective, for the configured run of minutes, raises the alert
 * in the log and in /api/health (still 200: a slow node stays in rotation).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_PASSWORD, DRIVERS, json, type TestApp } from './helpers';

describe.each(DRIVERS)('API latency SLO (%s)', (driver) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const health = async (app: TestApp) => {
    const response = await app.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    return json<{ slo: { ok: boolean } }>(response).slo;
  };

  it('a minute of sign-ins slower than a 1 ms objective raises the alert, which holds through a quiet minute', async () => {
    t = await createTestApp(driver, { SLO_P99_MS: '1', SLO_BREACH_MINUTES: '1', SLO_MIN_SAMPLES: '3' });
    expect(await health(t)).toEqual({ ok: true });
    // A sign-in hashes with scrypt: every one takes well over 1 ms.
    for (let i = 0; i < 3; i++) {
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: 'viewer@demo.dart', password: DEMO_PASSWORD },
      });
      expect(signIn.statusCode).toBe(200);
    }
    t.advanceClock(60_000);
    expect(await health(t)).toEqual({ ok: false });
    expect(t.logs.join('')).toContain('SLO breach: API p99 above the objective');
    // The next minute has too few requests to judge (one health check): the alert holds until a good one.
    t.advanceClock(60_000);
    expect(await health(t)).toEqual({ ok: false });
  });

  it('normal traffic under the default objective (500 ms) keeps the SLO green', async () => {
    t = await createTestApp(driver);
    for (let i = 0; i < 30; i++) expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    t.advanceClock(60_000);
    expect(await health(t)).toEqual({ ok: true });
    expect(t.logs.join('')).not.toContain('SLO breach');
  });
});
