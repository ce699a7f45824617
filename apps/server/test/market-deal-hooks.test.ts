/**
 * The market's two deal hand-overs (modules/market/market.deals.ts): `onDealRecorded` hooks run inside the
 * deal's own transaction (a throwing hook rolls the deal back), `onDeal` listeners after commit.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deals } from '../src/db/schema';
import type { DealRow } from '../src/modules/market';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const LAKH = 100_000;
const HDFC_NCD = 'INE040A08955';

describe.each(DRIVERS)('market deal hooks (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let bond: number;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    tok.demo = (await login(t.app, 'dealer@demo.dart')).access;
    tok.second = (await login(t.app, 'dealer@second.dart')).access;
    bond = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });

  /** A bid by Demo and a crossing ask by Second: one proposed cluster, with Demo's leg already accepted. */
  async function halfAcceptedCluster(yieldStored: number) {
    const common = { finstrument_id: bond, quantum: 10 * LAKH, settlement_delta: 1 };
    const bid = json<{ id: string }>(await post('demo', '/api/trade/eoi/', { ...common, yield_stored: yieldStored }));
    const ask = json<{ id: string }>(
      await post('second', '/api/trade/eoi/', { ...common, quote_type: 'ASK', yield_stored: yieldStored + 0.0005 }),
    );
    const clusters = json<{ results: Array<{ id: string; my_leg_id: string }> }>(
      await get('second', '/api/trade/cluster/?status=proposed'),
    );
    const cluster = clusters.results.find((c) => c.my_leg_id === ask.id)!;
    expect((await post('demo', `/api/cluster/${cluster.id}/accept/?lsId=${bid.id}`, {})).statusCode).toBe(200);
    return { cluster, ask };
  }

  it('runs onDealRecorded inside the deal transaction and onDeal after commit', async () => {
    const recorded: Array<{ deal: DealRow; seenInTx: number }> = [];
    const committed: string[] = [];
    const removeHook = t.app.market.onDealRecorded(async (tx, deal) => {
      const rows = await tx.select({ id: deals.id }).from(deals).where(eq(deals.id, deal.id));
      recorded.push({ deal, seenInTx: rows.length });
    });
    const removeListener = t.app.market.onDeal((id) => committed.push(id));
    try {
      const { cluster, ask } = await halfAcceptedCluster(0.071);
      const response = await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${ask.id}`, {});
      expect(response.statusCode, response.body).toBe(200);
      const deal = json<{ deal: { id: string } }>(response).deal;
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.deal).toMatchObject({ id: deal.id, clusterId: cluster.id, quantum: 10 * LAKH });
      expect(recorded[0]!.seenInTx).toBe(1);
      expect(committed).toEqual([deal.id]);
    } finally {
      removeHook();
      removeListener();
    }
  });

  it('rolls the whole deal back when a hook throws, and deals again once it is removed', async () => {
    const committed: string[] = [];
    const removeListener = t.app.market.onDeal((id) => committed.push(id));
    const removeHook = t.app.market.onDealRecorded(async () => {
      throw new Error('ticket refused');
    });
    const { cluster, ask } = await halfAcceptedCluster(0.0715);
    const refused = await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${ask.id}`, {});
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    removeHook();
    expect(committed).toEqual([]);
    const after = json<{ status: string; ask_accepted: boolean; deal: unknown }>(await get('second', `/api/trade/cluster/${cluster.id}/`));
    expect(after).toMatchObject({ status: 'proposed', ask_accepted: false, deal: null });
    const listed = json<{ results: Array<{ cluster_id: string | null }> }>(await get('second', '/api/trade/deals/?page_size=100'));
    expect(listed.results.some((d) => d.cluster_id === cluster.id)).toBe(false);

    const accepted = await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${ask.id}`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(json<{ status: string }>(accepted).status).toBe('accepted');
    expect(committed).toHaveLength(1);
    removeListener();
  });
});
