/**
 * Schema fuzzing of every HTTP route (RELIABILITY #21, #25, #39): generated bodies, queries and path
 * parameters (wrong types, unknown fields, prototype-pollution keys, duplicate keys, malformed JSON,
 * injection-looking strings, huge numbers) sent as a signed-in dealer. Every answer must be a
 * deliberate one: below 500, a JSON error body for 4xx, and no stack trace or SQL text anywhere.
 * Generation is seeded, so a failure names a case that reproduces.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helpers';

/** Field names the API uses, so generated objects reach the validators' deeper branches. */
const KNOWN_KEYS = [
  'email',
  'password',
  'otp',
  'isin',
  'finstrument_id',
  'quantum',
  'unit_price_stored',
  'yield_stored',
  'price',
  'yield',
  'settlement_delta',
  'settlement_date',
  'quote_type',
  'validity',
  'page',
  'page_size',
  'search',
  'search_param',
  'exchange',
  'for_rfq',
  'my_quotes',
  'filters',
  'pagination',
  'sort',
  'replaces',
  'ids',
  'userId',
  'channel_url',
  'message',
  'reqId',
  'invitedUserIds',
  'customType',
  'startTime',
  'endTime',
  'channelIds',
  'token',
  'refresh',
  'key',
  'enabled',
] as const;

const nasty = fc.constantFrom(
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '../../etc/passwd',
  '\u0000',
  '\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '%00',
  '𝒳'.repeat(300),
  'a'.repeat(10_000),
  '-1',
  '1e308',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'INE002A08534',
);
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  nasty,
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, -0),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  { maxDepth: 2 },
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.dictionary(fc.constantFrom(...KNOWN_KEYS), scalar, { maxKeys: 3 }),
);
const shapedObject = fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.string({ maxLength: 12 })), value, { maxKeys: 8 });
/** Raw bodies, sent as application/json text. */
const rawBody = fc.oneof(
  shapedObject.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"email":"a@b.in","email":"c@d.in"}',
    '{"quantum":',
    '[]',
    'null',
    '"text"',
    '{"a":' + '['.repeat(500) + ']'.repeat(500) + '}',
  ),
);
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.string({ maxLength: 8 })), fc.oneof(fc.string({ maxLength: 20 }), nasty)), {
    maxLength: 4,
  })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
const pathParam = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), nasty, fc.uuid(), fc.integer().map(String));

/** Routes whose success ends the caller's session or that only stream: fuzzed elsewhere. */
const SKIPPED = new Set(['POST /api/logout/', 'DELETE /api/remove-sb-session']);
const CASES_PER_ROUTE = 25;

const LEAK = /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|syntax error at/;

describe('route fuzzing (pglite)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('pglite', { RATE_LIMIT_PER_MINUTE: '1000000' });
    token = (await login(t.app, 'dealer@demo.dart')).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers generated input on every route with a deliberate 2xx–4xx, never a 5xx or a leak', async () => {
    const routes = t.app.routeInventory.filter((r) => !r.websocket && !SKIPPED.has(`${r.method} ${r.url}`));
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;
    for (const [index, route] of routes.entries()) {
      const cases = fc.sample(fc.tuple(rawBody, queryString, fc.array(pathParam, { minLength: 3, maxLength: 3 })), {
        numRuns: CASES_PER_ROUTE,
        seed: 4242 + index,
      });
      for (const [body, query, params] of cases) {
        let i = 0;
        const path = route.url.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(params[i++ % params.length]!));
        const url = `${path}${query ? `?${query}` : ''}`;
        const hasBody = route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE';
        const response = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...bearer(token), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
          ...(hasBody ? { payload: body } : {}),
        });
        sent++;
        const text = response.body.slice(0, 2000);
        if (response.statusCode >= 500)
          failures.push(`${route.method} ${url.slice(0, 200)} body=${body.slice(0, 200)} → ${response.statusCode} ${text.slice(0, 200)}`);
        else if (LEAK.test(text)) failures.push(`${route.method} ${url.slice(0, 200)} leaked internals: ${text.slice(0, 200)}`);
        else if (response.statusCode >= 400 && response.headers['content-type']?.toString().includes('application/json')) {
          const parsed = JSON.parse(response.body) as { code?: unknown; message?: unknown };
          if (typeof parsed.message !== 'string') failures.push(`${route.method} ${route.url} → ${response.statusCode} without a message`);
        }
      }
    }
    expect(sent).toBeGreaterThan(routes.length * (CASES_PER_ROUTE - 1));
    expect(failures).toEqual([]);
  }, 240_000);
});
