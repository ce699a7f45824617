/**
 * Issue 14 "The book" through the HTTP API on a slice of the real bond universe: the holdings upload (row and
 * field errors, nothing stored, file checks), the valued book checked against bond-math for the 7.26% GS 2033,
 * external trades at weighted-average cost (realised P&L, never below zero), the valuation cost, the daily
 * confirmation, offers into the market, the cash-flow calendar, tenant isolation and view-only users.
 */
import { createGovernmentSecurity, getRiskMeasures, makeYield, parseDate, addMonths } from '@dart/bond-math';
import { INVENTORY_MESSAGES, type Inventory, type Position } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { call, GSEC_2033, HDFC_NCD, postTradeActors, type PostTradeUser } from './post-trade-support';

type Errors = {
  code: string;
  message: string;
  errors?: Record<string, string[]>;
  row_errors?: Array<{ row: number; field: string; message: string }>;
};
const CRORE = 10_000_000;

async function injectUpload(t: TestApp, who: PostTradeUser, body: string | Buffer, contentType: string) {
  const actor = (await postTradeActors(t))[who];
  return t.app.inject({
    method: 'POST',
    url: '/api/inventory/upload/',
    payload: body,
    headers: { authorization: `Bearer ${actor.token}`, 'content-type': contentType },
  });
}
async function book(t: TestApp, who: PostTradeUser): Promise<Inventory> {
  const response = await call(t, who, 'GET', '/api/inventory/');
  expect(response.statusCode, response.body).toBe(200);
  return json<Inventory>(response);
}
const holding = (inventory: Inventory, isin: string, account = 'MAIN'): Position | undefined =>
  inventory.results.find((p) => p.isin === isin && p.account === account);

describe.each(DRIVERS)('inventory (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a file with bad rows, reporting each by row and field, and stores nothing', async () => {
    const csv = [
      'isin,face_value,valuation_cost,date,account',
      `${GSEC_2033},5cr,101.25,,AFS`,
      'IN0000000000,1cr,100,,',
      `${GSEC_2033},150.5,abc,,`,
      `${HDFC_NCD},-5,99,2999-01-01,`,
      `${GSEC_2033},1cr,101,,AFS`,
    ].join('\n');
    const response = await injectUpload(t, 'demo', csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(400);
    const body = json<Errors>(response);
    const at = (row: number, field: string) => body.row_errors!.find((e) => e.row === row && e.field === field)?.message;
    expect(at(3, 'isin')).toBe(INVENTORY_MESSAGES.bondNotFound);
    expect(at(4, 'valuation_cost')).toBe('Should be number');
    expect(at(5, 'face_value')).toBe('Cannot be negative');
    expect(at(5, 'date')).toBe(INVENTORY_MESSAGES.dateInFuture);
    expect(at(6, 'isin')).toBe(INVENTORY_MESSAGES.duplicateRow);
    expect(body.message).toBe(INVENTORY_MESSAGES.rowsInvalid(4));
    expect((await book(t, 'demo')).count).toBe(0);
  });

  it('refuses files that are not CSV or XLSX, macro workbooks, unknown columns and future dates', async () => {
    const pdf = await injectUpload(t, 'demo', Buffer.from('%PDF-1.7\n\0binary'), 'application/octet-stream');
    expect(pdf.statusCode).toBe(415);
    const columns = await injectUpload(t, 'demo', 'isin,face_value,price\nIN0020220151,1cr,100\n', 'text/csv');
    expect(columns.statusCode).toBe(400);
    expect(json<Errors>(columns).errors).toHaveProperty('price');
    expect(json<Errors>(columns).errors).toHaveProperty('valuation_cost');
    const future = await injectUpload(t, 'demo', `isin,face_value,valuation_cost,date\n${GSEC_2033},1cr,100,2999-01-01\n`, 'text/csv');
    expect(future.statusCode).toBe(400);
    expect(json<Errors>(future).row_errors).toEqual([{ row: 2, field: 'date', message: INVENTORY_MESSAGES.dateInFuture }]);
    const wholeBonds = await injectUpload(t, 'demo', `isin,face_value,valuation_cost\n${HDFC_NCD},150,99\n`, 'text/csv');
    expect(json<Errors>(wholeBonds).row_errors?.[0]?.field).toBe('face_value');
    expect((await book(t, 'demo')).count).toBe(0);
  });

  it('imports a valid file and values the book on the reference waterfall, figures from bond-math', async () => {
    const csv = ['isin,face_value,valuation_cost,account', `${GSEC_2033},5cr,101.25,afs`, `${HDFC_NCD},1cr,99.5,`].join('\r\n');
    const response = await injectUpload(t, 'demo', csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(201);
    expect(json(response)).toMatchObject({ imported: 2, created: 2, updated: 0 });

    const inventory = await book(t, 'demo');
    expect(inventory.count).toBe(2);
    const gsec = holding(inventory, GSEC_2033, 'AFS')!;
    expect(gsec).toMatchObject({
      face_value: 5 * CRORE,
      number_of_bonds: (5 * CRORE) / 100,
      average_cost: 101.25,
      cost: 5 * CRORE * 1.0125,
    });
    expect(gsec.valuation.source).toBeTruthy();
    expect(gsec.valuation.age_days).toBeGreaterThanOrEqual(0);

    // The pricing panel's own answer at the reference yield for the same number of bonds (bond-math consideration).
    const priced = json<{
      reference: { bond_yield: number; source: string };
      price: { unit_clean_price: number; settlement_date: string };
      consideration_details: { principal: number; accrued_interest: number; consideration: number };
    }>(await t.app.inject({ method: 'POST', url: `/api/v1/finstrument/${GSEC_2033}/`, payload: { quantity: gsec.number_of_bonds } }));
    expect(inventory.valuation_date).toBe(priced.price.settlement_date);
    expect(gsec.valuation).toMatchObject({
      source: priced.reference.source,
      clean_price: priced.price.unit_clean_price,
      bond_yield: priced.reference.bond_yield,
    });
    expect(gsec.market_value).toBe(priced.consideration_details.principal);
    expect(gsec.accrued_interest).toBe(priced.consideration_details.accrued_interest);
    expect(gsec.dirty_value).toBe(priced.consideration_details.consideration);
    expect(gsec.unrealised_pnl).toBeCloseTo(priced.consideration_details.principal - gsec.cost, 2);

    // Duration and PV01 from bond-math directly: a semi-annual G-sec on the coupon roll of its maturity.
    const detail = json<{ contract_parameters: { maturity_date: string }; coupon_rate: number }>(
      await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` }),
    );
    const settlement = parseDate(inventory.valuation_date);
    const maturity = parseDate(detail.contract_parameters.maturity_date);
    let issue = maturity;
    while (issue > settlement) issue = addMonths(issue, -6);
    const bond = createGovernmentSecurity({
      identifier: GSEC_2033,
      issueDate: issue,
      maturityDate: maturity,
      couponRate: detail.coupon_rate / 100,
    });
    const risk = getRiskMeasures(bond, settlement, makeYield(gsec.valuation.bond_yield!, bond.yieldCompounding));
    expect(gsec.modified_duration).toBeCloseTo(risk.modifiedDuration, 4);
    // The wire yield is rounded to 6 dp; the server measures at the stored yield: within 1e-5 relative.
    expect(Math.abs(gsec.pv01! / ((risk.pv01Per100 * gsec.face_value) / 100) - 1)).toBeLessThan(1e-5);

    expect(inventory.totals.positions).toBe(2);
    expect(inventory.totals.face_value).toBe(6 * CRORE);
    const valued = inventory.results.filter((p) => p.market_value !== null);
    expect(inventory.totals.market_value).toBeCloseTo(
      valued.reduce((a, p) => a + p.market_value!, 0),
      2,
    );
    expect(inventory.breakdowns.sector.map((r) => r.key).sort()).toEqual(
      [...new Set(inventory.results.map((p) => p.security_type))].sort(),
    );
    expect(inventory.breakdowns.maturity_bucket.reduce((a, r) => a + r.positions, 0)).toBe(2);

    // A second upload of the same holding replaces it.
    const again = await injectUpload(t, 'demo', `isin,face_value,valuation_cost,account\n${GSEC_2033},5cr,101.5,AFS\n`, 'text/csv');
    expect(json(again)).toMatchObject({ imported: 1, created: 0, updated: 1 });
    expect(holding(await book(t, 'demo'), GSEC_2033, 'AFS')!.average_cost).toBe(101.5);
  });

  it('records external trades at weighted-average cost, realises P&L on sells and never goes below zero', async () => {
    const buy = await call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
      isin: GSEC_2033,
      account: 'AFS',
      side: 'BUY',
      face_value: 5 * CRORE,
      price: 102.5,
      trade_date: '2025-12-01',
      counterparty: 'A bank outside Dart',
    });
    expect(buy.statusCode, buy.body).toBe(201);
    // (5 cr at 101.5 + 5 cr at 102.5) / 10 cr = 102.
    expect(json<{ position: Position }>(buy).position).toMatchObject({ face_value: 10 * CRORE, average_cost: 102 });

    const sell = await call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
      isin: GSEC_2033,
      account: 'AFS',
      side: 'SELL',
      face_value: 2 * CRORE,
      price: 103,
      trade_date: '2025-12-02',
    });
    expect(sell.statusCode, sell.body).toBe(201);
    // 2 cr × (103 − 102) / 100 = ₹2,00,000 realised; the average cost stays 102.
    expect(json(sell)).toMatchObject({
      realised_pnl: 200_000,
      position: { face_value: 8 * CRORE, average_cost: 102, realised_pnl: 200_000 },
    });

    const tooMuch = await call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
      isin: GSEC_2033,
      account: 'AFS',
      side: 'SELL',
      face_value: 9 * CRORE,
      price: 103,
      trade_date: '2025-12-02',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(json<Errors>(tooMuch).errors?.face_value?.[0]).toBe(INVENTORY_MESSAGES.negativeHolding('₹8 Cr'));
    const nowhere = await call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
      isin: HDFC_NCD,
      account: 'NEW',
      side: 'SELL',
      face_value: 1 * CRORE,
      price: 100,
      trade_date: '2025-12-02',
    });
    expect(nowhere.statusCode).toBe(400);
    expect(holding(await book(t, 'demo'), GSEC_2033, 'AFS')!.face_value).toBe(8 * CRORE);
    expect(holding(await book(t, 'demo'), HDFC_NCD, 'NEW')).toBeUndefined();

    const bad = await call(t, 'demo', 'POST', '/api/inventory/external-trade/', {
      isin: 'XX',
      side: 'HOLD',
      face_value: 0,
      price: 300,
      trade_date: 'x',
      role: 'admin',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('edits a valuation cost and the unrealised P&L moves with it', async () => {
    const before = holding(await book(t, 'demo'), GSEC_2033, 'AFS')!;
    const response = await call(t, 'demo', 'PUT', '/api/inventory/edit-valuation-cost/', { position_id: before.id, valuation_cost: 100 });
    expect(response.statusCode, response.body).toBe(200);
    const after = json<Position>(response);
    expect(after.average_cost).toBe(100);
    expect(after.cost).toBe(8 * CRORE);
    expect(after.unrealised_pnl! - before.unrealised_pnl!).toBeCloseTo(before.cost - after.cost, 2);
    const same = await call(t, 'demo', 'PUT', '/api/inventory/edit-valuation-cost/', { position_id: before.id, valuation_cost: 100 });
    expect(same.statusCode).toBe(409);
  });

  it('keeps every firm to its own book and view-only users to reading', async () => {
    const mine = holding(await book(t, 'demo'), GSEC_2033, 'AFS')!;
    expect((await book(t, 'second')).count).toBe(0);
    const foreignEdit = await call(t, 'second', 'PUT', '/api/inventory/edit-valuation-cost/', { position_id: mine.id, valuation_cost: 90 });
    expect(foreignEdit.statusCode).toBe(404);
    const foreignOffer = await call(t, 'second', 'POST', '/api/inventory/offer/', { position_id: mine.id, kind: 'public_run' });
    expect(foreignOffer.statusCode).toBe(404);

    expect((await book(t, 'viewer')).count).toBe(2);
    const viewerWrite = await call(t, 'viewer', 'POST', '/api/inventory/external-trade/', {
      isin: GSEC_2033,
      side: 'BUY',
      face_value: CRORE,
      price: 100,
      trade_date: '2025-12-01',
    });
    expect(viewerWrite.statusCode).toBe(403);
    expect(json<Errors>(viewerWrite).code).toBe('VIEW_ONLY');
    expect((await injectUpload(t, 'viewer', `isin,face_value,valuation_cost\n${GSEC_2033},1cr,100\n`, 'text/csv')).statusCode).toBe(403);
    // Without the inventory permission (compliance of the same firm) there is no book; a Basic firm is asked to upgrade.
    expect((await call(t, 'compliance', 'GET', '/api/inventory/')).statusCode).toBe(403);
    expect((await call(t, 'basic', 'GET', '/api/inventory/')).statusCode).toBe(402);
    expect((await t.app.inject({ method: 'GET', url: '/api/inventory/' })).statusCode).toBe(401);
  });

  it('offers a holding into the market, never more than is held', async () => {
    const mine = holding(await book(t, 'demo'), GSEC_2033, 'AFS')!;
    const tooMuch = await call(t, 'demo', 'POST', '/api/inventory/offer/', {
      position_id: mine.id,
      kind: 'public_run',
      face_value: 9 * CRORE,
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(json<Errors>(tooMuch).errors?.face_value?.[0]).toBe(INVENTORY_MESSAGES.offerTooLarge('₹8 Cr'));
    const noOne = await call(t, 'demo', 'POST', '/api/inventory/offer/', { position_id: mine.id, kind: 'private_run' });
    expect(noOne.statusCode).toBe(400);

    const offered = await call(t, 'demo', 'POST', '/api/inventory/offer/', {
      position_id: mine.id,
      kind: 'public_run',
      face_value: 2 * CRORE,
    });
    expect(offered.statusCode, offered.body).toBe(201);
    expect(json(offered)).toMatchObject({
      quote_type: 'ASK',
      quantum: 2 * CRORE,
      finstrument_id: mine.finstrument_id,
      yield_stored: mine.valuation.bond_yield,
    });
  });

  it('lists the coupons and redemptions due in the next 30 and 90 days', async () => {
    const d90 = await call(t, 'demo', 'GET', '/api/inventory/cashflows/?days=90');
    expect(d90.statusCode, d90.body).toBe(200);
    const body = json<{
      from: string;
      to: string;
      results: Array<{ payment_date: string; isin: string; interest: number }>;
      totals: { total: number };
    }>(d90);
    for (const r of body.results) expect(r.payment_date >= body.from && r.payment_date <= body.to).toBe(true);
    // A semi-annual G-sec pays a coupon within any 6 months, not necessarily within 90 days; the totals add up.
    expect(body.totals.total).toBeCloseTo(body.results.reduce((a, r) => a + r.interest, 0) + 0, 0);
    expect((await call(t, 'demo', 'GET', '/api/inventory/cashflows/?days=45')).statusCode).toBe(400);
  });

  it("confirms the previous day's book and carries it forward once", async () => {
    const today = await book(t, 'demo');
    expect(today.needs_confirmation).toBe(false);
    const early = await call(t, 'demo', 'PUT', '/api/inventory/confirm-previous/', { book_date: today.book_date });
    expect(early.statusCode).toBe(409);
    t.advanceClock(86_400_000);
    const next = await book(t, 'demo');
    expect(next.needs_confirmation).toBe(true);
    const stale = await call(t, 'demo', 'PUT', '/api/inventory/confirm-previous/', { book_date: '2020-01-01' });
    expect(stale.statusCode).toBe(400);
    const viewer = await call(t, 'viewer', 'PUT', '/api/inventory/confirm-previous/', { book_date: today.book_date });
    expect(viewer.statusCode).toBe(403);
    const confirmed = await call(t, 'demo', 'PUT', '/api/inventory/confirm-previous/', { book_date: today.book_date });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(json(confirmed)).toMatchObject({ previous_book_date: today.book_date, positions: 2 });
    const after = await book(t, 'demo');
    expect(after.needs_confirmation).toBe(false);
    expect(after.book_date > today.book_date).toBe(true);
    expect(after.results.every((p) => p.as_of === after.book_date)).toBe(true);
    expect((await call(t, 'demo', 'PUT', '/api/inventory/confirm-previous/', { book_date: today.book_date })).statusCode).toBe(409);
  });
});
