/**
 * Display preferences (issue 12 §5 fixes 5 and 11) through the HTTP API: the spec's mm/dd/yy and sounds
 * on by default; a user changes only their own; bad values are 400 with a field error; view-only users
 * may set theirs; the change is audited; and on two nodes (one PostgreSQL database) the other node
 * answers the new value at once.
 */
import { DATE_FORMAT_MESSAGE, DISPLAY_PREFERENCES_PATH } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, startRedisCluster, type RedisCluster, type TestApp } from './helpers';

type ErrorBody = { code: string; message: string; errors?: Record<string, string[]> };

describe.each(DRIVERS)('display preferences (%s)', (driver) => {
  let t: TestApp;
  let dealer: string;
  let viewer: string;
  beforeAll(async () => {
    t = await createTestApp(driver);
    dealer = (await login(t.app, 'dealer@demo.dart')).access;
    viewer = (await login(t.app, 'viewer@demo.dart')).access;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = (token: string) => t.app.inject({ method: 'GET', url: DISPLAY_PREFERENCES_PATH, headers: bearer(token) });
  const patch = (token: string, payload: unknown) =>
    t.app.inject({ method: 'PATCH', url: DISPLAY_PREFERENCES_PATH, headers: bearer(token), payload: payload as object });

  it("starts at the spec's mm/dd/yy with sounds on", async () => {
    const response = await get(dealer);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ date_format: 'mm/dd/yy', sounds_enabled: true });
  });

  it("changes the caller's own preferences only, a field at a time", async () => {
    let response = await patch(dealer, { date_format: 'dd/mm/yy' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({ date_format: 'dd/mm/yy', sounds_enabled: true });
    response = await patch(dealer, { sounds_enabled: false });
    expect(json(response)).toEqual({ date_format: 'dd/mm/yy', sounds_enabled: false });
    response = await patch(dealer, { date_format: 'DD-Mon-YYYY' });
    expect(json(response)).toEqual({ date_format: 'DD-Mon-YYYY', sounds_enabled: false });
    expect(json(await get(dealer))).toEqual({ date_format: 'DD-Mon-YYYY', sounds_enabled: false });
    // Another user of the same client keeps the defaults.
    const opsadmin = (await login(t.app, 'opsadmin@demo.dart')).access;
    expect(json(await get(opsadmin))).toEqual({ date_format: 'mm/dd/yy', sounds_enabled: true });
  });

  it('lets a view-only user set their own (it changes only their screen)', async () => {
    const response = await patch(viewer, { date_format: 'dd/mm/yy', sounds_enabled: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(await get(viewer))).toEqual({ date_format: 'dd/mm/yy', sounds_enabled: false });
  });

  it('refuses a format outside the three, a non-boolean and unknown keys with a 400 field error, changing nothing', async () => {
    const before = json(await get(dealer));
    for (const [payload, field, message] of [
      [{ date_format: 'yyyy-mm-dd' }, 'date_format', DATE_FORMAT_MESSAGE],
      [{ date_format: 'dd/mm/yy', sounds_enabled: 'yes' }, 'sounds_enabled', 'Sounds must be on (true) or off (false).'],
    ] as const) {
      const response = await patch(dealer, payload);
      expect(response.statusCode, response.body).toBe(400);
      const body = json<ErrorBody>(response);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors?.[field], response.body).toEqual([message]);
    }
    const unknown = await patch(dealer, { date_format: 'dd/mm/yy', user_id: 'someone-else' });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(json(await get(dealer))).toEqual(before);
  });

  it('refuses the signed-out (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: DISPLAY_PREFERENCES_PATH })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PATCH', url: DISPLAY_PREFERENCES_PATH, payload: { sounds_enabled: false } })).statusCode).toBe(
      401,
    );
  });

  it('audits a change with before and after, and a no-op writes nothing', async () => {
    await patch(dealer, { date_format: 'mm/dd/yy', sounds_enabled: true });
    const count = async () =>
      (
        await t.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.display_preferences_changed' AND actor_email = 'dealer@demo.dart'",
        )
      )[0]!.n;
    const before = await count();
    await patch(dealer, { date_format: 'dd/mm/yy' });
    expect(await count()).toBe(before + 1);
    const [row] = await t.database.query<{ before: unknown; after: unknown }>(
      "SELECT before, after FROM audit_log WHERE action = 'user.display_preferences_changed' ORDER BY id DESC LIMIT 1",
    );
    expect(row).toEqual({
      before: { date_format: 'mm/dd/yy', sounds_enabled: true },
      after: { date_format: 'dd/mm/yy', sounds_enabled: true },
    });
    await patch(dealer, { date_format: 'dd/mm/yy' });
    expect(await count()).toBe(before + 1);
  });

  it('keeps only the three formats in the database itself', async () => {
    await expect(t.database.query("UPDATE users SET date_format = 'yy.mm.dd' WHERE email = 'dealer@demo.dart'")).rejects.toThrow(
      /users_date_format_check/,
    );
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('display preferences across two nodes', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2);
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('answers a preference set on one node from the other at once', async () => {
    const [a, b] = cluster.nodes as [(typeof cluster.nodes)[number], (typeof cluster.nodes)[number]];
    const token = (await login(a, 'backoffice@demo.dart')).access;
    for (const date_format of ['DD-Mon-YYYY', 'dd/mm/yy', 'mm/dd/yy'] as const) {
      const set = await a.inject({ method: 'PATCH', url: DISPLAY_PREFERENCES_PATH, headers: bearer(token), payload: { date_format } });
      expect(set.statusCode, set.body).toBe(200);
      const read = await b.inject({ method: 'GET', url: DISPLAY_PREFERENCES_PATH, headers: bearer(token) });
      expect(json(read)).toMatchObject({ date_format });
    }
  });
});
