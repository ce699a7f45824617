/**
 * Find's remaining calls (issue 17 §3) through HTTP on the bond slice: categories with facet counts and the
 * spec's numeric/date filters, the client's finstrument list, market quote, quote calculation, master
 * quote and info v2; access per route, field errors for malformed input, and model coverage of unrated NCDs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const GS_2033 = 'IN0020220151'; // 7.26% GS 2033
const HDFC_NCD = 'INE040A08955'; // HDFC Bank NCD

type Category = { name: string; values: Array<{ value: string; label: string; count: number }> };

describe.each(DRIVERS)('Find calls (%s)', (driver) => {
  let t: TestApp;
  let dealer: string;
  let viewer: string;
  let basic: string;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    dealer = (await login(t.app, 'dealer@demo.dart')).access;
    viewer = (await login(t.app, 'viewer@demo.dart')).access;
    basic = (await login(t.app, 'basic@small.dart')).access;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object | undefined, token?: string) =>
    t.app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload }), headers: token ? bearer(token) : {} });

  it('categories: every value with its count, faceted by the other categories and narrowed by filters', async () => {
    const all = await post('/api/categories/', {});
    expect(all.statusCode, all.body).toBe(200);
    const cats = json<{ categories: Category[] }>(all).categories;
    expect(cats.map((c) => c.name)).toEqual(['security_type', 'credit_rating', 'exchange', 'reference_source']);
    const types = cats.find((c) => c.name === 'security_type')!.values;
    expect(types.find((v) => v.value === 'G-Sec')!.count).toBeGreaterThan(10);
    const ratings = cats.find((c) => c.name === 'credit_rating')!.values;
    expect(ratings.map((v) => v.value)).toContain('SOVEREIGN');
    expect(ratings.find((v) => v.value === 'NR')?.label).toBe('Not rated');
    expect(cats.find((c) => c.name === 'reference_source')!.values.every((v) => !/_/.test(v.label))).toBe(true);

    const onlyGsec = json<{ categories: Category[] }>(
      await post('/api/categories/', { category_list: ['credit_rating', 'security_type'], category_values: { security_type: ['G-Sec'] } }),
    ).categories;
    expect(onlyGsec.map((c) => c.name)).toEqual(['security_type', 'credit_rating']);
    expect(onlyGsec[1]!.values.map((v) => v.value)).toEqual(['SOVEREIGN']);
    // A category's own selection does not narrow its own facet.
    expect(onlyGsec[0]!.values.length).toBe(types.length);

    const long = json<{ categories: Category[] }>(
      await post('/api/categories/', {
        category_list: ['security_type'],
        filters: [
          { field: 'years_to_maturity', type: 'greaterThan', value: 20 },
          { field: 'maturity_date', type: 'after', value: '2040-01-01' },
        ],
      }),
    ).categories[0]!.values;
    const total = (vs: Category['values']) => vs.reduce((a, v) => a + v.count, 0);
    expect(total(long)).toBeGreaterThan(0);
    expect(total(long)).toBeLessThan(total(types));
  });

  it('categories and the list reject malformed input with field errors, never 500', async () => {
    const bad = [
      { category_list: ['colour'] },
      { category_list: [] },
      { category_values: { security_type: ['Gold'] } },
      { filters: [{ field: 'coupon_rate', type: 'after', value: 5 }] },
      { filters: [{ field: 'maturity_date', type: 'is', value: '2030-02-31' }] },
      { surprise: 1 },
    ];
    for (const payload of bad) {
      const response = await post('/api/categories/', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(json<{ errors: object }>(response).errors).length).toBeGreaterThan(0);
    }
    const page = await post('/api/client-finstrument-list/', { pagination_params: { page: 0, page_size: 1000 } }, dealer);
    expect(page.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: object }>(page).errors).join()).toMatch(/pagination_params/);
  });

  it('client finstrument list: signed in only; category values and filters; reference age; own firm only', async () => {
    expect((await post('/api/client-finstrument-list/', {})).statusCode).toBe(401);
    const response = await post(
      '/api/client-finstrument-list/',
      {
        pagination_params: { page: 1, page_size: 50 },
        category_values: { security_type: ['G-Sec'], credit_rating: ['SOVEREIGN'] },
        filters: [{ field: 'coupon_rate', type: 'greaterThanOrEqual', value: 7 }],
      },
      viewer,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{
      count: number;
      results: Array<{ security_type: string; coupon_rate: number; reference_age_days: number | null; client_open_quotes: number }>;
    }>(response);
    expect(body.count).toBeGreaterThan(0);
    expect(body.results.every((r) => r.security_type === 'G-Sec' && r.coupon_rate >= 7)).toBe(true);
    expect(body.results.some((r) => r.reference_age_days !== null && r.reference_age_days >= 0)).toBe(true);
    const mine = json<{ count: number }>(await post('/api/client-finstrument-list/', { mine_only: true }, basic));
    expect(mine.count).toBe(0);
  });

  it('market quote: the mark priced for settlement with source, age and spread; public', async () => {
    const response = await post(`/api/quote/market/${GS_2033}/`, { settlement_delta: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const q = json<{
      can_be_priced: boolean;
      mid: { clean_price: number; bond_yield: number };
      mark: { source: string; source_label: string; age_days: number };
      spread_to_gsec_bp: number;
    }>(response);
    expect(q.can_be_priced).toBe(true);
    expect(q.mid.clean_price).toBeGreaterThan(80);
    expect(q.mid.bond_yield).toBeGreaterThan(0.04);
    expect(q.mark.age_days).toBeGreaterThanOrEqual(0);
    expect(q.mark.source_label).not.toMatch(/_/);
    expect(Math.abs(q.spread_to_gsec_bp)).toBeLessThan(100);
    const both = await post(`/api/quote/market/${GS_2033}/`, { settlement_delta: 1, settlement_date: '2030-01-01' });
    expect(both.statusCode).toBe(400);
    expect((await post('/api/quote/market/INXXXXXXXXXX/', {})).statusCode).toBe(404);
  });

  it('quote calculation: signed in; price, consideration, durations, PV01 and spreads', async () => {
    expect((await post(`/api/quote/${GS_2033}/`, { yield: 0.07 })).statusCode).toBe(401);
    const response = await post(`/api/quote/${GS_2033}/`, { yield: 0.07, quantity: 100 }, viewer);
    expect(response.statusCode, response.body).toBe(200);
    const q = json<{
      price: { unit_clean_price: number };
      risk: { modified_duration: number; pv01_per_100: number };
      pv01_rupees: number;
      vs_mark_bp: number;
      consideration_details: { quantity: number };
    }>(response);
    expect(q.risk.modified_duration).toBeGreaterThan(3);
    expect(q.pv01_rupees).toBeCloseTo(q.risk.pv01_per_100 * 100, 1);
    expect(typeof q.vs_mark_bp).toBe('number');
    expect(q.consideration_details.quantity).toBe(100);
    const bad = await post(`/api/quote/${GS_2033}/`, { yield: 0.07, price: 99 }, viewer);
    expect(bad.statusCode).toBe(400);
    const badPrice = await post(`/api/quote/${GS_2033}/`, { price: 'abc' }, viewer);
    expect(badPrice.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(badPrice).errors.price).toBeDefined();
  });

  it('master quote: needs security-data access; every source with its age, the chosen first', async () => {
    expect((await post(`/api/v1/finstrument/master/quote/${GS_2033}`, {})).statusCode).toBe(401);
    const response = await post(`/api/v1/finstrument/master/quote/${GS_2033}`, {}, dealer);
    expect(response.statusCode, response.body).toBe(200);
    const m = json<{ chosen: { source: string }; sources: Array<{ source: string; chosen: boolean; priority: number; age_days: number }> }>(
      response,
    );
    expect(m.sources.length).toBeGreaterThan(0);
    expect(m.sources[0]!.chosen).toBe(true);
    expect(m.sources[0]!.source).toBe(m.chosen.source);
    expect(m.sources.map((s) => s.priority)).toEqual(m.sources.map((s) => s.priority).toSorted((a, b) => a - b));
  });

  it('info v2: header, mark and T+1 pricing in one; the HDFC Bank NCD is priced (close, trade, valuation or model)', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v2/finstrument/info/${HDFC_NCD}` });
    expect(response.statusCode, response.body).toBe(200);
    const info = json<{
      identifiers: { ISIN: string };
      mark: { source: string; age_days: number } | null;
      pricing: { can_be_priced: boolean };
    }>(response);
    expect(info.identifiers.ISIN).toBe(HDFC_NCD);
    expect(info.mark).not.toBeNull();
    expect(info.pricing.can_be_priced).toBe(true);
  });

  it('valuation coverage: every live coupon bond of the slice with known terms has a reference yield', async () => {
    const rows: Array<{ bond_yield: number | null; reference_source: string | null; coupon_rate: number | null; security_type: string }> =
      [];
    for (let page = 1; page < 30; page++) {
      const body = json<{ results: typeof rows }>(
        await post(
          '/api/client-finstrument-list/',
          {
            pagination_params: { page, page_size: 100 },
            category_values: { security_type: ['Bond/NCD', 'G-Sec', 'SDL'] },
            filters: [{ field: 'years_to_maturity', type: 'greaterThan', value: 0.1 }],
          },
          dealer,
        ),
      );
      rows.push(...body.results);
      if (body.results.length < 100) break;
    }
    const eligible = rows.filter((r) => (r.coupon_rate ?? 0) > 0);
    expect(eligible.length).toBeGreaterThan(100);
    const priced = eligible.filter((r) => r.bond_yield !== null);
    expect(priced.length / eligible.length).toBeGreaterThanOrEqual(0.95);
  });
});
