/**
 * Issue 12 §5 fixes 1 and 2 through the HTTP API on the bond slice (BOND_IMPORT=slice):
 * - the Find grid's search filter is the header search: the same matches in the same order ("hdfc 2030",
 *   the filter's own placeholder, "7.18 GS 2033" and "HDFC 2033" found 0 bonds in the grid before);
 * - the default Find list starts with live listed bonds that have a price, and "Include matured" off hides
 *   every bond the security page calls matured (one rule; a perpetual dated 02-Feb-2015 is matured).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';

const GSEC_718_2033 = 'IN0020230085'; // 7.18% GS 2033
const PERPETUAL_2015 = 'INE028A08075'; // BANK OF BARODA 9.48% NCD 02-Feb-2015: perpetual, unlisted, dated 2015
const PERPETUAL_2029 = 'INE028A08182'; // BANK OF BARODA 8.99% NCD 18-Dec-2029: perpetual, dated in the future

type Summary = {
  id: number;
  display_name: string;
  label: string;
  identifiers: { ISIN: string };
  is_matured: boolean;
  issuer_name: string | null;
  coupon_rate: number | null;
  contract_parameters: { is_listed: boolean; maturity_date: string | null };
};
type Row = Summary & { bond_yield: number | null };
type Page = { count: number; results: Row[] };

describe.each(DRIVERS)('Find: one search and a sensible default list (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const header = async (q: string, limit = 50) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/finstruments/search/?searchKey=${encodeURIComponent(q)}&limit=${limit}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ finstruments: Summary[] }>(response).finstruments;
  };
  const find = async (payload: object) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/finstruments/', payload });
    expect(response.statusCode, response.body).toBe(200);
    return json<Page>(response);
  };
  /** Every row of a Find request, page by page (the slice is ~800 bonds). */
  const findAll = async (payload: object) => {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const body = await find({ ...payload, pagination: { page, page_size: 100 } });
      rows.push(...body.results);
      if (body.results.length < 100) {
        expect(rows.length).toBe(body.count);
        return rows;
      }
    }
  };
  const today = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

  describe('fix 1: the filter is the header search', () => {
    it('finds the issue\'s queries ("hdfc 2030", "7.18 GS 2033", "HDFC 2033") with the same matches in the same order', async () => {
      for (const q of ['hdfc 2030', '7.18 GS 2033', 'HDFC 2033']) {
        const heard = await header(q);
        expect(heard.length, q).toBeGreaterThan(0);
        expect(heard.length, `${q}: fewer than the header's limit, so the lists are complete`).toBeLessThan(50);
        // With matured bonds included the grid is the header search, row for row.
        const all = await find({ search: q, include_matured: true, pagination: { page: 1, page_size: 50 } });
        expect(all.count, q).toBe(heard.length);
        expect(
          all.results.map((r) => r.id),
          q,
        ).toEqual(heard.map((r) => r.id));
        // Without them (the default), the same order less the matured ones.
        const live = await find({ search: q, pagination: { page: 1, page_size: 50 } });
        expect(
          live.results.map((r) => r.id),
          q,
        ).toEqual(heard.filter((r) => !r.is_matured).map((r) => r.id));
        expect(live.count, q).toBeGreaterThan(0);
      }
      expect((await find({ search: '7.18 GS 2033' })).results[0]!.identifiers.ISIN).toBe(GSEC_718_2033);
      const hdfc2030 = await find({ search: 'hdfc 2030' });
      expect(hdfc2030.results.every((r) => /hdfc/i.test(`${r.display_name} ${r.issuer_name}`))).toBe(true);
      expect(hdfc2030.results.every((r) => r.contract_parameters.maturity_date?.startsWith('2030'))).toBe(true);
      const hdfc2033 = await find({ search: 'HDFC 2033' });
      expect(hdfc2033.results.map((r) => r.identifiers.ISIN)).toEqual(
        expect.arrayContaining(['INE040A08666', 'INE040A08914', 'INE040A08930', 'INE040A08AF2', 'INE040A08AI6', 'INE040A08AJ4']),
      );
    });

    it('keeps the matches under a column sort, the other filters and paging', async () => {
      const ranked = await findAll({ search: 'hdfc 2033' });
      const byCoupon = await findAll({ search: 'hdfc 2033', sort: { field: 'coupon_rate', direction: 'desc' } });
      expect(byCoupon.map((r) => r.id).toSorted()).toEqual(ranked.map((r) => r.id).toSorted());
      const coupons = byCoupon.map((r) => r.coupon_rate ?? -1);
      expect(coupons).toEqual(coupons.toSorted((a, b) => b - a));
      const listed = await findAll({ search: 'hdfc 2033', listed: true });
      expect(listed.map((r) => r.id)).toEqual(ranked.filter((r) => r.contract_parameters.is_listed).map((r) => r.id));
      // Page 2 of size 2 continues page 1 in the search's order.
      const [p1, p2] = await Promise.all([
        find({ search: 'hdfc 2033', pagination: { page: 1, page_size: 2 } }),
        find({ search: 'hdfc 2033', pagination: { page: 2, page_size: 2 } }),
      ]);
      expect([...p1.results, ...p2.results].map((r) => r.id)).toEqual(ranked.slice(0, 4).map((r) => r.id));
      // Short queries and ones nothing matches answer like the header's tokens (no 500, no LIKE leftovers).
      expect((await find({ search: 'zzqx nothing' })).count).toBe(0);
      expect((await find({ search: '%' })).count).toBe(0);
      expect((await find({ search: 'gs' })).count).toBeGreaterThan(100);
    });
  });

  describe('fix 2: the default list', () => {
    it('starts with live listed bonds that have a price, then the rest in the search ranking order', async () => {
      const rows = await findAll({});
      expect(rows[0]!.contract_parameters.is_listed).toBe(true);
      expect(rows[0]!.bond_yield).not.toBeNull();
      // Listed before unlisted; within each, priced before unpriced.
      const key = (r: Row) => (r.contract_parameters.is_listed ? 2 : 0) + (r.bond_yield === null ? 0 : 1);
      const keys = rows.map(key);
      expect(keys).toEqual(keys.toSorted((a, b) => b - a));
      expect(rows.filter((r) => key(r) === 3).length).toBeGreaterThan(100);
      // Within live listed priced bonds: liquid ones first, then nearer maturity (not the perpetual dated 2015).
      expect(rows.slice(0, 20).every((r) => !r.is_matured && r.contract_parameters.maturity_date !== null)).toBe(true);
    });

    it('hides every bond the security page calls matured, including a perpetual dated 02-Feb-2015', async () => {
      const day = today();
      const live = await findAll({});
      const all = await findAll({ include_matured: true });
      expect(live.some((r) => r.is_matured)).toBe(false);
      expect(live.every((r) => (r.contract_parameters.maturity_date ?? '9999') >= day)).toBe(true);
      const matured = all.filter((r) => r.is_matured);
      expect(matured.length).toBeGreaterThan(0);
      expect(all.length - matured.length).toBe(live.length);
      // Matured rows come last when included.
      expect(all.slice(live.length).every((r) => r.is_matured)).toBe(true);

      const old = all.find((r) => r.identifiers.ISIN === PERPETUAL_2015);
      expect(old, 'the slice holds the dated perpetual').toBeDefined();
      expect(old!.is_matured).toBe(true);
      expect(old!.label).toBe(`(MATURED) ${old!.display_name}`);
      expect(live.some((r) => r.identifiers.ISIN === PERPETUAL_2015)).toBe(false);
      expect(live.some((r) => r.identifiers.ISIN === PERPETUAL_2029)).toBe(true);
      // The security page and the header search say the same.
      const page = json<{ is_matured: boolean; not_priceable_reason: string | null; perpetual: boolean }>(
        await t.app.inject({ method: 'GET', url: `/api/finstrument/${PERPETUAL_2015}/` }),
      );
      expect(page).toMatchObject({ is_matured: true, perpetual: true, not_priceable_reason: 'The bond has matured.' });
      expect((await header(PERPETUAL_2015))[0]).toMatchObject({ is_matured: true, available: false });
      const future = json<{ is_matured: boolean }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${PERPETUAL_2029}/` }));
      expect(future.is_matured).toBe(false);
      // Every bond the grid shows as matured, the security page calls matured (sampled across the list).
      for (const r of matured.filter((_, i) => i % Math.ceil(matured.length / 10) === 0)) {
        const detail = json<{ is_matured: boolean }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${r.id}/` }));
        expect(detail.is_matured, r.identifiers.ISIN).toBe(true);
      }
    });

    it('measures years to maturity from the same IST day', async () => {
      const within = await findAll({ filters: [{ field: 'years_to_maturity', type: 'lessThan', value: 1 }] });
      const day = today();
      // Under a year is under 365.25 days: whole days up to 365, so a bond maturing 365 days on is in (one matures
      // on 2027-11-29, 365 days after 2026-11-29) and one 366 days on is not.
      const last = new Date(Date.parse(`${day}T00:00:00Z`) + 365 * 86_400_000).toISOString().slice(0, 10);
      expect(within.length).toBeGreaterThan(0);
      expect(within.every((r) => r.contract_parameters.maturity_date! >= day && r.contract_parameters.maturity_date! <= last)).toBe(true);
    });
  });
});
