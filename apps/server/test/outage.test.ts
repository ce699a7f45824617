/**
 * Database outage (RELIABILITY #42): requests answer 503 while PostgreSQL is unreachable, the
 * process stays up, and it recovers by itself when the database returns. Runs when DATABASE_URL is
 * set (the embedded PGlite lives in-process and cannot go away on its own).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openPostgres } from '../src/db/client';
import { createLogger } from '../src/lib/logger';
import { bearer, createPostgresDatabase, json, login } from './helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import type { FastifyInstance } from 'fastify';

describe.runIf(Boolean(process.env.DATABASE_URL))('database outage (postgres)', () => {
  let proxy: TcpProxy;
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    const target = new URL(created.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(created.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DEMO_SEED: '1',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/dart-test-unused',
      DATABASE_URL: viaProxy.toString(),
      DB_QUERY_TIMEOUT_MS: '2000',
    });
    const database = await openPostgres(viaProxy.toString(), createLogger('silent'), 2000);
    app = await buildApp({ config, database });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await drop?.();
  });

  it('answers 503 during the outage and recovers without a restart', async () => {
    const { access } = await login(app, 'dealer@demo.dart');
    await new Promise((r) => setTimeout(r, 1100)); // let the principal cache expire
    proxy.cut();
    const started = Date.now();
    const during = await app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) });
    expect(during.statusCode).toBe(503);
    expect(json(during)).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable.' });
    expect(Date.now() - started).toBeLessThan(5000);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(json(health)).toMatchObject({ status: 'degraded', database: { ok: false } });

    proxy.restore();
    let recovered = 0;
    for (let i = 0; i < 20 && recovered !== 200; i++) {
      recovered = (await app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) })).statusCode;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
