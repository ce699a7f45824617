/**
 * The HTTP rate limits on two app nodes over PostgreSQL + Redis: the counters live in Redis, so a
 * client spreading its requests over both nodes gets the limit once, not once per node (before, each
 * node counted on its own and a password guesser got twice the guesses). When Redis cannot be reached
 * the limited routes answer 503 with Retry-After rather than running unlimited. Runs when DATABASE_URL
 * and REDIS_URL are set.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEMO_PASSWORD, json, startRedisCluster, type RedisCluster, type TestApp } from './helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

const CREDENTIAL_LIMIT = 4;
const GLOBAL_LIMIT = 12;

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('rate limits on two nodes', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster(2, {
      CREDENTIAL_RATE_PER_MINUTE: String(CREDENTIAL_LIMIT),
      RATE_LIMIT_PER_MINUTE: String(GLOBAL_LIMIT),
    });
    nodes = cluster.nodes;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('counts sign-in attempts from one IP across both nodes: the limit holds once for the cluster', async () => {
    const attempt = (node: number) =>
      nodes[node]!.inject({
        method: 'POST',
        url: '/api/token/',
        remoteAddress: '198.51.100.7',
        payload: { email: 'dealer@demo.dart', password: 'not-the-password' },
      });
    const statuses: number[] = [];
    // Alternating nodes, as a round-robin load balancer would send them.
    for (let i = 0; i < CREDENTIAL_LIMIT * 2; i++) statuses.push((await attempt(i % 2)).statusCode);
    expect(statuses.slice(0, CREDENTIAL_LIMIT).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(CREDENTIAL_LIMIT)).toEqual(Array(CREDENTIAL_LIMIT).fill(429));
    const refused = await attempt(1);
    expect(json(refused)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another IP is not affected.
    const other = await nodes[0]!.inject({
      method: 'POST',
      url: '/api/token/',
      remoteAddress: '198.51.100.8',
      payload: { email: 'dealer@demo.dart', password: DEMO_PASSWORD },
    });
    expect(other.statusCode, other.body).toBe(200);
  });

  it("counts a signed-in user's requests across both nodes", async () => {
    const signIn = await nodes[1]!.inject({
      method: 'POST',
      url: '/api/token/',
      remoteAddress: '198.51.100.9',
      payload: { email: 'dealer@second.dart', password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const { access } = json<{ access: string }>(signIn);
    const statuses: number[] = [];
    for (let i = 0; i < GLOBAL_LIMIT + 4; i++)
      statuses.push((await nodes[i % 2]!.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode);
    expect(statuses.slice(0, GLOBAL_LIMIT)).toEqual(Array(GLOBAL_LIMIT).fill(200));
    expect(statuses.slice(GLOBAL_LIMIT)).toEqual([429, 429, 429, 429]);
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('rate limits when Redis is unreachable', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(process.env.REDIS_URL!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    target.host = `127.0.0.1:${proxy.port}`;
    t = await createTestApp('postgres', { REDIS_URL: target.toString() });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('refuses with 503 and Retry-After (never unlimited), and recovers without a restart', async () => {
    const { access } = json<{ access: string }>(
      await t.app.inject({ method: 'POST', url: '/api/token/', payload: { email: 'dealer@demo.dart', password: DEMO_PASSWORD } }),
    );
    const session = () => t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) });
    expect((await session()).statusCode).toBe(200);
    proxy.cut();
    const refused = await session();
    expect(refused.statusCode).toBe(503);
    expect(json(refused)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(refused.headers['retry-after']).toBe('5');
    proxy.restore();
    // ioredis reconnects on its own.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await session()).statusCode;
    }
    expect(status).toBe(200);
  }, 30_000);
});
