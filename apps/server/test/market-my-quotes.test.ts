/**
 * Issue 12 §5 fix 10: `GET api/trade/eoi/` (spec §7), the caller's firm's own quotes — every status,
 * newest first, with the market list's paging and filters (`page`, `page_size`, `search`,
 * `finstrument_id`) and `status`; view-only users read it; another firm's quotes never show; bad
 * queries are 400s with field errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
const HDFC_NCD = 'INE040A08955';

type Quote = {
  id: string;
  finstrument_id: number;
  isin: string;
  display_name: string;
  status: string;
  is_mine: boolean;
  client_name: string | null;
  counterparties: string[] | null;
  created_at: string;
};
/** A setup step that must hold (expect() belongs in tests). */
function must(condition: boolean, what: string): void {
  if (!condition) throw new Error(`setup failed: ${what}`);
}
type QuoteList = { count: number; page: number; page_size: number; results: Quote[]; restriction_text: string | null };

describe.each(DRIVERS)('GET api/trade/eoi/: own quotes (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let gsec: number;
  let hdfc: number;
  /** Demo's quotes, oldest first. */
  const demo: Quote[] = [];
  let secondQuote: Quote;

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const quote = async (who: string, body: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      payload: { quantum: 10 * LAKH, finstrument_id: gsec, yield_stored: 0.07, ...body },
      headers: bearer(tok[who]!),
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };
  const mine = async (who: string, query = '') => {
    const response = await get(who, `/api/trade/eoi/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<QuoteList>(response);
  };

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const who = {
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      viewer: 'viewer@demo.dart',
      compliance: 'compliance@demo.dart',
      basic: 'basic@small.dart',
    };
    for (const [name, email] of Object.entries(who)) tok[name] = (await login(t.app, email)).access;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
    // Demo: four bids (never crossing), one closed, one expired by hand, one past its expiry before the sweep.
    demo.push(await quote('demo', { yield_stored: 0.0701 }));
    demo.push(await quote('demo', { finstrument_id: hdfc, yield_stored: 0.079 }));
    demo.push(await quote('demo', { yield_stored: 0.0702 }));
    demo.push(await quote('demo', { finstrument_id: hdfc, yield_stored: 0.0791 }));
    demo.push(await quote('demo', { yield_stored: 0.0703 }));
    const closed = await t.app.inject({ method: 'PUT', url: `/api/trade/d/eoi/${demo[0]!.id}/close/`, headers: bearer(tok.demo!) });
    must(closed.statusCode === 200, `close: ${closed.body}`);
    const expired = await t.app.inject({ method: 'POST', url: `/api/eoi/expire/${demo[1]!.id}/`, headers: bearer(tok.demo!) });
    must(expired.statusCode === 200, `expire: ${expired.body}`);
    await t.database.query(`UPDATE quotes SET expires_at = now() - interval '1 minute' WHERE id = $1`, [demo[2]!.id]);
    secondQuote = await quote('second', { yield_stored: 0.0799 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("lists every quote of the caller's firm, newest first, and none of another firm's", async () => {
    const list = await mine('demo');
    expect(list).toMatchObject({ count: 5, page: 1, page_size: 20, restriction_text: null });
    expect(list.results.map((q) => q.id)).toEqual(demo.map((q) => q.id).toReversed());
    expect(list.results.every((q) => q.is_mine && q.client_name !== null && q.counterparties !== null)).toBe(true);
    expect(list.results.find((q) => q.id === demo[0]!.id)!.status).toBe('closed');
    expect(list.results.find((q) => q.id === demo[1]!.id)!.status).toBe('expired');
    // Past its expiry: expired, whether or not the sweep has marked it yet.
    expect(list.results.find((q) => q.id === demo[2]!.id)!.status).toBe('expired');
    const second = await mine('second');
    expect(second.results.map((q) => q.id)).toEqual([secondQuote.id]);
    expect(await mine('basic')).toMatchObject({ count: 0, results: [] });
  });

  it('lets view-only users (viewer, compliance) read their firm’s quotes', async () => {
    const all = (await mine('demo')).results.map((q) => q.id);
    for (const who of ['viewer', 'compliance'])
      expect(
        (await mine(who)).results.map((q) => q.id),
        who,
      ).toEqual(all);
    // Reading is allowed; writing still is not.
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      payload: { quantum: 10 * LAKH, finstrument_id: gsec, yield_stored: 0.07 },
      headers: bearer(tok.viewer!),
    });
    expect(write.statusCode).toBe(403);
  });

  it("filters by the market list's search and finstrument_id, by status, and pages", async () => {
    const hdfcQuotes = [demo[3]!.id, demo[1]!.id];
    expect((await mine('demo', '?search=hdfc')).results.map((q) => q.id)).toEqual(hdfcQuotes);
    expect((await mine('demo', `?search=${HDFC_NCD.toLowerCase()}`)).results.map((q) => q.id)).toEqual(hdfcQuotes);
    expect((await mine('demo', `?finstrument_id=${hdfc}`)).results.map((q) => q.id)).toEqual(hdfcQuotes);
    expect((await mine('demo', `?finstrument_id=${gsec}&search=hdfc`)).count).toBe(0);
    // The search is the header's bond search (issue 12 §5 fix 1): words in any order, not a substring of the name.
    expect((await mine('demo', `?search=${encodeURIComponent('hdfc 2028')}`)).results.map((q) => q.id)).toEqual(hdfcQuotes);
    expect((await mine('demo', `?search=${encodeURIComponent('7.26 GS 2033')}`)).results.map((q) => q.id)).toEqual(
      [demo[4]!, demo[2]!, demo[0]!].map((q) => q.id),
    );
    expect((await mine('demo', `?search=${encodeURIComponent('hdfc 2033')}`)).count).toBe(0);
    // A LIKE wildcard is punctuation, never a pattern: "%" alone matches nothing, "7.26%" is the coupon 7.26.
    expect((await mine('demo', '?search=%25')).count).toBe(0);
    expect((await mine('demo', '?search=7_26')).count).toBe(0);
    expect((await mine('demo', '?search=7.26%25')).count).toBe(3);

    expect((await mine('demo', '?status=open')).results.map((q) => q.id)).toEqual([demo[4]!.id, demo[3]!.id]);
    expect((await mine('demo', '?status=closed')).results.map((q) => q.id)).toEqual([demo[0]!.id]);
    expect((await mine('demo', '?status=expired')).results.map((q) => q.id)).toEqual([demo[2]!.id, demo[1]!.id]);
    expect((await mine('demo', '?status=filled')).count).toBe(0);

    const page2 = await mine('demo', '?page=2&page_size=2');
    expect(page2).toMatchObject({ count: 5, page: 2, page_size: 2 });
    expect(page2.results.map((q) => q.id)).toEqual([demo[2]!.id, demo[1]!.id]);
    expect((await mine('demo', '?page=4&page_size=2')).results).toEqual([]);
  });

  it('refuses bad queries with field errors and callers who are signed out', async () => {
    const cases: Array<[string, string]> = [
      ['?page_size=101', 'page_size'],
      ['?page=0', 'page'],
      ['?status=pending', 'status'],
      ['?finstrument_id=abc', 'finstrument_id'],
      ['?my_quotes=true', 'my_quotes'],
      [`?search=${'x'.repeat(101)}`, 'search'],
    ];
    for (const [query, field] of cases) {
      const response = await get('demo', `/api/trade/eoi/${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string[]> }>(response).errors), query).toContain(field);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/trade/eoi/' })).statusCode).toBe(401);
  });
});
