import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DB_POOL_SIZE, findRepoRoot, loadConfig } from './config';

describe('configuration', () => {
  it('lists every problem readably', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', DATA_DIR: '/tmp/dart-config-test' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(problems).toMatch(/JWT_SECRET: must be at least 32 characters/);
  });

  it('keeps a few PostgreSQL connections unless told otherwise, and refuses a pool that cannot hold a request', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/dart-config-test' }).dbPoolSize).toBe(DEFAULT_DB_POOL_SIZE);
    expect(loadConfig({ DATA_DIR: '/tmp/dart-config-test', DB_POOL_SIZE: '12' }).dbPoolSize).toBe(12);
    // One connection: while a request's transaction waits on a row lock, no other statement of the node could run.
    expect(() => loadConfig({ DATA_DIR: '/tmp/dart-config-test', DB_POOL_SIZE: '1' })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/dart-config-test', DB_POOL_SIZE: 'many' })).toThrow(/DB_POOL_SIZE/);
  });

  it('requires JWT_SECRET in production and binds to loopback in development', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/dart-config-test' })).toThrow(/JWT_SECRET: required in production/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DEMO_SEED: '1', DATA_DIR: '/tmp/dart-config-test' }),
    ).toThrow(/demo accounts are not allowed/);
    const dev = loadConfig({ DATA_DIR: '/tmp/dart-config-test' });
    expect(dev.host).toBe('127.0.0.1');
    expect(dev.port).toBe(3000);
    expect(dev.demoSeed).toBe(true);
    expect(dev.devOutboxEnabled).toBe(true);
    const prod = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      CREDENTIALS_KEY: 'ab'.repeat(32),
      DATABASE_URL: 'postgres://db/dart',
      DATA_DIR: '/tmp/dart-config-test',
    });
    expect(prod.host).toBe('0.0.0.0');
    expect(prod.demoSeed).toBe(false);
    expect(prod.devOutboxEnabled).toBe(false);
    expect(prod.cookieSecure).toBe(true);
  });

  it('requires CREDENTIALS_KEY (32 bytes, hex or base64) in production and keeps a generated one in DATA_DIR elsewhere', () => {
    const base = { DATA_DIR: '/tmp/dart-config-test' };
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(
      /CREDENTIALS_KEY: required in production/,
    );
    expect(() => loadConfig({ ...base, CREDENTIALS_KEY: 'too-short' })).toThrow(/CREDENTIALS_KEY: must be 32 bytes/);
    expect(loadConfig({ ...base, CREDENTIALS_KEY: 'ab'.repeat(32) }).credentialsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(loadConfig({ ...base, CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64') }).credentialsKey).toEqual(Buffer.alloc(32, 7));
    const generated = loadConfig(base).credentialsKey;
    expect(generated).toHaveLength(32);
    expect(loadConfig(base).credentialsKey).toEqual(generated);
    expect(existsSync(path.join('/tmp/dart-config-test', 'credentials-key'))).toBe(true);
  });

  it('enforces trading hours in production by default, off elsewhere, and validates TRADING_HOURS', () => {
    const base = { DATA_DIR: '/tmp/dart-config-test' };
    expect(loadConfig(base).tradingHours).toBe('off');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).tradingHours).toBe('off');
    expect(loadConfig({ ...base, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), CREDENTIALS_KEY: 'ab'.repeat(32) }).tradingHours).toBe(
      'enforce',
    );
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), CREDENTIALS_KEY: 'ab'.repeat(32), TRADING_HOURS: 'off' })
        .tradingHours,
    ).toBe('off');
    expect(loadConfig({ ...base, TRADING_HOURS: 'enforce' }).tradingHours).toBe('enforce');
    expect(() => loadConfig({ ...base, TRADING_HOURS: 'sometimes' })).toThrow(/TRADING_HOURS: must be enforce or off/);
  });

  it('runs the surveillance scanner by default, not under NODE_ENV=test unless SURVEILLANCE_SCAN=on, and validates it', () => {
    const base = { DATA_DIR: '/tmp/dart-config-test' };
    expect(loadConfig(base).surveillanceScan).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).surveillanceScan).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test', SURVEILLANCE_SCAN: 'on' }).surveillanceScan).toBe(true);
    expect(loadConfig({ ...base, SURVEILLANCE_SCAN: 'off' }).surveillanceScan).toBe(false);
    expect(() => loadConfig({ ...base, SURVEILLANCE_SCAN: 'yes' })).toThrow(/SURVEILLANCE_SCAN: must be on or off/);
  });

  it('finds the repository root from the sources and from the server bundle, and reads bonds from reference-data/', () => {
    const root = findRepoRoot();
    expect(existsSync(path.join(root, 'reference-data/bonds/SOURCE.md'))).toBe(true);
    // The bundle runs from apps/server/dist/: the same root, so the same data, web build and migrations.
    expect(findRepoRoot(path.join(root, 'apps/server/dist'))).toBe(root);
    expect(() => findRepoRoot(path.parse(root).root)).toThrow(/No Dart repository/);
    const base = { DATA_DIR: '/tmp/dart-config-test' };
    expect(loadConfig(base).bondDataDir).toBe(path.join(root, 'reference-data'));
    expect(loadConfig(base).webDist).toBe(path.join(root, 'apps/web/dist'));
    expect(loadConfig({ ...base, BOND_DATA_DIR: '/srv/bonds' }).bondDataDir).toBe('/srv/bonds');
  });
});
