/**
 * The API docs page (Swagger UI) under its own Content-Security-Policy: Swagger UI writes inline
 * style attributes, so the page must allow inline styles or every load logs violations; inline
 * script stays forbidden there, and the rest of the app keeps the app-wide policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, type TestApp } from './helpers';

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

describe.each(DRIVERS)('API docs CSP (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets the docs page and its assets apply inline styles, never run inline script', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/static/index.html', '/api/docs/static/swagger-initializer.js']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('style-src'), url).toContain("'unsafe-inline'");
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      // The site is served over plain HTTP in development and tests: nothing may be upgraded.
      expect(csp.has('upgrade-insecure-requests'), url).toBe(false);
    }
  });

  it('leaves the rest of the app under the app-wide policy', async () => {
    for (const url of ['/api/health', '/', '/dart']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'", 'ws:', 'wss:']);
    }
  });
});
