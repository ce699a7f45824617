/**
 * The SimulatedExchange on two app nodes sharing one PostgreSQL database and the Redis bus (runs when
 * DATABASE_URL and REDIS_URL are set). A venue is one system for the whole cluster: RFQs raised on both
 * nodes get distinct venue numbers, an RFQ raised through node A is answered and cancelled through node B,
 * and a trade reported by one node still settles on schedule (not at once) when another node, after a
 * leader change, polls it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisoryKey } from '../src/db/client';
import { ExchangeUnavailableError } from '../src/modules/exchange';
import { bearer, exchangeRfqBody, json, login, type RedisCluster, startRedisCluster } from './helpers';

const GSEC_2033 = 'IN0020220151';
// Long enough for node B to win the election after node A closes even on a busy CI machine (it polls every 5 s).
const SETTLE_MS = 20_000;
type Quote = { id: string; exchange: string | null; exchange_ref: string | null };

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('the simulated exchange on two nodes', () => {
  let cluster: RedisCluster;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const tok: Record<'demo' | 'second', string> = { demo: '', second: '' };
  let gsec: number;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: String(SETTLE_MS) });
    [a, b] = cluster.nodes as [FastifyInstance, FastifyInstance];
    tok.demo = (await login(a, 'dealer@demo.dart')).access;
    tok.second = (await login(b, 'dealer@second.dart')).access;
    gsec = json<{ id: number }>(await a.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const post = (node: FastifyInstance, who: 'demo' | 'second', url: string, payload: object) =>
    node.inject({ method: 'POST', url, payload, headers: bearer(tok[who]) });
  const rfqOn = async (node: FastifyInstance, body: object = {}) => {
    const response = await post(node, 'demo', '/api/trade/eoi/', exchangeRfqBody(gsec, body));
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };

  it('numbers RFQs raised on both nodes, at the same time, without a repeat; each node sees every one', async () => {
    const raised = await Promise.all([a, b, a, b, a, b].map((node, i) => rfqOn(node, { quantum: 100 * (i + 1) })));
    const refs = raised.map((q) => q.exchange_ref!);
    for (const ref of refs) expect(ref).toMatch(/^NSE-RFQ-\d{6}$/);
    expect(new Set(refs).size).toBe(refs.length);
    // One venue book: the RFQ raised through one node is on the venue as the other node sees it.
    for (const [i, q] of raised.entries()) {
      const other = i % 2 === 0 ? b : a;
      expect(await other.exchange.venue.rfq(q.exchange_ref!)).toMatchObject({ ref: q.exchange_ref, quantum: 100 * (i + 1) });
    }
    const live = (await b.exchange.venue.liveRfqs()).map((r) => r.ref);
    expect(live).toEqual(expect.arrayContaining(refs));
  });

  it('answers through node B an RFQ raised through node A, and cancels it there too', async () => {
    const q = await rfqOn(a, { quote_type: 'BID', quantum: 300 });
    const response = await post(b, 'second', '/api/eoi/add/', { respond_to: q.id, quantum: 300, yield_stored: 0.0714 });
    expect(response.statusCode, response.body).toBe(201);
    const answer = json<Quote>(response);
    expect(answer.exchange_ref).toMatch(/^NSE-RSP-/);
    // Node A's view of the venue holds node B's response on its RFQ.
    expect((await a.exchange.venue.rfq(q.exchange_ref!))?.responses.map((r) => r.ref)).toEqual([answer.exchange_ref]);

    // Withdrawn through node B: gone for node A as well.
    await b.exchange.venue.cancel({ exchange: 'NSE', ref: answer.exchange_ref! });
    expect((await a.exchange.venue.rfq(q.exchange_ref!))?.responses).toEqual([]);
    // Cancelled through node B (a compensation): node A no longer lists it, and the venue refuses answers to it.
    await b.exchange.venue.cancel({ exchange: 'NSE', ref: q.exchange_ref! });
    expect(await a.exchange.venue.rfq(q.exchange_ref!)).toBeUndefined();
    expect(await a.exchange.venue.cancelledRefs()).toEqual(expect.arrayContaining([q.exchange_ref, answer.exchange_ref]));
    await expect(
      a.exchange.venue.respond({ exchange: 'NSE', rfqRef: q.exchange_ref!, price: 100, yieldFraction: 0.0714, quantum: 300 }),
    ).rejects.toBeInstanceOf(ExchangeUnavailableError);
    // Through HTTP on node A too: the venue refuses, nothing is stored (503).
    const refused = await post(a, 'second', '/api/eoi/add/', { respond_to: q.id, quantum: 300, yield_stored: 0.0715 });
    expect(refused.statusCode, refused.body).toBe(503);
  });

  it('gives one trade number to a deal reported by two nodes at the same time', async () => {
    const report = {
      exchange: 'NSE' as const,
      dealId: crypto.randomUUID(),
      rfqRef: null,
      isin: GSEC_2033,
      price: 100,
      yieldFraction: 0.0712,
      quantum: 100,
      settlementDate: '2030-01-01',
      consideration: 10_000_000,
    };
    const [fromA, fromB] = await Promise.all([a.exchange.venue.reportDeal(report), b.exchange.venue.reportDeal(report)]);
    expect(fromA.tradeId).toMatch(/^NSE-TRD-\d{6}$/);
    expect(fromB.tradeId).toBe(fromA.tradeId);
  });

  it('keeps a reported trade pending after a leader change, and settles it on schedule', async () => {
    const q = await rfqOn(a, { quote_type: 'BID', quantum: 200 });
    const counter = await post(b, 'second', '/api/eoi/add-negotiation/', { quote_id: q.id, yield_stored: 0.0713, quantum: 200 });
    expect(counter.statusCode, counter.body).toBe(200);
    const negotiation = json<{ id: string }>(counter);
    const accepted = await post(a, 'demo', '/api/eoi/add-negotiation/', {
      quote_id: q.id,
      negotiation_id: negotiation.id,
      action: 'accept',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const dealId = json<{ deal: { id: string } }>(accepted).deal.id;
    // Node A made the deal and reported it to the venue.
    await a.exchange.service.settle();
    const reported = await a.exchange.service.trade(dealId);
    expect(reported).toMatchObject({ reportStatus: 'reported', settlementStatus: 'pending' });
    const reportedAt = Date.now();

    // Node A goes away; node B takes the job lock over (its own election, within 5 s) and polls.
    const lockHolders = () =>
      b.deps.database.query<{ n: string }>(
        // This database's only: another Dart server on the same cluster (a benchmark) holds its own.
        `SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
        [advisoryKey('dart:exchange-jobs')],
      );
    await a.close();
    cluster.nodes.splice(cluster.nodes.indexOf(a), 1);
    const until = Date.now() + SETTLE_MS - 2_000;
    while (Number((await lockHolders())[0]!.n) !== 1) {
      if (Date.now() > until) throw new Error('node B never took the job lock over');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The venue still knows the trade node A reported: not settled before its time.
    expect(Date.now() - reportedAt).toBeLessThan(SETTLE_MS);
    expect(await b.exchange.venue.trade(reported!.exchangeTradeId!)).toMatchObject({ dealId, quantum: 200 });
    await b.exchange.service.tick();
    expect(await b.exchange.service.trade(dealId)).toMatchObject({ settlementStatus: 'pending' });
    // Once the settlement delay has passed it settles.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SETTLE_MS - (Date.now() - reportedAt)) + 100));
    await b.exchange.service.tick();
    expect(await b.exchange.service.trade(dealId)).toMatchObject({ settlementStatus: 'settled' });
  }, 60_000);
});
