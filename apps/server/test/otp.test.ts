import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, latestOtp, type TestApp } from './helpers';

describe.each(DRIVERS)('one-time passwords (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  const request = (email: string, request_type = 'login') =>
    t.app.inject({
      method: 'POST',
      url: '/api/request-otp/',
      payload: { email, request_type, auth_mode: 'email', client_mode: 'SOFTWARE' },
    });
  const otpLogin = (email: string, otp: string) =>
    t.app.inject({ method: 'POST', url: '/api/token/otp/', payload: { email, otp, auth_mode: 'email' } });

  it('sends a six-digit code and signs in with it once', async () => {
    const sent = await request('dealer@demo.dart');
    expect(sent.statusCode).toBe(200);
    expect(json(sent)).toEqual({ detail: 'If the details are registered, an OTP has been sent.', expires_in: 300 });
    const code = await latestOtp(t.app, 'dealer@demo.dart');
    expect(code).toMatch(/^\d{6}$/);
    const signedIn = await otpLogin('dealer@demo.dart', code);
    expect(signedIn.statusCode).toBe(200);
    const session = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(json<{ access: string }>(signedIn).access) });
    expect(json<{ user_info: { email: string } }>(session).user_info.email).toBe('dealer@demo.dart');
    // Single use: replaying the same code fails.
    const replay = await otpLogin('dealer@demo.dart', code);
    expect(replay.statusCode).toBe(401);
    expect(json(replay)).toMatchObject({ code: 'INVALID_OTP', errors: { otp: ['Invalid or expired OTP.'] } });
  });

  it('signs in by mobile with the code sent by SMS', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/request-otp/',
      payload: { mobile: '+919876500002', request_type: 'login', auth_mode: 'mobile' },
    });
    expect(sent.statusCode).toBe(200);
    const code = await latestOtp(t.app, '9876500002');
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/otp/',
      payload: { mobile: '9876500002', otp: code, auth_mode: 'mobile' },
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('answers the same for an unknown identity and sends nothing', async () => {
    const known = await request('viewer@demo.dart');
    const unknown = await request('nobody@demo.dart');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    const outbox = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=nobody%40demo.dart' });
    expect(json<{ results: unknown[] }>(outbox).results).toHaveLength(0);
  });

  it('validates the OTP fields with the spec messages', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/token/otp/',
      payload: { email: 'viewer@demo.dart', otp: '', auth_mode: 'email' },
    });
    expect(json(empty).errors).toEqual({ otp: ['OTP is required'] });
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/token/otp/',
      payload: { email: 'viewer@demo.dart', otp: '12345', auth_mode: 'email' },
    });
    expect(json(short).errors).toEqual({ otp: ['Must be 6 digits'] });
    const badMobile = await t.app.inject({
      method: 'POST',
      url: '/api/request-otp/',
      payload: { mobile: '12345', request_type: 'login', auth_mode: 'mobile' },
    });
    expect(json(badMobile).errors).toEqual({ mobile: ['Please enter a valid Phone number.'] });
  });

  it('invalidates a challenge after five wrong guesses, even for the right code', async () => {
    await request('opsadmin@demo.dart');
    const code = await latestOtp(t.app, 'opsadmin@demo.dart');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await otpLogin('opsadmin@demo.dart', wrong)).statusCode).toBe(401);
    expect((await otpLogin('opsadmin@demo.dart', code)).statusCode).toBe(401);
  });

  it('expires codes after five minutes', async () => {
    await request('backoffice@demo.dart');
    const code = await latestOtp(t.app, 'backoffice@demo.dart');
    t.advanceClock(5 * 60 * 1000 + 1000);
    try {
      expect((await otpLogin('backoffice@demo.dart', code)).statusCode).toBe(401);
    } finally {
      t.advanceClock(-(5 * 60 * 1000 + 1000));
    }
  });

  it('binds a code to its challenge: a newer request voids the older code', async () => {
    await request('broker@brokers.dart');
    await request('broker@brokers.dart');
    const rows = await t.database.query<{ open: boolean }>(
      "SELECT invalidated_at IS NULL AS open FROM one_time_passwords WHERE identity = 'broker@brokers.dart' ORDER BY created_at",
    );
    expect(rows.map((r) => r.open)).toEqual([false, true]);
    const second = await latestOtp(t.app, 'broker@brokers.dart');
    expect((await otpLogin('broker@brokers.dart', second)).statusCode).toBe(200);
  });

  it('throttles sends per identity with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 6; i++) {
      const r = await request('dealer@second.dart');
      statuses.push(r.statusCode);
      if (r.statusCode === 429) retryAfter = r.headers['retry-after'] as string;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(900);
  });

  it('stores no plaintext codes', async () => {
    await request('compliance@demo.dart');
    const code = await latestOtp(t.app, 'compliance@demo.dart');
    const rows = await t.database.query<{ code_hash: string }>('SELECT code_hash FROM one_time_passwords');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.code_hash.includes(code))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);
  });
});
