/**
 * Masked session recording (issue 16 §3; modules/recording/README.md): off by default (404 after the access check),
 * the recorder's calls on the caller's own recordings only, size caps and rate limits on uploads, the ops admin's list
 * and replay of their own firm only, and retention.
 */
import { RECORDING_LIMITS, RECORDING_MESSAGES } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const event = (timestamp: number, data: unknown = { source: 5, text: '*****' }) => ({ type: 3, timestamp, data });

describe.each(DRIVERS)('session recording switched off (default) (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells the web it is off and answers 404 to every recording call after the access check', async () => {
    const dealer = (await login(t.app, 'dealer@demo.dart')).access;
    const ops = (await login(t.app, 'opsadmin@demo.dart')).access;
    const settings = await t.app.inject({ method: 'GET', url: '/api/recording/settings/', headers: bearer(dealer) });
    expect(settings.statusCode).toBe(200);
    expect(json(settings)).toMatchObject({ enabled: false });

    const start = await t.app.inject({ method: 'POST', url: '/api/recording/sessions/', headers: bearer(dealer), payload: {} });
    expect(start.statusCode).toBe(404);
    expect(json(start)).toEqual({ code: 'NOT_FOUND', message: RECORDING_MESSAGES.off });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/recording/sessions/00000000-0000-0000-0000-000000000000/events/',
      headers: bearer(dealer),
      payload: { seq: 0, events: [event(1)] },
    });
    expect(upload.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/recording/sessions/', headers: bearer(ops) })).statusCode).toBe(404);
    // Who may call is still checked first: anonymous 401, a non-ops user 403.
    expect((await t.app.inject({ method: 'POST', url: '/api/recording/sessions/', payload: {} })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/recording/sessions/', headers: bearer(dealer) })).statusCode).toBe(403);
    const stored = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM recording_sessions');
    expect(stored[0]!.n).toBe(0);
  });
});

describe.each(DRIVERS)('session recording switched on (%s)', (driver) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const as = (who: string) => bearer(tokens[who]!);
  const start = async (who: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/recording/sessions/', headers: as(who), payload: {} });
    expect(response.statusCode).toBe(201);
    return json<{ id: string; started_at: string }>(response).id;
  };
  const upload = (who: string, id: string, body: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/recording/sessions/${id}/events/`, headers: as(who), payload: body as object });

  beforeAll(async () => {
    t = await createTestApp(driver, { SESSION_RECORDING: 'on' });
    for (const [who, email] of Object.entries({
      dealer: 'dealer@demo.dart',
      viewer: 'viewer@demo.dart',
      ops: 'opsadmin@demo.dart',
      compliance: 'compliance@demo.dart',
      second: 'dealer@second.dart',
      broker: 'broker@brokers.dart',
    }))
      tokens[who] = (await login(t.app, email)).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a signed-in user (view-only roles too) record their own session, storing a retried batch once', async () => {
    const settings = json(await t.app.inject({ method: 'GET', url: '/api/recording/settings/', headers: as('viewer') }));
    expect(settings).toEqual({
      enabled: true,
      flush_interval_ms: RECORDING_LIMITS.flushIntervalMs,
      chunk_max_bytes: RECORDING_LIMITS.chunkMaxBytes,
      chunk_max_events: RECORDING_LIMITS.chunkMaxEvents,
    });
    const id = await start('viewer');
    const first = await upload('viewer', id, { seq: 0, events: [event(1), event(2)] });
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({ seq: 0, stored: true });
    expect(json(await upload('viewer', id, { seq: 0, events: [event(1), event(2)] }))).toEqual({ seq: 0, stored: false });
    expect(json(await upload('viewer', id, { seq: 1, events: [event(3)] }))).toEqual({ seq: 1, stored: true });
    const [row] = await t.database.query<{ chunk_count: number; event_count: number; user_agent: string | null }>(
      'SELECT chunk_count, event_count, user_agent FROM recording_sessions WHERE id = $1',
      [id],
    );
    expect(row).toMatchObject({ chunk_count: 2, event_count: 3 });
  });

  it("refuses uploads to someone else's recording, of the same firm or another (404), and anonymous ones (401)", async () => {
    const id = await start('dealer');
    for (const who of ['viewer', 'ops', 'second']) {
      const response = await upload(who, id, { seq: 0, events: [event(1)] });
      expect(response.statusCode, who).toBe(404);
      expect(json(response).message).toBe(RECORDING_MESSAGES.notFound);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/recording/sessions/${id}/events/`,
      payload: { seq: 0, events: [event(1)] },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/recording/sessions/', payload: {} })).statusCode).toBe(401);
    const [row] = await t.database.query<{ chunk_count: number }>('SELECT chunk_count FROM recording_sessions WHERE id = $1', [id]);
    expect(row!.chunk_count).toBe(0);
  });

  it('validates uploads with field errors (400), never 500', async () => {
    const id = await start('dealer');
    const empty = await upload('dealer', id, { seq: 0, events: [] });
    expect(empty.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(empty).errors.events).toEqual([RECORDING_MESSAGES.events]);
    const untyped = await upload('dealer', id, { seq: 0, events: [{ timestamp: 1, data: {} }] });
    expect(untyped.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(untyped).errors['events.0.type']).toEqual([RECORDING_MESSAGES.event]);
    expect((await upload('dealer', id, { seq: 0, events: [event(1)], user_id: 'x' })).statusCode).toBe(400);
    expect((await upload('dealer', id, { seq: -1, events: [event(1)] })).statusCode).toBe(400);
    expect((await upload('dealer', 'not-a-uuid', { seq: 0, events: [event(1)] })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/recording/sessions/', headers: as('dealer'), payload: { client_id: 'x' } }))
        .statusCode,
    ).toBe(400);
    const tooMany = await upload('dealer', id, {
      seq: 0,
      events: Array.from({ length: RECORDING_LIMITS.chunkMaxEvents + 1 }, (_, i) => event(i)),
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('caps one batch at 1 MiB and one recording at 20 MiB (413)', async () => {
    const id = await start('dealer');
    const justOver = await upload('dealer', id, { seq: 0, events: [event(1, 'x'.repeat(RECORDING_LIMITS.chunkMaxBytes))] });
    expect(justOver.statusCode).toBe(413);
    expect(json(justOver)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: RECORDING_MESSAGES.chunkTooLarge });
    const farOver = await upload('dealer', id, { seq: 0, events: [event(1, 'x'.repeat(2 * RECORDING_LIMITS.chunkMaxBytes))] });
    expect(farOver.statusCode).toBe(413);

    const big = 'y'.repeat(1_040_000);
    const fits = Math.floor(RECORDING_LIMITS.sessionMaxBytes / (big.length + 60));
    for (let seq = 0; seq < fits; seq++) expect((await upload('dealer', id, { seq, events: [event(seq, big)] })).statusCode).toBe(200);
    const full = await upload('dealer', id, { seq: fits, events: [event(fits, big)] });
    expect(full.statusCode).toBe(413);
    expect(json(full).message).toBe(RECORDING_MESSAGES.sessionFull);
    const [row] = await t.database.query<{ chunk_count: number; bytes: number }>(
      'SELECT chunk_count, bytes FROM recording_sessions WHERE id = $1',
      [id],
    );
    expect(row!.chunk_count).toBe(fits);
    expect(row!.bytes).toBeLessThanOrEqual(RECORDING_LIMITS.sessionMaxBytes);
  }, 120_000);

  it('rate-limits uploads per user (429 with Retry-After) without touching other users', async () => {
    const id = await start('broker');
    const statuses: number[] = [];
    for (let seq = 0; seq <= RECORDING_LIMITS.chunksPerMinute; seq++)
      statuses.push((await upload('broker', id, { seq, events: [event(seq)] })).statusCode);
    expect(statuses.slice(0, RECORDING_LIMITS.chunksPerMinute).every((s) => s === 200)).toBe(true);
    const limited = await upload('broker', id, { seq: 999, events: [event(1)] });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const other = await start('second');
    expect((await upload('second', other, { seq: 0, events: [event(1)] })).statusCode).toBe(200);
  });

  it("shows the ops admin their own firm's recordings only, with events in order; others are refused (403) or absent (404)", async () => {
    const mine = await start('dealer');
    await upload('dealer', mine, { seq: 1, events: [event(20, { marker: 'second-batch' })] });
    await upload('dealer', mine, { seq: 0, events: [event(10, { marker: 'first-batch' })] });
    const foreign = await start('second');
    await upload('second', foreign, { seq: 0, events: [event(5, { marker: 'second-bank' })] });

    const list = json<{ count: number; retention_days: number; results: Array<{ id: string; user_id: string; user_email: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/recording/sessions/?page_size=100', headers: as('ops') }),
    );
    expect(list.retention_days).toBe(30);
    expect(list.results.map((r) => r.id)).toContain(mine);
    expect(list.results.map((r) => r.id)).not.toContain(foreign);
    expect(list.results.every((r) => r.user_email.endsWith('@demo.dart'))).toBe(true);
    const viewerId = list.results.find((r) => r.user_email === 'viewer@demo.dart')!.user_id;
    const filtered = json<{ results: Array<{ user_email: string }> }>(
      await t.app.inject({ method: 'GET', url: `/api/recording/sessions/?user_id=${viewerId}`, headers: as('ops') }),
    );
    expect(filtered.results.length).toBeGreaterThan(0);
    expect(filtered.results.every((r) => r.user_email === 'viewer@demo.dart')).toBe(true);

    const detail = await t.app.inject({ method: 'GET', url: `/api/recording/sessions/${mine}/`, headers: as('ops') });
    expect(detail.statusCode).toBe(200);
    expect(detail.headers['cache-control']).toBe('private, no-store');
    expect(json<{ events: Array<{ data: { marker: string } }> }>(detail).events.map((e) => e.data.marker)).toEqual([
      'first-batch',
      'second-batch',
    ]);

    // Both the recording and its replay are in the audit trail, with who replayed whose session.
    const audited = await t.database.query<{ action: string; actor_email: string }>(
      `SELECT action, actor_email FROM audit_log WHERE entity_id = $1 ORDER BY id`,
      [mine],
    );
    expect(audited.map((row) => [row.action, row.actor_email])).toEqual([
      ['recording.started', 'dealer@demo.dart'],
      ['recording.viewed', 'opsadmin@demo.dart'],
    ]);

    const other = await t.app.inject({ method: 'GET', url: `/api/recording/sessions/${foreign}/`, headers: as('ops') });
    expect(other.statusCode).toBe(404);
    for (const who of ['dealer', 'viewer', 'compliance', 'second']) {
      expect((await t.app.inject({ method: 'GET', url: '/api/recording/sessions/', headers: as(who) })).statusCode, who).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `/api/recording/sessions/${mine}/`, headers: as(who) })).statusCode, who).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/recording/sessions/?page_size=1000', headers: as('ops') })).statusCode).toBe(
      400,
    );
  });

  it('keeps recordings for the retention only: older ones are hidden at once and purged by the next start', async () => {
    const old = await start('viewer');
    await upload('viewer', old, { seq: 0, events: [event(1)] });
    t.advanceClock(31 * 86_400_000);
    tokens.viewer = (await login(t.app, 'viewer@demo.dart')).access;
    tokens.ops = (await login(t.app, 'opsadmin@demo.dart')).access;
    expect((await t.app.inject({ method: 'GET', url: `/api/recording/sessions/${old}/`, headers: as('ops') })).statusCode).toBe(404);
    const list = json<{ results: Array<{ id: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/recording/sessions/', headers: as('ops') }),
    );
    expect(list.results.map((r) => r.id)).not.toContain(old);
    expect((await upload('viewer', old, { seq: 1, events: [event(2)] })).statusCode).toBe(404);

    const fresh = await start('viewer');
    const rows = await t.database.query<{ id: string }>('SELECT id FROM recording_sessions');
    expect(rows.map((r) => r.id)).toEqual([fresh]);
    const chunks = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM recording_chunks');
    expect(chunks[0]!.n).toBe(0);
  });
});
