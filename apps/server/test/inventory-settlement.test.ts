/**
 * Issue 14 "Trades feed the book" on PGlite and PostgreSQL: a real deal between Demo Capital and Second Bank
 * taken through its ticket to confirmation, reported and settled at NSCCL (`tick`) moves both firms' books in
 * the settlement's transaction — the seller's order sells at weighted-average cost (realised P&L), the buyer's
 * procurement order buys into the account of its custodian — once per order; a failed settlement moves nothing;
 * a seller whose book does not hold the bond still settles, and the audit says why its book was not moved.
 */
import type { Inventory, InventoryMovement, Position } from '@dart/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { custodians, inventoryMovements } from '../src/db/schema';
import { accountOfCustodian } from '../src/modules/inventory/inventory.service';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { auditOf, confirmedTrade, orderRows } from './orders-support';
import { call, getTicket, GSEC_2033, HDFC_NCD, LAKH, postTradeActors, type PostTradeUser } from './post-trade-support';

async function book(t: TestApp, who: PostTradeUser): Promise<Inventory> {
  const response = await call(t, who, 'GET', '/api/inventory/');
  expect(response.statusCode, response.body).toBe(200);
  return json<Inventory>(response);
}
const holdingOf = (inventory: Inventory, isin: string): Position[] => inventory.results.filter((p) => p.isin === isin);
const istToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

async function custodianName(t: TestApp, id: string | null): Promise<string | undefined> {
  if (!id) return undefined;
  const [row] = await t.database.db
    .select()
    .from(custodians)
    .where(inArray(custodians.id, [id]));
  return row?.name;
}

async function movementsOf(t: TestApp, orderIds: string[]) {
  return t.database.db.select().from(inventoryMovements).where(inArray(inventoryMovements.orderId, orderIds));
}

describe.each(DRIVERS)('inventory: settled orders move the book (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: '0' });
    await postTradeActors(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("settles a deal: the seller's book sells at average cost, the buyer's buys into its custodian's account, once", async () => {
    // Second Bank holds ₹10 L of the HDFC Bank NCD at 100 (a trade done outside Dart).
    const bought = await call(t, 'second', 'POST', '/api/inventory/external-trade/', {
      isin: HDFC_NCD,
      side: 'BUY',
      face_value: 10 * LAKH,
      price: 100,
      trade_date: istToday(),
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const held = json<InventoryMovement>(bought).position;

    const trade = await confirmedTrade(t); // Demo Capital buys ₹5 L from Second Bank.
    await t.app.orders.reporter.tick();
    expect(holdingOf(await book(t, 'demo'), HDFC_NCD)).toHaveLength(0);
    expect(holdingOf(await book(t, 'second'), HDFC_NCD)[0]!.face_value).toBe(10 * LAKH);

    await t.app.orders.settlement.tick();
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['settled', 'settled']);
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('settled');
    const price = rows.order.price;

    // The buyer: ₹5 L at the deal's price, in the account of the custodian it chose on the ticket.
    const account = accountOfCustodian(await custodianName(t, rows.procurement.custodianId));
    expect(account).not.toBe('MAIN');
    const [mine] = holdingOf(await book(t, 'demo'), HDFC_NCD);
    expect(mine).toMatchObject({ account, face_value: 5 * LAKH, realised_pnl: 0 });
    expect(mine!.cost).toBe(Math.round(5 * LAKH * price) / 100);
    expect(mine!.average_cost).toBeCloseTo(price, 4);
    expect(mine!.valuation.source).not.toBeNull();

    // The seller: ₹5 L left in MAIN (its custodian's account holds none), half the cost out, the rest realised.
    const [theirs] = holdingOf(await book(t, 'second'), HDFC_NCD);
    expect(theirs).toMatchObject({ id: held.id, account: 'MAIN', face_value: 5 * LAKH, cost: 5 * LAKH });
    expect(theirs!.realised_pnl).toBe((Math.round(5 * LAKH * price) - 5 * LAKH * 100) / 100);

    const moved = await movementsOf(t, [trade.orderId, trade.procurementId]);
    expect(moved.map((m) => [m.orderId, m.source, m.side, m.faceValue, m.tradeDate]).sort()).toEqual(
      [
        [trade.orderId, 'ORDER', 'SELL', 5 * LAKH, rows.order.tradeDate],
        [trade.procurementId, 'ORDER', 'BUY', 5 * LAKH, rows.procurement.tradeDate],
      ].sort(),
    );
    expect(await auditOf(t, 'inventory.order_settled', mine!.id)).toHaveLength(1);
    expect(await auditOf(t, 'inventory.order_settled', theirs!.id)).toHaveLength(1);

    // Another pass settles nothing and moves nothing.
    await t.app.orders.settlement.tick();
    expect(await movementsOf(t, [trade.orderId, trade.procurementId])).toHaveLength(2);
    expect(holdingOf(await book(t, 'demo'), HDFC_NCD)[0]!.face_value).toBe(5 * LAKH);
  });

  it('moves nothing while a settlement fails, and moves both books once the retry settles', async () => {
    const trade = await confirmedTrade(t); // Demo Capital buys another ₹5 L; Second Bank holds ₹5 L.
    await t.app.orders.reporter.tick();
    t.app.exchange.venue.configure({ settlementOutcome: () => 'funds' });
    try {
      await t.app.orders.settlement.tick();
    } finally {
      t.app.exchange.venue.configure({ settlementOutcome: undefined });
    }
    const failed = await orderRows(t, trade.ticketId);
    expect(failed.order.state).toBe('failed');
    expect(await movementsOf(t, [trade.orderId, trade.procurementId])).toHaveLength(0);

    const retried = await call(t, 'second', 'PATCH', `/api/orders/settle-cancel/${trade.orderId}/settle/`, {
      version: failed.order.version,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    await t.app.orders.settlement.tick();
    expect((await orderRows(t, trade.ticketId)).order.state).toBe('settled');
    expect(await movementsOf(t, [trade.orderId, trade.procurementId])).toHaveLength(2);
    expect(holdingOf(await book(t, 'demo'), HDFC_NCD).reduce((sum, p) => sum + p.face_value, 0)).toBe(10 * LAKH);
    // Second Bank sold all it held: the holding is closed (kept for its realised P&L, not listed).
    expect(holdingOf(await book(t, 'second'), HDFC_NCD)).toHaveLength(0);
  });

  it("settles a sale the seller's book does not hold: the settlement stands, the buyer's book moves, the audit says why", async () => {
    const trade = await confirmedTrade(t, { isin: GSEC_2033, buyer: 'second', yield: 0.07 });
    await t.app.orders.reporter.tick();
    await t.app.orders.settlement.tick();
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['settled', 'settled']);
    expect(holdingOf(await book(t, 'demo'), GSEC_2033)).toHaveLength(0);
    expect(holdingOf(await book(t, 'second'), GSEC_2033)[0]).toMatchObject({ face_value: 5 * LAKH });
    const notBooked = await auditOf(t, 'inventory.order_not_booked', trade.orderId);
    expect(notBooked).toHaveLength(1);
    expect(notBooked[0]!.after).toMatchObject({ side: 'SELL', face_value: 5 * LAKH });
    expect(await movementsOf(t, [trade.orderId])).toHaveLength(0);
  });
});
