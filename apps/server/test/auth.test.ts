import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, createTestApp, DEMO_PASSWORD, DRIVERS, json, login, startRedisCluster, type RedisCluster, type TestApp } from './helpers';

describe.each(DRIVERS)('sign-in and sessions (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs in with e-mail and password and returns access and refresh tokens', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'Dealer@Demo.dart', password: DEMO_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = json<{ access: string; refresh: string; access_expires_in: number }>(response);
    expect(body.access.split('.')).toHaveLength(3);
    expect(body.refresh.length).toBeGreaterThan(30);
    expect(body.access_expires_in).toBe(300);
    const cookie = response.cookies.find((c) => c.name === 'dart_rt');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'viewer@demo.dart', password: 'nope-nope-1' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'ghost@demo.dart', password: 'nope-nope-1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Unable to log in with provided credentials.' });
  });

  it('rejects a malformed sign-in body with field errors, and unknown fields with 400', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/token/', payload: { email: 'not-an-email', password: '' } });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).errors).toEqual({ email: ['Please enter a valid email address.'], password: ['Password is required'] });
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'dealer@demo.dart', password: 'x', role: 'admin' },
    });
    expect(extra.statusCode).toBe(400);
    expect(json(extra)).toMatchObject({ code: 'VALIDATION_FAILED', errors: { role: ['Unknown field.'] } });
  });

  it('returns the full session user state of spec §3', async () => {
    const { access } = await login(t.app, 'dealer@demo.dart');
    const response = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) });
    expect(response.statusCode).toBe(200);
    const session = json<Record<string, unknown> & { user_info: Record<string, unknown> }>(response);
    expect(session.name).toBe('Demo Capital');
    expect(session.client_tier).toBe('PREMIUM');
    expect(session.client_type).toBe('CORP');
    expect(session.allowed_exchanges).toEqual(['NSE', 'BSE']);
    expect(session.user_info.roles).toEqual(['clientdealer']);
    expect(session.permissions).toEqual(
      expect.arrayContaining([
        'client.can_trade',
        'inventory.has_inventory_access',
        'client.view_client',
        'finstruments.has_security_data_access',
      ]),
    );
    for (const key of [
      'user_accounts',
      'allowed_reporting_exchanges',
      'nsccl_credentials',
      'iccl_credentials',
      'nsccl_name',
      'iccl_name',
      'is_broker',
      'has_brokers',
      'trades_on_books',
      'rfq_exchanges',
      'stp_exchanges',
    ])
      expect(session).toHaveProperty(key);
    for (const key of [
      'first_name',
      'last_name',
      'email',
      'mobile',
      'unique_id',
      'id',
      'single_screen_waitlist_joined',
      'has_accepted_chat_terms',
      'user_security_preferences',
      'suprsend_subscriber_id',
    ])
      expect(session.user_info).toHaveProperty(key);
  });

  it('answers 401 without a token and 401 with a tampered one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/session/' })).statusCode).toBe(401);
    const { access } = await login(t.app, 'dealer@demo.dart');
    const [header, payload, signature] = access.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    const otherKey = await new SignJWT({ sid: 'x', cid: 'y' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject('z')
      .setIssuer('dart')
      .setAudience('dart-api')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-1234'));
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const wrongAudience = await new SignJWT({ sid: 'x', cid: 'y' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject('z')
      .setIssuer('dart')
      .setAudience('someone-else')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const wrongType = await new SignJWT({ sid: 'x', cid: 'y' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('z')
      .setIssuer('dart')
      .setAudience('dart-api')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const flipped = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.slice(-2) === 'AA' ? 'AB' : 'AA'}`;
    for (const token of [none, otherKey, wrongAudience, wrongType, flipped, 'garbage']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(token) });
      expect(response.statusCode, token).toBe(401);
    }
  });

  it('answers 401 TOKEN_EXPIRED for an expired access token', async () => {
    const expired = await new SignJWT({ sid: 'x', cid: 'y' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject('z')
      .setIssuer('dart')
      .setAudience('dart-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 300)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const response = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(expired) });
    expect(response.statusCode).toBe(401);
    expect(json(response).code).toBe('TOKEN_EXPIRED');
  });

  it('rotates refresh tokens and revokes the whole family when an old one is reused', async () => {
    const first = await login(t.app, 'viewer@demo.dart');
    const rotated = await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: first.refresh } });
    expect(rotated.statusCode).toBe(200);
    const second = json<{ access: string; refresh: string }>(rotated);
    expect(second.refresh).not.toBe(first.refresh);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: first.refresh } });
    expect(reuse.statusCode).toBe(401);
    expect(json(reuse).code).toBe('REFRESH_TOKEN_REUSED');
    // The legitimate newest token is dead too, and so is the access token of the family.
    const afterReuse = await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: second.refresh } });
    expect(afterReuse.statusCode).toBe(401);
    const session = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(second.access) });
    expect(session.statusCode).toBe(401);
  });

  it('lets exactly one of two parallel refreshes with the same token win', async () => {
    const { refresh } = await login(t.app, 'backoffice@demo.dart');
    const results = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('refreshes from the httpOnly cookie and clears it on sign-out', async () => {
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'opsadmin@demo.dart', password: DEMO_PASSWORD },
    });
    const cookie = signIn.cookies.find((c) => c.name === 'dart_rt')!;
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: {}, cookies: { dart_rt: cookie.value } });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.cookies.find((c) => c.name === 'dart_rt')!;
    const access = json<{ access: string }>(refreshed).access;
    const out = await t.app.inject({ method: 'POST', url: '/api/logout/', payload: {}, headers: bearer(access) });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'dart_rt')?.value).toBe('');
    // Sign-out ends the session at once: the access token and the refresh cookie are both dead.
    expect((await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: {}, cookies: { dart_rt: next.value } })).statusCode,
    ).toBe(401);
  });

  /** Every way a client sends "no body": the web itself sends `{}` as JSON (packages/client http.post). */
  const BARE_BODIES: Array<[string, { payload?: string; headers?: Record<string, string> }]> = [
    ['no body, no content type', {}],
    ['an empty JSON body', { payload: '', headers: { 'content-type': 'application/json' } }],
    ['a JSON null', { payload: 'null', headers: { 'content-type': 'application/json' } }],
    ["the web's {}", { payload: '{}', headers: { 'content-type': 'application/json', accept: 'application/json' } }],
  ];
  const signIn = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'dealer@demo.dart', password: DEMO_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return { ...json<{ access: string; refresh: string }>(response), cookie: response.cookies.find((c) => c.name === 'dart_rt')!.value };
  };
  const sessionStatus = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode;
  const refreshStatus = async (refresh: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } })).statusCode;

  it.each(BARE_BODIES)('signs out with %s, by bearer token or by the refresh cookie alone', async (_label, bare) => {
    const byBearer = await signIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout/',
      ...bare,
      headers: { ...bare.headers, ...bearer(byBearer.access) },
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.cookies.find((c) => c.name === 'dart_rt')?.value).toBe('');
    expect(await sessionStatus(byBearer.access)).toBe(401);
    expect(await refreshStatus(byBearer.refresh)).toBe(401);

    // The access token has expired or is gone: the cookie alone names the session; a stale bearer is ignored.
    const byCookie = await signIn();
    const cookieOut = await t.app.inject({
      method: 'POST',
      url: '/api/logout/',
      ...bare,
      headers: { ...bare.headers, authorization: 'Bearer stale.token.value' },
      cookies: { dart_rt: byCookie.cookie },
    });
    expect(cookieOut.statusCode, cookieOut.body).toBe(200);
    expect(await sessionStatus(byCookie.access)).toBe(401);
    expect(await refreshStatus(byCookie.refresh)).toBe(401);
  });

  it.each(BARE_BODIES)('refreshes from the cookie alone with %s', async (_label, bare) => {
    const session = await signIn();
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/token/refresh/', ...bare, cookies: { dart_rt: session.cookie } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(await sessionStatus(json<{ access: string }>(refreshed).access)).toBe(200);
    // Without a cookie there is nothing to refresh: 401, not a validation error.
    expect((await t.app.inject({ method: 'POST', url: '/api/token/refresh/', ...bare })).statusCode).toBe(401);
  });

  it('signs out with nothing to revoke, and documents both bodies as optional', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/logout/' })).statusCode).toBe(200);
    const docs = json<{ paths: Record<string, { post: { requestBody?: { required?: boolean } } }> }>(
      await t.app.inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(docs.paths['/api/logout/']?.post.requestBody?.required).not.toBe(true);
    expect(docs.paths['/api/token/refresh/']?.post.requestBody?.required).not.toBe(true);
    // A required body stays required, whichever way it is left out.
    for (const [, bare] of BARE_BODIES.slice(0, 3)) {
      const response = await t.app.inject({ method: 'POST', url: '/api/token/', ...bare });
      expect(response.statusCode, response.body).toBe(400);
      expect(json<{ code: string }>(response).code).toBe('VALIDATION_FAILED');
    }
  });

  it('throttles sign-in after repeated failures for one e-mail, and logs every attempt', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: 'broker@brokers.dart', password: `wrong-${i}-x1` },
      });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The right password is refused while throttled; other users are unaffected.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: 'broker@brokers.dart', password: DEMO_PASSWORD },
    });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    await login(t.app, 'dealer@second.dart');
    const rows = await t.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'auth.login_failed' AND entity_id = 'broker@brokers.dart'",
    );
    expect(rows[0]!.n).toBe(12);
  });

  it('never writes tokens or passwords to the log', () => {
    const all = t.logs.join('\n');
    expect(t.logs.length).toBeGreaterThan(10);
    expect(all).not.toMatch(/eyJ[\w-]+\./);
    expect(all).not.toContain(DEMO_PASSWORD);
    expect(all).not.toMatch(/"refresh":"[^[]/);
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('sign-out across two nodes (PostgreSQL + Redis)', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('a bare POST with only the refresh cookie on one node ends the session on the other at once', async () => {
    const [a, b] = cluster.nodes as [FastifyInstance, FastifyInstance];
    const signIn = await a.inject({ method: 'POST', url: '/api/token/', payload: { email: 'dealer@demo.dart', password: DEMO_PASSWORD } });
    const { access } = json<{ access: string }>(signIn);
    const cookie = signIn.cookies.find((c) => c.name === 'dart_rt')!.value;
    // Node A has the principal cached.
    expect((await a.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode).toBe(200);
    const out = await b.inject({ method: 'POST', url: '/api/logout/', cookies: { dart_rt: cookie } });
    expect(out.statusCode, out.body).toBe(200);
    await expect.poll(async () => (await a.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode).toBe(401);
    expect((await a.inject({ method: 'POST', url: '/api/token/refresh/', cookies: { dart_rt: cookie } })).statusCode).toBe(401);
  });
});
