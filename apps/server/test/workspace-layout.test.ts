/**
 * The saved /dart layout (issue 12 §2) through the HTTP API: each user reads and replaces only their
 * own, view-only users included; malformed or oversized layouts are refused with a field error; two
 * nodes on one PostgreSQL database answer the same saved layout.
 */
import { WORKSPACE_LAYOUT_MAX_BYTES, WORKSPACE_LAYOUT_MESSAGES, WORKSPACE_LAYOUT_PATH, WORKSPACE_PANELS } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, startRedisCluster, type RedisCluster, type TestApp } from './helpers';

interface Saved {
  layout: { panels: string[]; dock: { panels: Record<string, { id: string }> } } | null;
  version: number;
  updated_at: string | null;
}

const TITLES = WORKSPACE_PANELS.map((panel) => panel.title);

/** A dock of one group holding `ids` as tabs (the shape dockview's toJSON writes). */
function layoutOf(ids: string[], extra: Record<string, unknown> = {}) {
  return {
    panels: TITLES,
    dock: {
      grid: {
        root: {
          type: 'branch',
          data: [{ type: 'leaf', data: { views: ids, activeView: ids[0], id: '1' }, size: 800 }],
          size: 600,
        },
        width: 800,
        height: 600,
        orientation: 'HORIZONTAL',
      },
      panels: Object.fromEntries(ids.map((id) => [id, { id, contentComponent: id, title: id, ...extra }])),
      activeGroup: '1',
    },
  };
}

describe.each(DRIVERS)('workspace layout (%s)', (driver) => {
  let t: TestApp;
  let dealer: string;
  let viewer: string;
  beforeAll(async () => {
    t = await createTestApp(driver);
    dealer = (await login(t.app, 'dealer@demo.dart')).access;
    viewer = (await login(t.app, 'viewer@demo.dart')).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (token: string) => t.app.inject({ method: 'GET', url: WORKSPACE_LAYOUT_PATH, headers: bearer(token) });
  const put = (token: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: WORKSPACE_LAYOUT_PATH, headers: bearer(token), payload: payload as object });

  it('answers no layout, version 0, before the first save', async () => {
    const response = await get(dealer);
    expect(response.statusCode).toBe(200);
    expect(json<Saved>(response)).toEqual({ layout: null, version: 0, updated_at: null });
  });

  it('saves the caller’s layout, counts versions, and answers it on the next read', async () => {
    const first = await put(dealer, { layout: layoutOf(['chat', 'public-runs']) });
    expect(first.statusCode).toBe(200);
    expect(json<Saved>(first).version).toBe(1);
    const second = await put(dealer, { layout: layoutOf(['build-network', 'chat']) });
    expect(json<Saved>(second).version).toBe(2);
    const read = json<Saved>(await get(dealer));
    expect(read.version).toBe(2);
    expect(Object.keys(read.layout!.dock.panels).sort()).toEqual(['build-network', 'chat']);
    expect(read.layout!.panels).toContain('Build Network');
    expect(Date.parse(read.updated_at!)).not.toBeNaN();
  });

  it('keeps each user’s layout their own, and lets a view-only user save theirs', async () => {
    expect(json<Saved>(await get(viewer)).layout).toBeNull();
    const saved = await put(viewer, { layout: layoutOf(['rfq-quotes']) });
    expect(saved.statusCode).toBe(200);
    expect(Object.keys(json<Saved>(await get(viewer)).layout!.dock.panels)).toEqual(['rfq-quotes']);
    // The dealer's layout is untouched by the viewer's save.
    expect(Object.keys(json<Saved>(await get(dealer)).layout!.dock.panels).sort()).toEqual(['build-network', 'chat']);
  });

  it('refuses a signed-out caller (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: WORKSPACE_LAYOUT_PATH })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: WORKSPACE_LAYOUT_PATH, payload: { layout: layoutOf(['chat']) } })).statusCode).toBe(
      401,
    );
  });

  it('refuses a layout over 64 KB with a field error on layout, and keeps the saved one', async () => {
    const before = json<Saved>(await get(dealer)).version;
    const padded = layoutOf(['chat'], { params: { note: 'x'.repeat(WORKSPACE_LAYOUT_MAX_BYTES) } });
    const response = await put(dealer, { layout: padded });
    expect(response.statusCode).toBe(400);
    const body = json<{ code: string; errors: Record<string, string[]> }>(response);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors.layout).toEqual([WORKSPACE_LAYOUT_MESSAGES.tooLarge]);
    expect(json<Saved>(await get(dealer)).version).toBe(before);
  });

  it('refuses malformed layouts with field errors (400)', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'layout'],
      [{ layout: 'not an object' }, 'layout'],
      [{ layout: layoutOf(['chat']), extra: 1 }, 'extra'],
      [{ layout: { ...layoutOf(['chat']), panels: ['Chat'] } }, 'layout.panels'],
      [{ layout: layoutOf(['no-such-panel']) }, 'layout.dock.panels'],
      [{ layout: { ...layoutOf(['chat']), dock: { ...layoutOf(['chat']).dock, grid: { orientation: 'DIAGONAL' } } } }, 'layout.dock.grid'],
    ];
    for (const [payload, field] of cases) {
      const response = await put(dealer, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      const body = json<{ code: string; errors: Record<string, string[]> }>(response);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(
        Object.keys(body.errors).some((key) => key.startsWith(field)),
        `${Object.keys(body.errors).join()} has ${field}`,
      ).toBe(true);
    }
    const bad = await t.app.inject({
      method: 'PUT',
      url: WORKSPACE_LAYOUT_PATH,
      headers: { ...bearer(dealer), 'content-type': 'application/json' },
      payload: '{"layout": {',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('workspace layout on two nodes', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2);
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('a layout saved on node A is the one node B answers (the second machine gets it)', async () => {
    const [a, b] = cluster.nodes as [TestApp['app'], TestApp['app']];
    const onA = (await login(a, 'dealer@second.dart')).access;
    const onB = (await login(b, 'dealer@second.dart')).access;
    const saved = await a.inject({
      method: 'PUT',
      url: WORKSPACE_LAYOUT_PATH,
      headers: bearer(onA),
      payload: { layout: layoutOf(['negotiations', 'build-network']) },
    });
    expect(saved.statusCode).toBe(200);
    const read = json<Saved>(await b.inject({ method: 'GET', url: WORKSPACE_LAYOUT_PATH, headers: bearer(onB) }));
    expect(read.version).toBe(json<Saved>(saved).version);
    expect(Object.keys(read.layout!.dock.panels).sort()).toEqual(['build-network', 'negotiations']);
    // Saves on both nodes count on: B's save is the next version, and A reads it.
    const next = await b.inject({
      method: 'PUT',
      url: WORKSPACE_LAYOUT_PATH,
      headers: bearer(onB),
      payload: { layout: layoutOf(['chat']) },
    });
    expect(json<Saved>(next).version).toBe(read.version + 1);
    expect(
      Object.keys(json<Saved>(await a.inject({ method: 'GET', url: WORKSPACE_LAYOUT_PATH, headers: bearer(onA) })).layout!.dock.panels),
    ).toEqual(['chat']);
  });
});
