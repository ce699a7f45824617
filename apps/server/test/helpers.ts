/**
 * Integration-test harness: builds the real app on a throwaway database. PGlite (in memory) always;
 * PostgreSQL (a fresh database per suite, dropped afterwards) and the Redis bus when DATABASE_URL /
 * REDIS_URL are set.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openPglite, openPostgres, type Database } from '../src/db/client';
import { createLogger } from '../src/lib/logger';

export type Driver = 'pglite' | 'postgres';
export const DRIVERS: Driver[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
// Under CI no suite may quietly drop to the embedded database only: PostgreSQL and Redis must be there.
if (process.env.CI && !(process.env.DATABASE_URL && process.env.REDIS_URL))
  throw new Error('CI runs every integration suite on PostgreSQL and Redis too: set DATABASE_URL and REDIS_URL.');
export const DEMO_PASSWORD = 'Demo@12345';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  /** Everything the app logged, for secret scans. */
  logs: string[];
  /** Moves the app's clock (OTP expiry and similar). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** Creates a fresh PostgreSQL database next to DATABASE_URL and returns its URL and a dropper. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `dart_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestApp(driver: Driver, env: Record<string, string> = {}): Promise<TestApp> {
  let offset = 0;
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  let drop = async () => {};
  let database: Database;
  let databaseUrl: string | undefined;
  if (driver === 'postgres') {
    const created = await createPostgresDatabase();
    drop = created.drop;
    databaseUrl = created.url;
    database = await openPostgres(created.url, createLogger('silent'), 5000);
  } else {
    database = await openPglite('memory://');
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    DEMO_SEED: '1',
    LOG_LEVEL: 'info',
    CREDENTIAL_RATE_PER_MINUTE: '1000',
    DATA_DIR: '/tmp/dart-test-unused',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(driver === 'postgres' && process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const app = await buildApp({ config, database, now: () => new Date(Date.now() + offset), logStream });
  await app.ready();
  return {
    app,
    config,
    database,
    logs,
    advanceClock: (ms) => {
      offset += ms;
    },
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<{ access: string; refresh: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
  return json(response);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The newest 6-digit code the dev outbox holds for a recipient. */
export async function latestOtp(app: FastifyInstance, to: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  const message = json<{ results: Array<{ body: string }> }>(response).results[0];
  const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no OTP in outbox for ${to}`);
  return code;
}

export interface RedisCluster {
  nodes: FastifyInstance[];
  /** `ws://127.0.0.1:<port>` of each node, to append a socket path to. */
  origins: string[];
  close(): Promise<void>;
}

export interface ClusterOptions {
  /**
   * Gives every node a DATA_DIR of its own (a fresh temporary folder, removed on close), as separate
   * machines have: anything a node keeps on its own disk is then invisible to the others. Without it
   * all nodes share one DATA_DIR, which hides such state.
   */
  perNodeDataDir?: boolean;
}

/**
 * `count` app nodes listening on loopback, on one fresh PostgreSQL database and the Redis bus
 * (DATABASE_URL and REDIS_URL must be set). Started one after the other, so later nodes find the
 * schema migrated and the demo seed in place.
 */
export async function startRedisCluster(
  count: number,
  env: Record<string, string> = {},
  options: ClusterOptions = {},
): Promise<RedisCluster> {
  const scratch = await createPostgresDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    DEMO_SEED: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/dart-test-unused',
    CREDENTIAL_RATE_PER_MINUTE: '1000',
    DATABASE_URL: scratch.url,
    REDIS_URL: process.env.REDIS_URL!,
    ...env,
  });
  const nodes: FastifyInstance[] = [];
  const origins: string[] = [];
  const dataDirs: string[] = [];
  for (let i = 0; i < count; i++) {
    if (options.perNodeDataDir) dataDirs.push(await mkdtemp(path.join(tmpdir(), `dart-node${i}-`)));
    const app = await buildApp({ config: options.perNodeDataDir ? { ...config, dataDir: dataDirs[i]! } : config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    nodes.push(app);
    origins.push(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  }
  if (nodes[0]!.deps.bus.kind !== 'redis') throw new Error('expected the Redis bus');
  return {
    nodes,
    origins,
    close: async () => {
      for (const app of nodes) await app.close();
      await scratch.drop();
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The body of an NSE one-to-many exchange RFQ (bid) on `finstrumentId`, as the exchange suites raise it; `extra` overrides. */
export function exchangeRfqBody(finstrumentId: number, extra: object = {}) {
  return {
    quantum: 500,
    finstrument_id: finstrumentId,
    yield_stored: 0.0712,
    validity: 60,
    send_to_rfq: true,
    clearing_corporation: 'NSCCL',
    ...extra,
  };
}
