/**
 * Issue 14 "Speed", the book kept on the node and brought up to date by deltas (inventory README "Speed"): a new
 * reference price from any writer re-values the holdings of that bond on the next read, and only the firms holding
 * it are told (`inventory.revalued`, through the outbox); a bond's terms re-value it too; holdings added, moved and
 * sold out are applied in book order; a change log cut short makes the node value the book from the start.
 * Every figure is checked against what the book would be valued at from scratch (the pricing panel, a new node).
 */
import { INVENTORY_TOPICS, type Inventory, type Position } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sqlRows } from '../src/db/client';
import type { BusMessage } from '../src/lib/bus';
import { createRevaluationNotices } from '../src/modules/inventory';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { bondId, call, GSEC_2033, HDFC_NCD, postTradeActors } from './post-trade-support';

const CRORE = 10_000_000;

describe.each(DRIVERS)('the book re-valued live (%s)', (driver) => {
  let t: TestApp;
  let gsecId = 0;
  let hdfcId = 0;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    gsecId = await bondId(t, GSEC_2033);
    hdfcId = await bondId(t, HDFC_NCD);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const book = async (): Promise<Inventory> => {
    const response = await call(t, 'demo', 'GET', '/api/inventory/?page_size=1000');
    expect(response.statusCode, response.body).toBe(200);
    return json<Inventory>(response);
  };
  const holding = (inventory: Inventory, isin: string, account: string): Position | undefined =>
    inventory.results.find((p) => p.isin === isin && p.account === account);
  const execute = (query: ReturnType<typeof sql>) => t.app.deps.database.db.execute(query);
  /** Raises the current reference pick of a bond by `bp` basis points (a revised close: an UPDATE of the row). */
  const moveReference = (id: number, bp: number) =>
    execute(sql`UPDATE reference_prices SET yield_fraction = yield_fraction + ${bp / 10_000}
      WHERE id = (SELECT id FROM reference_prices WHERE finstrument_id = ${id} ORDER BY priority ASC, price_date DESC LIMIT 1)`);
  /** The pricing panel's valuation of `bonds` bonds at the bond's reference (the same waterfall, valued from scratch). */
  const panel = async (isin: string, bonds: number) =>
    json<{ reference: { bond_yield: number }; consideration_details: { principal: number; accrued_interest: number } }>(
      await t.app.inject({ method: 'POST', url: `/api/v1/finstrument/${isin}/`, payload: { quantity: bonds } }),
    );
  const inBookOrder = (inventory: Inventory) => {
    const key = (p: Position) => [p.maturity_date ?? '\uffff', p.isin, p.account];
    const sorted = [...inventory.results].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    });
    return inventory.results.map((p) => p.id).join() === sorted.map((p) => p.id).join();
  };

  it('re-values the holdings of a bond whose reference price changed, and tells only the firms holding it', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/inventory/upload/',
      headers: { authorization: `Bearer ${(await postTradeActors(t)).demo.token}`, 'content-type': 'text/csv' },
      payload: `isin,face_value,valuation_cost,account\n${GSEC_2033},5cr,101,MAIN\n${GSEC_2033},1cr,99,AFS\n${HDFC_NCD},1cr,99,AFS\n`,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const notices = createRevaluationNotices(t.app.deps);
    // The first pass starts its cursor at the present: nothing to tell.
    expect(await notices.noticeOnce()).toBe(0);
    const before = await book();
    expect(await book()).toEqual(before);
    const gsec = holding(before, GSEC_2033, 'MAIN')!;
    const hdfc = holding(before, HDFC_NCD, 'AFS')!;
    expect(gsec.valuation.bond_yield).not.toBeNull();

    const heard: BusMessage[] = [];
    const unsubscribe = t.app.deps.bus.subscribe((message) => {
      if (message.topic === INVENTORY_TOPICS.revalued) heard.push(message);
    });
    try {
      await moveReference(gsecId, 10);
      const after = await book();
      const moved = holding(after, GSEC_2033, 'MAIN')!;
      expect(moved.valuation.bond_yield).toBeCloseTo(gsec.valuation.bond_yield! + 0.001, 6);
      expect(moved.valuation.clean_price!).toBeLessThan(gsec.valuation.clean_price!);
      // The same figures as the pricing panel values at the new reference, from scratch.
      const priced = await panel(GSEC_2033, moved.number_of_bonds);
      expect(priced.reference.bond_yield).toBe(moved.valuation.bond_yield);
      expect(moved.market_value).toBe(priced.consideration_details.principal);
      expect(moved.accrued_interest).toBe(priced.consideration_details.accrued_interest);
      expect(holding(after, GSEC_2033, 'AFS')!.valuation.bond_yield).toBe(moved.valuation.bond_yield);
      // The other bond is as it was; the totals moved by exactly the G-sec holdings' change.
      expect(holding(after, HDFC_NCD, 'AFS')).toEqual(hdfc);
      const change = (i: Inventory) => holding(i, GSEC_2033, 'MAIN')!.market_value! + holding(i, GSEC_2033, 'AFS')!.market_value!;
      expect(after.totals.market_value - before.totals.market_value).toBeCloseTo(change(after) - change(before), 2);

      // The notice: one event for Demo Capital (it holds the bond), none for Second Bank (it holds nothing).
      expect(await notices.noticeOnce()).toBe(1);
      // Over Redis the message comes back a moment after the publish.
      await vi.waitFor(() => expect(heard).toHaveLength(1));
      expect(heard[0]).toMatchObject({ clientId: (await postTradeActors(t)).demo.clientId, payload: { bonds: 1 } });
      expect(heard[0]!.position).toBeGreaterThan(0);
      expect(await notices.noticeOnce()).toBe(0);

      // A bond nobody holds: its change is told to no one, and the book is unchanged.
      const [other] = await sqlRows<{ id: number }>(
        t.app.deps.database.db,
        sql`SELECT finstrument_id AS id FROM reference_prices WHERE finstrument_id NOT IN (${gsecId}, ${hdfcId}) LIMIT 1`,
      );
      await moveReference(Number(other!.id), 5);
      expect(await notices.noticeOnce()).toBe(0);
      expect(heard).toHaveLength(1);
      expect((await book()).totals).toEqual(after.totals);
    } finally {
      unsubscribe();
    }
  });

  it("re-values a bond whose terms changed and applies holdings added, moved and sold out in the book's order", async () => {
    await book();
    await execute(sql`UPDATE finstruments SET credit_rating = 'AA-TEST' WHERE id = ${hdfcId}`);
    const rated = await book();
    expect(holding(rated, HDFC_NCD, 'AFS')!.rating).toBe('AA-TEST');
    expect(rated.breakdowns.rating.find((r) => r.key === 'AA-TEST')?.positions).toBe(1);

    const trade = (isin: string, account: string, side: 'BUY' | 'SELL', crore: number) =>
      call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
        isin,
        account,
        side,
        face_value: crore * CRORE,
        price: 100,
        trade_date: '2025-12-01',
      });
    expect((await trade(HDFC_NCD, 'MAIN', 'BUY', 2)).statusCode).toBe(201);
    expect((await trade(GSEC_2033, 'HTM', 'BUY', 3)).statusCode).toBe(201);
    const grown = await book();
    expect(grown.count).toBe(rated.count + 2);
    expect(holding(grown, HDFC_NCD, 'MAIN')!.face_value).toBe(2 * CRORE);
    expect(holding(grown, HDFC_NCD, 'MAIN')!.rating).toBe('AA-TEST');
    expect(inBookOrder(grown)).toBe(true);
    expect(grown.totals.face_value).toBe(rated.totals.face_value + 5 * CRORE);

    expect((await trade(GSEC_2033, 'AFS', 'SELL', 1)).statusCode).toBe(201);
    const sold = await book();
    expect(holding(sold, GSEC_2033, 'AFS')).toBeUndefined();
    expect(sold.count).toBe(grown.count - 1);
    expect(sold.totals.positions).toBe(grown.totals.positions - 1);
    expect(inBookOrder(sold)).toBe(true);
    // A page is a cut of the same order; an account filter is its own totals.
    const page = json<Inventory>(await call(t, 'demo', 'GET', '/api/inventory/?page=2&page_size=1'));
    expect(page.results[0]!.id).toBe(sold.results[1]!.id);
    const afs = json<Inventory>(await call(t, 'demo', 'GET', '/api/inventory/?account=AFS'));
    expect(afs.results.map((p) => p.account)).toEqual(['AFS']);
    expect(afs.totals.face_value).toBe(holding(sold, HDFC_NCD, 'AFS')!.face_value);
  });

  it('values the book from the start when the change log no longer reaches back to the node’s version', async () => {
    const before = await book();
    await moveReference(gsecId, -5);
    // The log is cut (as after 1,000 versions): the node cannot know which bonds changed since its own.
    await execute(sql`DELETE FROM valuation_input_changes`);
    await moveReference(hdfcId, 5);
    const after = await book();
    const gsec = holding(after, GSEC_2033, 'MAIN')!;
    expect(gsec.valuation.bond_yield).toBeCloseTo(holding(before, GSEC_2033, 'MAIN')!.valuation.bond_yield! - 0.0005, 6);
    expect(holding(after, HDFC_NCD, 'AFS')!.valuation.bond_yield).toBeCloseTo(
      holding(before, HDFC_NCD, 'AFS')!.valuation.bond_yield! + 0.0005,
      6,
    );
    expect(gsec.market_value).toBe((await panel(GSEC_2033, gsec.number_of_bonds)).consideration_details.principal);
  });
});
