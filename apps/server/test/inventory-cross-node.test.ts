/**
 * The valued book on two app nodes over one PostgreSQL database (inventory README "Speed"): each node keeps a
 * firm's valued book in memory and answers from it while the firm's book version is unchanged. A change made
 * through the other node (an external trade, a valuation cost, an upload) raises the version in its own
 * transaction, so the next read on the first node is the new book, never the one it holds. A new reference
 * price written by anyone re-values the bond on both nodes on their next read (the change log of migration 0031),
 * and the elected node's notice reaches the other node over Redis. Runs when
 * DATABASE_URL and REDIS_URL are set.
 */
import { INVENTORY_TOPICS, type Inventory, type Position } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../src/db/client';
import type { BusMessage } from '../src/lib/bus';
import { createRevaluationNotices } from '../src/modules/inventory';
import { bearer, json, login, startRedisCluster, type RedisCluster } from './helpers';
import { GSEC_2033 } from './post-trade-support';

const CRORE = 10_000_000;

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('the valued book on two nodes', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let token = '';
  let clientId = '';

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
    nodes = cluster.nodes;
    token = (await login(nodes[0]!, 'dealer@demo.dart')).access;
    const [firm] = await sqlRows<{ id: string }>(nodes[0]!.deps.database.db, sql`SELECT id FROM clients WHERE name = 'Demo Capital'`);
    clientId = firm!.id;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const book = async (node: number): Promise<Inventory> => {
    const response = await nodes[node]!.inject({ method: 'GET', url: '/api/inventory/', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return json<Inventory>(response);
  };
  const gsec = (inventory: Inventory): Position | undefined => inventory.results.find((p) => p.isin === GSEC_2033 && p.account === 'XNODE');
  const trade = async (node: number, side: 'BUY' | 'SELL', crore: number) => {
    const response = await nodes[node]!.inject({
      method: 'POST',
      url: '/api/inventory/external-trade/',
      headers: bearer(token),
      payload: { isin: GSEC_2033, account: 'XNODE', side, face_value: crore * CRORE, price: 101, trade_date: '2025-12-01' },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  it('shows on one node every change made through the other, at once, though it keeps the valued book', async () => {
    const empty = await book(0);
    expect(gsec(empty)).toBeUndefined();
    // Read twice on node 0: the second answer comes from its memory and is the same book.
    expect((await book(0)).totals).toEqual(empty.totals);

    await trade(1, 'BUY', 5);
    const afterBuy = await book(0);
    expect(gsec(afterBuy)?.face_value).toBe(5 * CRORE);
    expect(afterBuy.totals.face_value).toBe(empty.totals.face_value + 5 * CRORE);
    expect(afterBuy.totals.positions).toBe(empty.totals.positions + 1);

    // Node 1 holds its own copy now; a change through node 0 reaches it too.
    expect(gsec(await book(1))?.face_value).toBe(5 * CRORE);
    await trade(0, 'SELL', 2);
    expect(gsec(await book(1))?.face_value).toBe(3 * CRORE);
    expect(gsec(await book(0))?.face_value).toBe(3 * CRORE);

    const position = gsec(await book(0))!;
    const edited = await nodes[1]!.inject({
      method: 'PUT',
      url: '/api/inventory/edit-valuation-cost/',
      headers: bearer(token),
      payload: { position_id: position.id, valuation_cost: 90 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const afterEdit = gsec(await book(0))!;
    expect(afterEdit.average_cost).toBe(90);
    expect(afterEdit.unrealised_pnl! - position.unrealised_pnl!).toBeCloseTo(position.cost - afterEdit.cost, 2);
  });

  it('re-values on both nodes a bond whose reference price changed, and the notice through Redis refreshes the other node', async () => {
    const notices = createRevaluationNotices(nodes[0]!.deps);
    await notices.noticeOnce();
    const [before0, before1] = [gsec(await book(0))!, gsec(await book(1))!];
    expect(before1).toEqual(before0);
    const heard = new Promise<BusMessage>((resolve) => {
      const unsubscribe = nodes[1]!.deps.bus.subscribe((message) => {
        if (message.topic !== INVENTORY_TOPICS.revalued) return;
        unsubscribe();
        resolve(message);
      });
    });
    // A new close for the bond, written on the shared database by neither node's inventory (any writer).
    await nodes[1]!.deps.database.db.execute(
      sql`UPDATE reference_prices SET yield_fraction = yield_fraction + 0.002 WHERE id = (SELECT id FROM reference_prices
        WHERE finstrument_id = (SELECT id FROM finstruments WHERE isin = ${GSEC_2033}) ORDER BY priority ASC, price_date DESC LIMIT 1)`,
    );
    for (const node of [0, 1]) {
      const moved = gsec(await book(node))!;
      expect(moved.valuation.bond_yield).toBeCloseTo(before0.valuation.bond_yield! + 0.002, 6);
      expect(moved.market_value!).toBeLessThan(before0.market_value!);
    }
    // The elected node's notice reaches node 1 over Redis, for Demo Capital (it holds the bond).
    expect(await notices.noticeOnce()).toBe(1);
    const message = await heard;
    expect(message.clientId).toBe(clientId);
    expect(message.payload).toMatchObject({ bonds: expect.any(Number) });
    expect(gsec(await book(1))).toEqual(gsec(await book(0)));
  });
  it("values another firm's first read on a node from the node's bond figures, never older than a change made elsewhere", async () => {
    const second = (await login(nodes[1]!, 'dealer@second.dart')).access;
    const bought = await nodes[1]!.inject({
      method: 'POST',
      url: '/api/inventory/external-trade/',
      headers: bearer(second),
      payload: { isin: GSEC_2033, account: 'XNODE', side: 'BUY', face_value: 2 * CRORE, price: 100, trade_date: '2025-12-01' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    // Node 0 values Demo Capital's book: it keeps the G-sec's figures for its other firms' first reads.
    const before = gsec(await book(0))!;
    await nodes[1]!.deps.database.db.execute(
      sql`UPDATE reference_prices SET yield_fraction = yield_fraction - 0.001 WHERE id = (SELECT id FROM reference_prices
        WHERE finstrument_id = (SELECT id FROM finstruments WHERE isin = ${GSEC_2033}) ORDER BY priority ASC, price_date DESC LIMIT 1)`,
    );
    const secondBook = async (node: number) => {
      const response = await nodes[node]!.inject({ method: 'GET', url: '/api/inventory/', headers: bearer(second) });
      expect(response.statusCode, response.body).toBe(200);
      return json<Inventory>(response);
    };
    // Second Bank's first read on node 0 after the change made through node 1: the new yield, as node 1 values it.
    const on0 = gsec(await secondBook(0))!;
    expect(on0.valuation.bond_yield).toBeCloseTo(before.valuation.bond_yield! - 0.001, 6);
    expect(on0.valuation).toEqual(gsec(await secondBook(1))!.valuation);
    expect(on0.valuation).toEqual(gsec(await book(0))!.valuation);
    expect(on0.face_value).toBe(2 * CRORE);
  });
});
