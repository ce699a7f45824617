/**
 * Exchange RFQs through the ExchangeGateway with the SimulatedExchange: raising RFQs (one-to-many,
 * one-to-one, anonymous or disclosed) only on the firm's rfq_exchanges, `GET api/eoi/rfq-quote/`,
 * responding and negotiating through the existing quote calls, the deal reported to the venue and
 * settled at NSCCL, injected venue failures (nothing stored), anonymity in responses and events, and
 * the simulated participants raising and answering RFQs around real reference yields.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, exchangeTrades, referencePrices } from '../src/db/schema';
import { SIMULATED_FIRM } from '../src/modules/exchange';
import { bearer, createTestApp, DRIVERS, exchangeRfqBody, json, login, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151';
type Quote = {
  id: string;
  exchange: string | null;
  exchange_ref: string | null;
  rfq_anonymous: boolean;
  client_name: string | null;
  send_to_rfq: boolean;
  clearing_corporation: string | null;
  rfq_mode: string | null;
  yield_stored: number;
  finstrument_id: number;
  is_mine: boolean;
};
type List = { count: number; page_size: number; results: Quote[] };

describe.each(DRIVERS)('exchange RFQs on the SimulatedExchange (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const clientIds: Record<string, string> = {};
  let gsec: number;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      basic: 'basic@small.dart',
      broker: 'broker@brokers.dart',
    })) {
      tok[name] = (await login(t.app, email)).access;
      clientIds[name] = json<{ client_id: string }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[name]!) }),
      ).client_id;
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    // Small Bank is enabled for RFQs on BSE only.
    await t.database.db
      .update(clients)
      .set({ rfqExchanges: ['BSE'] })
      .where(eq(clients.id, clientIds.basic!));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const rfq = async (who: string, body: object = {}) => {
    const response = await post(who, '/api/trade/eoi/', exchangeRfqBody(gsec, body));
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };
  const rfqList = async (who: string, query = '') => json<List>(await get(who, `/api/eoi/rfq-quote/${query}`));

  it('raises an anonymous one-to-many RFQ on NSE, offered only to firms enabled on NSE, never in the public runs', async () => {
    const q = await rfq('demo');
    expect(q).toMatchObject({
      exchange: 'NSE',
      clearing_corporation: 'NSCCL',
      rfq_mode: 'ONE_TO_MANY',
      rfq_anonymous: true,
      send_to_rfq: true,
    });
    expect(q.exchange_ref).toMatch(/^NSE-RFQ-\d{6}$/);
    expect(await t.app.exchange.venue.rfq(q.exchange_ref!)).toMatchObject({ exchange: 'NSE', anonymous: true, quantum: 500 });

    const seen = (await rfqList('second')).results.find((r) => r.id === q.id);
    expect(seen).toMatchObject({ client_name: null, is_mine: false, exchange: 'NSE' });
    expect((await rfqList('basic')).results.map((r) => r.id)).not.toContain(q.id);
    expect((await get('basic', `/api/trade/eoi/${q.id}/`)).statusCode).toBe(404);
    expect((await post('basic', '/api/eoi/add/', { respond_to: q.id, quantum: 100, yield_stored: 0.071 })).statusCode).toBe(404);
    const publicRuns = json<List>(await get('second', '/api/trade/d/market/?page_size=100'));
    expect(publicRuns.results.map((r) => r.id)).not.toContain(q.id);
    // Own RFQs under my_quotes; search and paginate=false work.
    expect((await rfqList('demo', '?my_quotes=true')).results.map((r) => r.id)).toContain(q.id);
    expect((await rfqList('second', '?search=nomatch-xyz')).count).toBe(0);
    expect((await rfqList('second', '?paginate=false')).page_size).toBe(500);

    // Live: inquiries go to the firms enabled on NSE (not Small Bank), without the quoting firm's name.
    const events = await t.database.query<{ client_id: string; payload: unknown }>(
      `SELECT client_id, payload FROM events WHERE topic = 'market.inquiries' AND payload->>'quote_id' = $1`,
      [q.id],
    );
    const to = events.map((e) => e.client_id);
    expect(to).toEqual(expect.arrayContaining([clientIds.demo, clientIds.second]));
    expect(to).not.toContain(clientIds.basic);
    expect(JSON.stringify(events.map((e) => e.payload))).not.toContain('Demo Capital');
  });

  it('discloses the firm on a disclosed RFQ, and a one-to-one RFQ reaches its one counterparty only', async () => {
    const disclosed = await rfq('demo', { rfq_anonymous: false });
    expect((await rfqList('second')).results.find((r) => r.id === disclosed.id)?.client_name).toBe('Demo Capital');

    const bad = await post('demo', '/api/trade/eoi/', {
      quantum: 100,
      finstrument_id: gsec,
      yield_stored: 0.071,
      send_to_rfq: true,
      rfq_mode: 'ONE_TO_ONE',
    });
    expect(bad.statusCode).toBe(400);
    // The spec's field names the one participant (issue 12 §3): missing → required on it.
    expect(json<{ errors: Record<string, string[]> }>(bad).errors).toEqual({ oto_participant_details: ['This field is required'] });
    const two = await post('demo', '/api/trade/eoi/', {
      ...exchangeRfqBody(gsec),
      rfq_mode: 'ONE_TO_ONE',
      counterparties: [clientIds.second, clientIds.broker],
    });
    expect(two.statusCode).toBe(400);
    expect(two.body).toContain('exactly one counterparty');
    const oneToOne = await rfq('second', { rfq_mode: 'ONE_TO_ONE', counterparties: [clientIds.demo] });
    expect((await rfqList('demo')).results.map((r) => r.id)).toContain(oneToOne.id);
    expect((await rfqList('broker')).results.map((r) => r.id)).not.toContain(oneToOne.id);
    expect((await rfqList('broker')).results.map((r) => r.id)).toContain(disclosed.id);
    // Small Bank is not enabled on NSE: it cannot be addressed there.
    const notEnabled = await post('demo', '/api/trade/eoi/', {
      quantum: 100,
      finstrument_id: gsec,
      yield_stored: 0.071,
      send_to_rfq: true,
      rfq_mode: 'ONE_TO_ONE',
      counterparties: [clientIds.basic],
    });
    expect(notEnabled.statusCode).toBe(400);
  });

  it("refuses an RFQ on an exchange outside the firm's rfq_exchanges, and stores nothing when the venue fails", async () => {
    const nse = await post('basic', '/api/trade/eoi/', {
      quantum: 100,
      finstrument_id: gsec,
      yield_stored: 0.071,
      send_to_rfq: true,
      clearing_corporation: 'NSCCL',
    });
    expect(nse.statusCode).toBe(400);
    expect(nse.body).toContain('not enabled for RFQs on this exchange');
    const bse = await rfq('basic', { clearing_corporation: 'ICCL' });
    expect(bse.exchange).toBe('BSE');
    expect(bse.exchange_ref).toMatch(/^BSE-RFQ-/);

    const before = (await rfqList('demo', '?my_quotes=true')).count;
    t.app.exchange.venue.configure({ failureRate: 1 });
    try {
      const failed = await post('demo', '/api/trade/eoi/', { quantum: 100, finstrument_id: gsec, yield_stored: 0.071, send_to_rfq: true });
      expect(failed.statusCode).toBe(503);
      expect(json<{ message: string }>(failed).message).toBe('The exchange did not accept the request. Please try again.');
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
    expect((await rfqList('demo', '?my_quotes=true')).count).toBe(before);
  });

  it('responds and negotiates through the quote calls; acceptance reports the deal to NSE and it settles at NSCCL, anonymously', async () => {
    const q = await rfq('demo', { quote_type: 'BID', quantum: 300 });
    // A response is an exchange quote too: private to the RFQ's firm, and as anonymous as the RFQ.
    const response = await post('second', '/api/eoi/add/', { respond_to: q.id, quantum: 300, yield_stored: 0.0714 });
    expect(response.statusCode, response.body).toBe(201);
    const answer = json<Quote>(response);
    expect(answer).toMatchObject({ exchange: 'NSE', rfq_anonymous: true });
    expect(answer.exchange_ref).toMatch(/^NSE-RSP-/);
    expect((await rfqList('demo')).results.find((r) => r.id === answer.id)).toMatchObject({ client_name: null });
    expect((await rfqList('basic')).results.map((r) => r.id)).not.toContain(answer.id);

    const counter = await post('second', '/api/eoi/add-negotiation/', { quote_id: q.id, yield_stored: 0.0713, quantum: 300 });
    expect(counter.statusCode, counter.body).toBe(200);
    const negotiation = json<{ id: string; history: Array<{ by_user_id: string }> }>(counter);
    expect(negotiation.history[0]!.by_user_id).not.toBe('');
    const accepted = await post('demo', '/api/eoi/add-negotiation/', { quote_id: q.id, negotiation_id: negotiation.id, action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const deal = json<{ deal: { id: string; side: string; seller_name: string; seller_client_id: string; buyer_name: string } }>(
      accepted,
    ).deal;
    expect(deal).toMatchObject({
      side: 'buy',
      buyer_name: 'Demo Capital',
      seller_name: 'Anonymous NSE RFQ participant',
      seller_client_id: '',
    });
    expect(JSON.stringify(json(accepted))).not.toContain('Second Bank');
    // Demo Capital never sees Second Bank's user on the anonymous RFQ, in the response or the events.
    expect(json<{ history: Array<{ by_client: string; by_user_id: string }> }>(accepted).history[0]).toMatchObject({
      by_client: 'responder',
      by_user_id: '',
    });
    const negotiationEvents = await t.database.query<{ payload: { last: { by_user_id: string } } }>(
      `SELECT payload FROM events WHERE topic = 'market.rfq_negotiation' AND payload->>'quote_id' = $1`,
      [q.id],
    );
    expect(negotiationEvents.length).toBeGreaterThan(0);
    expect(negotiationEvents.every((e) => e.payload.last.by_user_id === '')).toBe(true);

    await t.app.exchange.service.settle();
    const trade = (await t.database.db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, deal.id)))[0]!;
    expect(trade).toMatchObject({ exchange: 'NSE', clearingCorporation: 'NSCCL', reportStatus: 'reported', settlementStatus: 'pending' });
    expect(trade.exchangeTradeId).toMatch(/^NSE-TRD-/);
    expect(await t.app.exchange.venue.trade(trade.exchangeTradeId!)).toMatchObject({ quantum: 300, dealId: deal.id });

    t.app.exchange.venue.configure({ settleMs: 0 });
    await t.app.exchange.service.tick();
    const settled = (await t.database.db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, deal.id)))[0]!;
    expect(settled.settlementStatus).toBe('settled');
    const tickets = await t.database.query<{ client_id: string; payload: Record<string, unknown> }>(
      `SELECT client_id, payload FROM events WHERE topic = 'market.refresh_tickets' AND payload->>'deal_id' = $1 ORDER BY position`,
      [deal.id],
    );
    expect(tickets.at(-1)?.payload).toMatchObject({ settlement_status: 'settled', exchange: 'NSE' });
    expect(new Set(tickets.map((e) => e.client_id))).toEqual(new Set([clientIds.demo, clientIds.second]));
  });

  it('withdraws a counter at the venue when its store fails after the venue accepted it', async () => {
    const venue = t.app.exchange.venue;
    const q = await rfq('demo', { quote_type: 'BID', quantum: 400 });
    const negotiationsOf = async () =>
      Number((await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM negotiations WHERE quote_id = $1`, [q.id]))[0]!.n);
    const withdrawnBefore = new Set(await venue.cancelledRefs());
    // The venue answers slowly; meanwhile the RFQ's firm closes the RFQ, so the counter's transaction
    // refuses it (the quote is no longer open) after the venue took the counter.
    venue.configure({ latencyMs: 150 });
    try {
      const racing = post('second', '/api/eoi/add-negotiation/', { quote_id: q.id, yield_stored: 0.0713, quantum: 400 });
      await new Promise((resolve) => setTimeout(resolve, 40));
      const closed = await t.app.inject({ method: 'PUT', url: `/api/trade/d/eoi/${q.id}/close/`, headers: bearer(tok.demo!) });
      expect(closed.statusCode, closed.body).toBeLessThan(300);
      const answer = await racing;
      expect(answer.statusCode, answer.body).toBe(409);
    } finally {
      venue.configure({ latencyMs: 0 });
    }
    // Nothing stored, and the counter the venue accepted was withdrawn there (compensation).
    expect(await negotiationsOf()).toBe(0);
    const withdrawn = (await venue.cancelledRefs()).filter((ref) => !withdrawnBefore.has(ref));
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]).toMatch(/^NSE-RSP-\d{6}$/);
    const onVenue = await t.database.query<{ rfq_ref: string; status: string }>(
      `SELECT rfq_ref, status FROM exchange_sim_responses WHERE ref = $1`,
      [withdrawn[0]],
    );
    expect(onVenue).toEqual([{ rfq_ref: q.exchange_ref, status: 'withdrawn' }]);
  });

  it('records and reports an exchange deal whose node died before recording it; the venue knows each deal once', async () => {
    const q = await rfq('demo', { quote_type: 'BID', quantum: 25_000 });
    const counter = json<{ id: string }>(await post('second', '/api/eoi/add-negotiation/', { quote_id: q.id, yield_stored: 0.0712 }));
    const accepted = await post('demo', '/api/eoi/add-negotiation/', { quote_id: q.id, negotiation_id: counter.id, action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const dealId = json<{ deal: { id: string } }>(accepted).deal.id;
    await t.app.exchange.service.settle();
    // As if the deal's node had died right after the deal committed: nothing recorded, nothing reported.
    await t.database.query(`DELETE FROM exchange_trades WHERE deal_id = $1`, [dealId]);
    await t.database.query(`DELETE FROM exchange_sim_trades WHERE deal_id = $1`, [dealId]);
    await t.app.exchange.service.tick();
    // Too recent: the deal's own node may still be recording it.
    expect(await t.app.exchange.service.trade(dealId)).toBeUndefined();
    await t.database.query(`UPDATE deals SET created_at = created_at - interval '1 minute' WHERE id = $1`, [dealId]);
    await t.app.exchange.service.tick();
    const recorded = await t.app.exchange.service.trade(dealId);
    expect(recorded).toMatchObject({ exchange: 'NSE', reportStatus: 'reported' });
    // A repeated report of the deal (a retry after a lost answer) gets the same trade number.
    const [deal] = await t.database.query<{ price: number; yield_fraction: number; settlement_date: string }>(
      `SELECT price, yield_fraction, settlement_date::text FROM deals WHERE id = $1`,
      [dealId],
    );
    const again = await t.app.exchange.venue.reportDeal({
      exchange: 'NSE',
      dealId,
      rfqRef: q.exchange_ref,
      isin: GSEC_2033,
      price: deal!.price,
      yieldFraction: deal!.yield_fraction,
      quantum: 25_000,
      settlementDate: deal!.settlement_date,
      consideration: 1,
    });
    expect(again.tradeId).toBe(recorded!.exchangeTradeId);
    expect(
      (await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM exchange_sim_trades WHERE deal_id = $1`, [dealId]))[0]!.n,
    ).toBe('1');
  });

  it('retries a deal report the venue refused', async () => {
    const q = await rfq('demo', { quote_type: 'ASK', quantum: 200 });
    const counter = json<{ id: string }>(await post('second', '/api/eoi/add-negotiation/', { quote_id: q.id, yield_stored: 0.0712 }));
    t.app.exchange.venue.configure({ failureRate: 1 });
    let dealId: string;
    try {
      const accepted = await post('demo', '/api/eoi/add-negotiation/', { quote_id: q.id, negotiation_id: counter.id, action: 'accept' });
      expect(accepted.statusCode, accepted.body).toBe(200);
      dealId = json<{ deal: { id: string } }>(accepted).deal.id;
      await t.app.exchange.service.settle();
      expect(await t.app.exchange.service.trade(dealId)).toMatchObject({ reportStatus: 'pending', attempts: 1 });
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
    await t.app.exchange.service.tick();
    expect(await t.app.exchange.service.trade(dealId)).toMatchObject({ reportStatus: 'reported', attempts: 2 });
  });

  it('simulated participants raise RFQs on real bonds around their reference yields and answer open RFQs', async () => {
    const participants = t.app.exchange.participants;
    const id = await participants.raiseRfq();
    expect(id).not.toBeNull();
    const raised = (await rfqList('second', '?page_size=100')).results.find((r) => r.id === id)!;
    expect(raised).toBeDefined();
    expect(raised.exchange === 'NSE' || raised.exchange === 'BSE').toBe(true);
    expect(raised.client_name).toBe(raised.rfq_anonymous ? null : SIMULATED_FIRM);
    const [reference] = await t.database.db
      .select({ y: referencePrices.yieldFraction })
      .from(referencePrices)
      .where(eq(referencePrices.finstrumentId, raised.finstrument_id))
      .orderBy(referencePrices.priority, desc(referencePrices.priceDate))
      .limit(1);
    expect(Math.abs(raised.yield_stored - reference!.y)).toBeLessThanOrEqual(0.0011);

    const mine = await rfq('second', { quantum: 100 });
    const answered = await participants.respond(50);
    const responses = await t.database.query<{ id: string }>(`SELECT id FROM quotes WHERE respond_to = $1`, [mine.id]);
    expect(responses.map((r) => r.id).some((r) => answered.includes(r))).toBe(true);
    // Answered once only.
    await participants.respond(50);
    const again = await t.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM quotes WHERE respond_to = $1`, [mine.id]);
    expect(Number(again[0]!.n)).toBe(1);
  });
});
