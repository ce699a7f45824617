/**
 * The development outbox (GET /api/dev/outbox) is public and shows anyone's one-time passwords, so it
 * cannot exist in production (issue 11 defect 10): the configuration refuses to start with it switched
 * on there, and the route is not even registered in production whatever the configuration object says.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import { openPglite } from '../src/db/client';
import { createTestApp, DRIVERS } from './helpers';

const BASE = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  DATA_DIR: '/tmp/dart-test-unused',
  LOG_LEVEL: 'silent',
};

describe('dev outbox configuration', () => {
  it('refuses to start in production with the outbox switched on, saying why', () => {
    let error: unknown;
    try {
      loadConfig({ ...BASE, NODE_ENV: 'production', DEV_OUTBOX: '1' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "DEV_OUTBOX: the development outbox shows everyone's one-time passwords and cannot be enabled in production",
    ]);
  });

  it('is off in production, on elsewhere unless DEV_OUTBOX=0', () => {
    expect(loadConfig({ ...BASE, NODE_ENV: 'production' }).devOutboxEnabled).toBe(false);
    expect(loadConfig({ ...BASE, NODE_ENV: 'production', DEV_OUTBOX: '0' }).devOutboxEnabled).toBe(false);
    expect(loadConfig({ ...BASE, NODE_ENV: 'development' }).devOutboxEnabled).toBe(true);
    expect(loadConfig({ ...BASE, NODE_ENV: 'test' }).devOutboxEnabled).toBe(true);
    expect(loadConfig({ ...BASE, NODE_ENV: 'development', DEV_OUTBOX: '0' }).devOutboxEnabled).toBe(false);
  });
});

describe.each(DRIVERS)('dev outbox route (%s)', (driver) => {
  it('exists in tests, and not at all in production', async () => {
    const test = await createTestApp(driver);
    try {
      expect(test.app.routeInventory.some((r) => r.url === '/api/dev/outbox')).toBe(true);
      expect((await test.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
    } finally {
      await test.close();
    }
    const production = await createTestApp(driver, { NODE_ENV: 'production', DEMO_SEED: '0' });
    try {
      expect(production.app.routeInventory.some((r) => r.url.startsWith('/api/dev/'))).toBe(false);
      const response = await production.app.inject({ method: 'GET', url: '/api/dev/outbox?to=dealer@demo.dart' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await production.close();
    }
  });
});

describe('dev outbox route, forced on', () => {
  it('is not registered in production even when the configuration object claims it is enabled', async () => {
    const config = { ...loadConfig({ ...BASE, NODE_ENV: 'production' }), devOutboxEnabled: true };
    const app = await buildApp({ config, database: await openPglite('memory://') });
    try {
      await app.ready();
      expect(app.routeInventory.some((r) => r.url === '/api/dev/outbox')).toBe(false);
      expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
