/**
 * The HTTP rate limit spares the web build's hashed files: a page load fetches dozens of them and an
 * office behind one NAT shares an IP's budget before signing in (the e2e suite, all on 127.0.0.1, was
 * refused its own scripts). Unknown paths, the app's pages and the API still count.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, type TestApp } from './helpers';

const LIMIT = 5;

describe.each(DRIVERS)('rate limit and the built assets (%s)', (driver) => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'dart-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Dart</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-4f2c9a.js'), 'console.log(1);');
    t = await createTestApp(driver, { WEB_DIST: webDist, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves a built asset past the limit, while pages and unknown assets from the same IP are refused', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' });
    for (let i = 0; i < LIMIT * 4; i += 1) {
      const asset = await get('/assets/app-4f2c9a.js?v=1');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
    }
    const pages: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1) pages.push((await get(i % 2 ? '/dart' : '/assets/not-built.js')).statusCode);
    expect(pages.slice(0, LIMIT).every((status) => status !== 429)).toBe(true);
    expect(pages.slice(LIMIT)).toEqual([429, 429]);
  });
});
