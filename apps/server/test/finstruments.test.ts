/**
 * Issue 4 ("Find") through the HTTP API on a slice of the real bond universe (BOND_IMPORT=slice):
 * search, security header, pricing, cash flows, bonds by the same issuer, trades, ratings, PDFs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151'; // 7.26% GS 2033, NSE closes in the slice
const HDFC_NCD = 'INE040A08955'; // HDFC Bank 7.70% NCD 16-May-2028, fund valuations, AAA
const UNLISTED_GSEC = 'IN0020060029'; // 8.23% GS 2027, not on the latest exchange lists
const MATURED = 'IN000124C015';
const SGB = 'IN0020150085';
const STRIPS = 'IN000136C019';

type Summary = {
  id: number;
  display_name: string;
  label: string;
  available: boolean;
  identifiers: { ISIN: string };
  is_matured: boolean;
  security_type: string;
  issuer_name: string | null;
};
type PriceInfo = {
  finstrument_id: number;
  fixed_field: string;
  can_be_priced: boolean;
  allow_price_modification: boolean;
  not_priceable_reason: string | null;
  trade_date: string;
  settlement_delta: number | null;
  warnings: string[];
  price: { unit_clean_price: number | null; bond_yield: number | null; settlement_date: string | null; accrued_interest: number | null };
  consideration_details: {
    quantity: number;
    principal: number;
    accrued_interest: number;
    consideration: number;
    stamp_duty: number;
    total: number;
    face_amount: number;
  } | null;
  reference: { source: string } | null;
};

describe.each(DRIVERS)('finstruments (%s)', (driver) => {
  let t: TestApp;
  let dealer: string;
  let basic: string;
  let viewer: string;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    dealer = (await login(t.app, 'dealer@demo.dart')).access;
    basic = (await login(t.app, 'basic@small.dart')).access;
    viewer = (await login(t.app, 'viewer@demo.dart')).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (q: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/finstruments/search/?searchKey=${encodeURIComponent(q)}` });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ finstruments: Summary[] }>(response).finstruments;
  };
  const priceOf = async (id: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1/finstrument/${id}/`, payload, headers });

  describe('search', () => {
    it('finds an exact ISIN first, then ISIN prefixes', async () => {
      const results = await search(GSEC_2033.toLowerCase());
      expect(results[0]!.identifiers.ISIN).toBe(GSEC_2033);
      const prefix = await search('IN00202201');
      expect(prefix.length).toBeGreaterThan(1);
      expect(prefix.every((r) => r.identifiers.ISIN.startsWith('IN00202201'))).toBe(true);
    });

    it('matches coupon, type and year tokens in any order ("7.26 gs 2033", "2033 7.26 gs")', async () => {
      expect((await search('7.26 gs 2033'))[0]!.identifiers.ISIN).toBe(GSEC_2033);
      expect((await search('2033 7.26 gs'))[0]!.identifiers.ISIN).toBe(GSEC_2033);
      expect((await search('7.26% G-Sec 2033'))[0]!.identifiers.ISIN).toBe(GSEC_2033);
    });

    it('ranks live bonds before matured ones, nearer maturities first ("hdfc 2028", "maharashtra sdl")', async () => {
      const hdfc = await search('hdfc 2028');
      expect(hdfc.length).toBeGreaterThan(0);
      expect(hdfc.every((r) => /hdfc/i.test(`${r.display_name} ${r.issuer_name}`))).toBe(true);
      const sdl = await search('maharashtra sdl');
      expect(sdl.length).toBeGreaterThan(5);
      expect(sdl.every((r) => r.security_type === 'SDL' && /maharashtra/i.test(r.display_name))).toBe(true);
      const firstMatured = sdl.findIndex((r) => r.is_matured);
      expect((firstMatured >= 0 ? sdl.slice(firstMatured) : []).every((r) => r.is_matured)).toBe(true);
    });

    it('puts every live bond before any matured one, even when the matured one matches a symbol ("hdfc", "gs")', async () => {
      for (const key of ['hdfc', 'hdfc bank', 'gs 20']) {
        const results = await search(key);
        const firstMatured = results.findIndex((r) => r.is_matured);
        expect(firstMatured === -1 || results.slice(firstMatured).every((r) => r.is_matured), key).toBe(true);
      }
    });

    it('labels matured and unlisted bonds and marks them not selectable', async () => {
      const [matured] = await search(MATURED);
      expect(matured!.label.startsWith('(MATURED) ')).toBe(true);
      expect(matured!.available).toBe(false);
      const [unlisted] = await search(UNLISTED_GSEC);
      expect(unlisted!.label).toBe(`(UNLISTED) ${unlisted!.display_name}`);
      expect(unlisted!.available).toBe(false);
      const [live] = await search(GSEC_2033);
      expect(live!.label).toBe('7.26% GS 2033');
      expect(live!.available).toBe(true);
    });

    it('answers "no bonds" with an empty list, and refuses fewer than 3 characters with a clear message', async () => {
      expect(await search('zzqx nothing')).toEqual([]);
      const short = await t.app.inject({ method: 'GET', url: '/api/finstruments/search/?searchKey=ab' });
      expect(short.statusCode).toBe(400);
      expect(json(short).message).toBe('Enter at least 3 characters to search.');
      const missing = await t.app.inject({ method: 'GET', url: '/api/finstruments/search/' });
      expect(missing.statusCode).toBe(400);
      const unknown = await t.app.inject({ method: 'GET', url: '/api/finstruments/search/?searchKey=hdfc&admin=1' });
      expect(unknown.statusCode).toBe(400);
      expect(json(unknown).errors).toEqual({ admin: ['Unknown field.'] });
      const capped = await t.app.inject({ method: 'GET', url: '/api/finstruments/search/?searchKey=hdfc&limit=5000' });
      expect(capped.statusCode).toBe(400);
    });
  });

  describe('security header', () => {
    it('shows terms, provenance and assumed fields', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` });
      expect(response.statusCode).toBe(200);
      const body = json<{
        assumed: string[];
        provenance: Record<string, string>;
        coupon_frequency: number;
        credit_rating: string;
        can_be_priced: boolean;
        reference: { source: string };
      }>(response);
      expect(body.assumed).toContain('coupon_frequency');
      expect(body.coupon_frequency).toBe(1);
      expect(body.provenance.coupon_rate).toMatch(/coupon_rate/);
      expect(body.provenance.coupon_frequency).toMatch(/assumed annual/);
      expect(body.credit_rating).toBe('AAA');
      expect(body.can_be_priced).toBe(true);
      expect(body.reference.source).toBe('MF_VALUATION');
      const byId = await t.app.inject({ method: 'GET', url: `/api/finstrument/${json<{ id: number }>(response).id}/` });
      expect(json<{ identifiers: { ISIN: string } }>(byId).identifiers.ISIN).toBe(HDFC_NCD);
    });

    it('answers 404 for an unknown bond and 400 for a malformed id', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/finstrument/INE999Z99999/' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: "/api/finstrument/1'%20or%201=1/" })).statusCode).toBe(400);
    });
  });

  describe('pricing', () => {
    it('gives price info at the reference yield for T+1 by default', async () => {
      const response = await priceOf(GSEC_2033, {});
      expect(response.statusCode, response.body).toBe(200);
      const info = json<PriceInfo>(response);
      expect(info.can_be_priced).toBe(true);
      expect(info.allow_price_modification).toBe(true);
      expect(info.fixed_field).toBe('yield');
      expect(info.settlement_delta).toBe(1);
      expect(info.reference!.source).toBe('NSE_CM_CLOSE');
      expect(info.price.unit_clean_price!).toBeGreaterThan(80);
      expect(info.price.unit_clean_price!).toBeLessThan(130);
      expect(info.price.bond_yield!).toBeGreaterThan(0.03);
      expect(info.price.settlement_date! > info.trade_date).toBe(true);
    });

    it('prices by yield or by price, and round-trips', async () => {
      const byYield = json<PriceInfo>(await priceOf(GSEC_2033, { yield: 0.068, quantity: 500_000 }));
      expect(byYield.fixed_field).toBe('yield');
      expect(byYield.price.bond_yield).toBe(0.068);
      const byPrice = json<PriceInfo>(await priceOf(GSEC_2033, { price: byYield.price.unit_clean_price, quantity: 500_000 }));
      expect(byPrice.fixed_field).toBe('price');
      expect(Math.abs(byPrice.price.bond_yield! - 0.068)).toBeLessThan(1e-5);
      // G-secs carry no stamp duty; principal + accrued = consideration.
      const c = byYield.consideration_details!;
      expect(c.stamp_duty).toBe(0);
      expect(c.face_amount).toBe(50_000_000);
      expect(Math.round((c.principal + c.accrued_interest) * 100)).toBe(Math.round(c.consideration * 100));
      expect(c.total).toBe(c.consideration);
    });

    it('charges stamp duty on a corporate bond', async () => {
      const info = json<PriceInfo>(await priceOf(HDFC_NCD, { yield: 0.07, quantity: 100 }));
      expect(info.consideration_details!.stamp_duty).toBeGreaterThan(0);
      expect(info.consideration_details!.total).toBeCloseTo(
        info.consideration_details!.consideration + info.consideration_details!.stamp_duty,
        2,
      );
    });

    it('moves the settlement date and consideration when T+1 changes to T+0', async () => {
      const t1 = json<PriceInfo>(await priceOf(GSEC_2033, { yield: 0.068, settlement_delta: 1, quantity: 1000 }));
      const t0 = json<PriceInfo>(await priceOf(GSEC_2033, { yield: 0.068, settlement_delta: 0, quantity: 1000 }));
      expect(t0.price.settlement_date).toBe(t0.trade_date);
      expect(t1.price.settlement_date! > t0.price.settlement_date!).toBe(true);
      expect(t1.consideration_details!.accrued_interest).not.toBe(t0.consideration_details!.accrued_interest);
      const t2 = json<PriceInfo>(await priceOf(GSEC_2033, { yield: 0.068, settlement_date: t1.price.settlement_date }));
      expect(t2.settlement_delta).toBeNull();
      expect(t2.price.unit_clean_price).toBe(t1.price.unit_clean_price);
    });

    it('rejects both price and yield, both settlement date and delta, and out-of-range values with the spec messages', async () => {
      const both = await priceOf(GSEC_2033, { yield: 0.07, price: 100 });
      expect(both.statusCode).toBe(400);
      expect(json(both).message).toBe('Cannot provide both price and yield');
      const settle = await priceOf(GSEC_2033, { settlement_date: '2030-01-02', settlement_delta: 1 });
      expect(json(settle).message).toBe('Cannot provide both settlement date and settlement delta');
      expect(json(await priceOf(GSEC_2033, { yield: 1.5 })).errors).toEqual({ yield: ['Yield above 100%'] });
      expect(json(await priceOf(GSEC_2033, { yield: -0.01 })).errors).toEqual({ yield: ['Cannot be negative'] });
      expect(json(await priceOf(GSEC_2033, { price: 300 })).errors).toEqual({ price: ['Should be less than 250'] });
      expect(json(await priceOf(GSEC_2033, { price: '100' })).errors).toEqual({ price: ['Should be number'] });
      expect(json(await priceOf(GSEC_2033, { settlement_delta: 3 })).statusCode ?? 400).toBe(400);
      expect(json(await priceOf(GSEC_2033, { quantity: 0 })).errors).toEqual({ quantity: ['Cannot be zero'] });
      expect(json(await priceOf(GSEC_2033, { price: 100, unit_price: 1 })).errors).toEqual({ unit_price: ['Unknown field.'] });
      const sunday = await priceOf(GSEC_2033, { settlement_date: '2027-01-03' });
      expect(sunday.statusCode).toBe(400);
      expect(json(sunday).message).toBe('Settlement date must be a business day.');
      const past = await priceOf(GSEC_2033, { settlement_date: '2020-01-06' });
      expect(json(past).message).toBe('Settlement date cannot be before the trade date.');
      expect((await priceOf(GSEC_2033, { settlement_date: '2030-02-30' })).statusCode).toBe(400);
    });

    it("shows 'NA' (cannot be priced) for matured bonds, gold bonds and bonds with no defensible number", async () => {
      for (const isin of [MATURED, SGB]) {
        const info = json<PriceInfo>(await priceOf(isin, {}));
        expect(info.can_be_priced, isin).toBe(false);
        expect(info.allow_price_modification, isin).toBe(false);
        expect(info.price.unit_clean_price).toBeNull();
        expect(info.not_priceable_reason).toBeTruthy();
      }
      const forced = await priceOf(SGB, { yield: 0.05 });
      expect(forced.statusCode).toBe(400);
      expect(json(forced).message).toMatch(/cannot be priced/);
    });

    it('prices STRIPS from the matrix (G-sec curve)', async () => {
      const info = json<PriceInfo>(await priceOf(STRIPS, {}));
      expect(info.can_be_priced).toBe(true);
      expect(info.reference!.source).toBe('MATRIX');
      expect(info.price.unit_clean_price!).toBeGreaterThan(20);
      expect(info.price.unit_clean_price!).toBeLessThan(100);
    });
  });

  describe('cash flows, related bonds, trades, ratings', () => {
    it('returns the cash-flow schedule for a quantity (Premium; 402 for BASIC; 401 signed out)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/cashflow/${GSEC_2033}/`,
        headers: bearer(dealer),
        payload: { quantity: 1000 },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = json<{
        cashflows: Array<{ interest: number; principal: number; total: number; due_date: string }>;
        totals: { principal: number; total: number };
      }>(response);
      expect(body.cashflows.length).toBeGreaterThan(10);
      expect(body.cashflows.at(-1)!.due_date).toBe('2033-02-06');
      expect(body.totals.principal).toBe(100_000);
      expect(body.cashflows[0]!.interest).toBeCloseTo((1000 * 100 * 0.0726) / 2, 2);
      const refDated = json<{ ref_date: string; cashflows: unknown[] }>(
        await t.app.inject({
          method: 'POST',
          url: `/api/cashflow/${GSEC_2033}/`,
          headers: bearer(dealer),
          payload: { quantity: 10, ref_date: '2032-01-01' },
        }),
      );
      expect(refDated.ref_date).toBe('2032-01-01');
      expect(refDated.cashflows.length).toBe(3);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/cashflow/${GSEC_2033}/`, headers: bearer(basic), payload: { quantity: 10 } }))
          .statusCode,
      ).toBe(402);
      expect((await t.app.inject({ method: 'POST', url: `/api/cashflow/${GSEC_2033}/`, payload: { quantity: 10 } })).statusCode).toBe(401);
      expect(
        json(await t.app.inject({ method: 'POST', url: `/api/cashflow/${GSEC_2033}/`, headers: bearer(dealer), payload: { quantity: 0 } }))
          .errors,
      ).toEqual({ quantity: ['Cannot be zero'] });
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/cashflow/${SGB}/`, headers: bearer(dealer), payload: { quantity: 1 } }))
          .statusCode,
      ).toBe(400);
    });

    it('lists bonds by the same issuer with pagination, sort and numeric/date filters', async () => {
      const url = `/api/bonds-by-same-issuer/${HDFC_NCD}/`;
      const page = json<{
        count: number;
        results: Array<{ identifiers: { ISIN: string }; coupon_rate: number; contract_parameters: { maturity_date: string } }>;
      }>(
        await t.app.inject({
          method: 'POST',
          url,
          payload: { pagination: { page: 1, page_size: 5 }, sort: { field: 'coupon_rate', direction: 'desc' } },
        }),
      );
      expect(page.results.length).toBe(5);
      expect(page.count).toBeGreaterThan(5);
      expect(page.results.every((r) => r.identifiers.ISIN.startsWith('INE040A') && r.identifiers.ISIN !== HDFC_NCD)).toBe(true);
      const coupons = page.results.map((r) => r.coupon_rate);
      expect(coupons).toEqual([...coupons].sort((a, b) => b - a));
      const filtered = json<{ results: Array<{ coupon_rate: number; contract_parameters: { maturity_date: string } }> }>(
        await t.app.inject({
          method: 'POST',
          url,
          payload: {
            filters: [
              { field: 'coupon_rate', type: 'greaterThan', value: 8 },
              { field: 'maturity_date', type: 'before', value: '2030-01-01' },
            ],
          },
        }),
      );
      expect(filtered.results.length).toBeGreaterThan(0);
      expect(filtered.results.every((r) => r.coupon_rate > 8 && r.contract_parameters.maturity_date < '2030-01-01')).toBe(true);
      expect((await t.app.inject({ method: 'POST', url, payload: { pagination: { page: 1, page_size: 1000 } } })).statusCode).toBe(400);
      expect(
        (await t.app.inject({ method: 'POST', url, payload: { filters: [{ field: 'coupon_rate', type: 'after', value: 8 }] } })).statusCode,
      ).toBe(400);
      expect((await t.app.inject({ method: 'POST', url, payload: { sort: { field: 'password' } } })).statusCode).toBe(400);
    });

    it('filters the Find grid over the universe', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/finstruments/',
        payload: {
          security_types: ['SDL'],
          search: 'maharashtra',
          filters: [{ field: 'years_to_maturity', type: 'greaterThan', value: 3 }],
          sort: { field: 'maturity_date' },
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = json<{ count: number; results: Array<{ security_type: string; display_name: string }> }>(response);
      expect(body.count).toBeGreaterThan(0);
      expect(body.results.every((r) => r.security_type === 'SDL' && /maharashtra/i.test(r.display_name))).toBe(true);
      const yields = json<{ results: Array<{ bond_yield: number }> }>(
        await t.app.inject({
          method: 'POST',
          url: '/api/finstruments/',
          payload: { filters: [{ field: 'bond_yield', type: 'lessThan', value: 0.065 }] },
        }),
      );
      expect(yields.results.every((r) => r.bond_yield < 0.065)).toBe(true);
    });

    it('lists trades and valuations with filters for users with security data access', async () => {
      const url = `/api/trades/${GSEC_2033}/`;
      const body = json<{
        count: number;
        results: Array<{ trade_date: string; kind: string; price: number | null; bond_yield: number | null }>;
      }>(await t.app.inject({ method: 'POST', url, headers: bearer(viewer), payload: {} }));
      expect(body.count).toBeGreaterThan(10);
      expect(body.results[0]!.trade_date >= body.results.at(-1)!.trade_date).toBe(true);
      expect(body.results.some((r) => r.kind === 'NSE_CM_CLOSE' && r.price !== null && r.bond_yield !== null)).toBe(true);
      const after = json<{ results: Array<{ trade_date: string }> }>(
        await t.app.inject({
          method: 'POST',
          url,
          headers: bearer(viewer),
          payload: { filters: [{ field: 'trade_date', type: 'after', value: '2025-12-01' }] },
        }),
      );
      expect(after.results.every((r) => r.trade_date > '2025-12-01')).toBe(true);
      expect((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url,
            headers: bearer(viewer),
            payload: { filters: [{ field: 'trade_date', type: 'greaterThan', value: 1 }] },
          })
        ).statusCode,
      ).toBe(400);
    });

    it('shows the ratings seen by agency and date', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/api/credit-rationale/${HDFC_NCD}/`, headers: bearer(viewer) });
      const body = json<{ ratings: Array<{ agency: string; rating: string }> }>(response);
      expect(body.ratings.some((r) => r.rating === 'AAA')).toBe(true);
    });
  });

  describe('downloads', () => {
    const expectPdf = (response: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }, filename: string) => {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    };

    it('generates the IM information sheet by ISIN, labelled as generated', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/im/download/',
        headers: bearer(dealer),
        payload: { isin: GSEC_2033.toLowerCase() },
      });
      expectPdf(response, `IM-${GSEC_2033}.pdf`);
      expect(response.rawPayload.length).toBeGreaterThan(1500);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/im/download/', headers: bearer(dealer), payload: { isin: '../../etc/passwd' } }))
          .statusCode,
      ).toBe(400);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/im/download/', headers: bearer(dealer), payload: { isin: 'INE999Z99999' } }))
          .statusCode,
      ).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: '/api/im/download/', payload: { isin: GSEC_2033 } })).statusCode).toBe(401);
    });

    it('generates bond details and quote sheets (quote: Premium)', async () => {
      expectPdf(
        await t.app.inject({ method: 'POST', url: `/api/bond-details/${HDFC_NCD}/download/`, headers: bearer(dealer) }),
        `bond-details-${HDFC_NCD}.pdf`,
      );
      expectPdf(
        await t.app.inject({
          method: 'POST',
          url: `/api/quote/${HDFC_NCD}/download/`,
          headers: bearer(dealer),
          payload: { yield: 0.071, quantity: 50, settlement_delta: 0 },
        }),
        `quote-${HDFC_NCD}.pdf`,
      );
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/quote/${HDFC_NCD}/download/`, headers: bearer(basic), payload: {} })).statusCode,
      ).toBe(402);
      const both = await t.app.inject({
        method: 'POST',
        url: `/api/quote/${HDFC_NCD}/download/`,
        headers: bearer(dealer),
        payload: { yield: 0.07, price: 99 },
      });
      expect(json(both).message).toBe('Cannot provide both price and yield');
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/quote/${SGB}/download/`, headers: bearer(dealer), payload: {} })).statusCode,
      ).toBe(400);
    });
  });
});
