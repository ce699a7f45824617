/**
 * Bus-invalidated caches after a missed bus message (runs when DATABASE_URL and REDIS_URL are set). Two
 * nodes share one PostgreSQL database; node B reaches Redis through a TCP proxy that the test cuts. While
 * B is cut off, node A changes the book and ends a session: the invalidations B would have got through
 * Redis pub/sub (no replay) are lost to it. Once Redis returns and B's bus has resubscribed, B's next
 * reads are fresh: public runs, market depth and the signed-in principal. Node B's clock is held still,
 * so its 1 s cache TTL cannot hide a stale entry: only the resubscription can clear it. A live socket
 * (`ws/trade/d/`) held open on B through the cut catches up on the events it missed.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LIVE_PATH } from '@dart/contracts';
import { WebSocket } from 'ws';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { bearer, createPostgresDatabase, json, login } from './helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/** Sizes are face value in rupees (issue 12 §1): whole ₹100 G-sec bonds. */
const LAKH = 100_000;
const GSEC_2033 = 'IN0020220151';
type Runs = { results: Array<{ id: string }> };
type Depth = { bid_count: number; bid_quantum: number };

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('caches after a Redis reconnect (two nodes)', () => {
  let proxy: TcpProxy;
  let drop: () => Promise<void>;
  let a: FastifyInstance;
  let b: FastifyInstance;
  /** Node B's clock: held at this instant while set. */
  let heldAt: Date | null = null;
  const tok: Record<string, string> = {};
  let gsec: number;

  beforeAll(async () => {
    const scratch = await createPostgresDatabase();
    drop = scratch.drop;
    const redis = new URL(process.env.REDIS_URL!);
    proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    const viaProxy = new URL(redis.toString());
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const env = {
      NODE_ENV: 'test',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DEMO_SEED: '1',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/dart-test-unused',
      CREDENTIAL_RATE_PER_MINUTE: '1000',
      BOND_IMPORT: 'slice',
      DATABASE_URL: scratch.url,
    };
    a = await buildApp({ config: loadConfig({ ...env, REDIS_URL: redis.toString() }) });
    b = await buildApp({ config: loadConfig({ ...env, REDIS_URL: viaProxy.toString() }), now: () => heldAt ?? new Date() });
    await Promise.all([a.ready(), b.ready()]);
    if (b.deps.bus.kind !== 'redis') throw new Error('expected the Redis bus');
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart' }))
      tok[name] = (await login(a, email)).access;
    gsec = json<{ id: number }>(await a.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
    await drop?.();
  });

  const get = (node: FastifyInstance, who: string, url: string) => node.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const bid = async (quantum: number) => {
    const response = await a.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      headers: bearer(tok.demo!),
      payload: { quantum, finstrument_id: gsec, yield_stored: 0.0735, quote_type: 'BID' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string }>(response).id;
  };
  const runsOnB = async () => json<Runs>(await get(b, 'second', `/api/trade/d/market/?finstrument_id=${gsec}&page_size=100`));
  const depthOnB = async () => json<Depth>(await get(b, 'second', `/api/quote/depth/?finstrument_id=${gsec}`));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Cuts B off Redis, runs `meanwhile` on node A, restores, and waits for B's bus to resubscribe and its HTTP to answer. */
  async function missWhileCut(meanwhile: () => Promise<void>) {
    let resynced!: () => void;
    const resubscribed = new Promise<void>((resolve) => (resynced = resolve));
    const stop = b.deps.bus.onResync(() => resynced());
    try {
      proxy.cut();
      await sleep(100);
      await meanwhile();
      proxy.restore();
      await Promise.race([resubscribed, sleep(15_000).then(() => Promise.reject(new Error('node B never resubscribed')))]);
    } finally {
      stop();
    }
    // The HTTP rate limit's Redis connection on node B comes back on its own schedule: answers 503 until then.
    let probe: LightMyRequestResponse | undefined;
    for (let i = 0; i < 60 && probe?.statusCode !== 200; i++) {
      if (i > 0) await sleep(250);
      probe = await get(b, 'second', '/api/session/');
    }
    expect(probe?.statusCode, probe?.body).toBe(200);
  }

  it('serves public runs and depth fresh after a change it missed while Redis was cut', async () => {
    const first = await bid(110 * LAKH);
    heldAt = new Date();
    try {
      // Both caches on node B hold the book with the first bid only.
      const runsBefore = await runsOnB();
      expect(runsBefore.results.map((q) => q.id)).toContain(first);
      const depthBefore = await depthOnB();
      let added = '';
      await missWhileCut(async () => {
        added = await bid(220 * LAKH);
      });
      const fromA = json<Runs>(await get(a, 'second', `/api/trade/d/market/?finstrument_id=${gsec}&page_size=100`)).results.map(
        (q) => q.id,
      );
      expect(fromA).toContain(added);
      expect(fromA.length).toBe(runsBefore.results.length + 1);
      // Node B's clock has not moved: only the resubscription can have cleared its caches.
      expect((await runsOnB()).results.map((q) => q.id).toSorted()).toEqual(fromA.toSorted());
      const depthAfter = await depthOnB();
      expect(depthAfter.bid_count).toBe(depthBefore.bid_count + 1);
      expect(depthAfter.bid_quantum).toBe(depthBefore.bid_quantum + 220 * LAKH);
    } finally {
      heldAt = null;
    }
  }, 60_000);

  it('forgets cached principals: a sign-out it missed while Redis was cut ends the session there too', async () => {
    const { access } = await login(a, 'dealer@second.dart');
    heldAt = new Date();
    try {
      expect((await b.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode).toBe(200);
      await missWhileCut(async () => {
        const out = await a.inject({ method: 'POST', url: '/api/logout/', headers: bearer(access), payload: {} });
        expect(out.statusCode, out.body).toBeLessThan(300);
      });
      expect((await b.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode).toBe(401);
    } finally {
      heldAt = null;
    }
  }, 60_000);

  it('a live socket held open on B through the cut receives the events it missed, in order', async () => {
    await b.listen({ port: 0, host: '127.0.0.1' });
    const events: Array<{ position: number; payload: unknown }> = [];
    /** Opens and authenticates a live socket on B; null when B refused it (closed before auth_ok). */
    const openLive = () =>
      new Promise<WebSocket | null>((resolve) => {
        const candidate = new WebSocket(`ws://127.0.0.1:${(b.server.address() as AddressInfo).port}${LIVE_PATH}`);
        candidate.on('message', (raw) => {
          const message = JSON.parse(String(raw)) as { type: string; position: number; payload: unknown };
          if (message.type === 'auth_ok') resolve(candidate);
          if (message.type === 'event') events.push(message);
        });
        candidate.once('open', () => candidate.send(JSON.stringify({ type: 'auth', token: tok.second })));
        candidate.once('close', () => resolve(null));
        candidate.once('error', () => resolve(null));
      });
    // The socket cap's own Redis connection on B comes back from the earlier cuts on its own schedule: until
    // then B refuses new sockets with 1013 (try again later), as designed. Retry the open like a client does.
    let socket: WebSocket | null = null;
    for (let i = 0; i < 60 && !socket; i++) {
      if (i > 0) await sleep(250);
      socket = await openLive();
    }
    if (!socket) throw new Error('node B never admitted a live socket');
    try {
      const before = await bid(330 * LAKH);
      for (let i = 0; i < 100 && !JSON.stringify(events).includes(before); i++) await sleep(50);
      expect(JSON.stringify(events)).toContain(before);
      let missed = '';
      await missWhileCut(async () => {
        missed = await bid(440 * LAKH);
      });
      for (let i = 0; i < 200 && !JSON.stringify(events).includes(missed); i++) await sleep(50);
      expect(JSON.stringify(events), 'the event published while B was cut off Redis').toContain(missed);
      const positions = events.map((e) => e.position);
      expect(positions).toEqual(positions.toSorted((x, y) => x - y));
      expect(new Set(positions).size).toBe(positions.length);
      expect(socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      socket.close();
    }
  }, 60_000);
});
