/**
 * Counterparty quality of the Build Network panel (issue 15 §1; `GET api/network/stats/`, modules/team README
 * "Counterparty quality") on both databases. Real activity between Demo Capital and Second Bank through the market
 * API — private runs both ways, answered and not, a counter answered by a reject, a negotiation accepted into a deal,
 * quotes withdrawn and left to expire, an anonymous exchange RFQ dealt — then the timestamps the medians read are set
 * to known instants, and every figure is checked exactly from each firm's side. A firm that took no part sees
 * nothing; old activity and anonymous RFQs fall out.
 */
import type { NetworkFirmStats, NetworkStats } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, exchangeRfqBody, json, type TestApp } from './helpers';
import { bondId, call, GSEC_2033, HDFC_NCD, LAKH, makeDeal, postTradeActors, type Actor, type PostTradeUser } from './post-trade-support';

describe.each(DRIVERS)('network stats (%s)', (driver) => {
  let t: TestApp;
  let actors: Record<PostTradeUser, Actor>;

  const stats = async (who: PostTradeUser): Promise<NetworkStats> => {
    const response = await call(t, who, 'GET', '/api/network/stats/');
    expect(response.statusCode, response.body).toBe(200);
    return json<NetworkStats>(response);
  };
  const statsOf = async (who: PostTradeUser, about: PostTradeUser): Promise<NetworkFirmStats | undefined> =>
    (await stats(who)).results.find((row) => row.client_id === actors[about].clientId);

  /** A private run (a quote addressed to one firm) through the ticket's call; returns its id. */
  async function privateRun(who: PostTradeUser, to: PostTradeUser, isin: string, side: 'BID' | 'ASK', yieldStored: number) {
    const response = await call(t, who, 'POST', '/api/trade/eoi/', {
      quote_type: side,
      quantum: 5 * LAKH,
      finstrument_id: await bondId(t, isin),
      yield_stored: yieldStored,
      validity: 60,
      counterparties: [actors[to].clientId],
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string }>(response).id;
  }
  async function negotiate(who: PostTradeUser, body: object) {
    const response = await call(t, who, 'POST', '/api/eoi/add-negotiation/', body);
    expect(response.statusCode, response.body).toBe(200);
    return json<{ id: string }>(response).id;
  }
  const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
  /** A POST that must answer 201; returns the new row's id. */
  async function created(who: PostTradeUser, url: string, body: object) {
    const response = await call(t, who, 'POST', url, body);
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string }>(response).id;
  }
  /** Withdraws a quote (its owner's close); the answer must be 200. */
  async function close(who: PostTradeUser, quoteId: string) {
    const response = await call(t, who, 'PUT', `/api/trade/d/eoi/${quoteId}/close/`);
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    actors = await postTradeActors(t);

    // Older than the 90-day window: a whole deal (quote, negotiation, deal) moved back 91 days counts for nothing.
    const old = await makeDeal(t, { buyer: 'second' });
    await exec(sql`UPDATE deals SET created_at = now() - interval '91 days' WHERE id = ${old.dealId}`);
    await exec(sql`UPDATE negotiations SET created_at = now() - interval '91 days' WHERE id IN
                     (SELECT negotiation_id FROM deals WHERE id = ${old.dealId})`);
    await exec(sql`UPDATE quotes SET created_at = now() - interval '91 days' WHERE id IN
                     (SELECT n.quote_id FROM negotiations n JOIN deals d ON d.negotiation_id = n.id WHERE d.id = ${old.dealId})`);

    // P1: Demo's private bid to Second, answered by Second's counter (30 s later), accepted by Demo → a deal.
    const p1 = await privateRun('demo', 'second', HDFC_NCD, 'BID', 0.0785);
    const n1 = await negotiate('second', { quote_id: p1, yield_stored: 0.078 });
    await negotiate('demo', { quote_id: p1, negotiation_id: n1, action: 'accept' });
    await exec(sql`UPDATE quotes SET created_at = now() - interval '2 hours' WHERE id = ${p1}`);
    await exec(sql`UPDATE negotiations SET created_at = now() - interval '2 hours' + interval '30 seconds' WHERE id = ${n1}`);
    // Second's counter was answered by Demo's accept 90 s later.
    await exec(sql`UPDATE negotiations SET history = jsonb_set(jsonb_set(history, '{0,at}', '"2026-01-10T10:00:00.000Z"'),
                     '{1,at}', '"2026-01-10T10:01:30.000Z"') WHERE id = ${n1}`);

    // P2: Demo's private bid to Second, never answered, withdrawn by Demo.
    const p2 = await privateRun('demo', 'second', HDFC_NCD, 'BID', 0.0795);
    await close('demo', p2);

    // S1: Second's private ask to Demo; Demo counters 20 s later, Second rejects 45 s after that, then withdraws S1.
    const s1 = await privateRun('second', 'demo', GSEC_2033, 'ASK', 0.072);
    const n2 = await negotiate('demo', { quote_id: s1, yield_stored: 0.0725 });
    await negotiate('second', { quote_id: s1, negotiation_id: n2, action: 'reject' });
    await close('second', s1);
    await exec(sql`UPDATE quotes SET created_at = now() - interval '1 hour' WHERE id = ${s1}`);
    await exec(sql`UPDATE negotiations SET created_at = now() - interval '1 hour' + interval '20 seconds' WHERE id = ${n2}`);
    await exec(sql`UPDATE negotiations SET history = jsonb_set(jsonb_set(history, '{0,at}', '"2026-01-10T11:00:00.000Z"'),
                     '{1,at}', '"2026-01-10T11:00:45.000Z"') WHERE id = ${n2}`);

    // S2: Second's private ask to Demo, unanswered and left to run out (its expiry is now past).
    const s2 = await privateRun('second', 'demo', GSEC_2033, 'ASK', 0.0722);
    await exec(sql`UPDATE quotes SET expires_at = now() - interval '1 minute' WHERE id = ${s2}`);

    // An anonymous NSE RFQ of Demo, answered, countered and accepted by Second into a deal: none of it counts
    // (neither side may learn the other), so every figure above stays as it is.
    const rfqId = await created('demo', '/api/trade/eoi/', exchangeRfqBody(await bondId(t, GSEC_2033), { quote_type: 'BID' }));
    await created('second', '/api/eoi/add/', { respond_to: rfqId, quantum: 500, yield_stored: 0.0714 });
    const rfqNegotiation = await negotiate('second', { quote_id: rfqId, yield_stored: 0.0713, quantum: 500 });
    await negotiate('demo', { quote_id: rfqId, negotiation_id: rfqNegotiation, action: 'accept' });
  }, 180_000);
  afterAll(async () => t?.close());

  it("[NS1] Demo Capital's view of Second Bank: requests answered, median time, hit rate, quotes held and pulled, deals", async () => {
    const row = await statsOf('demo', 'second');
    expect(row).toMatchObject({
      name: 'Second Bank',
      is_broker: false,
      // P1 (answered after 30 s), P2 (withdrawn unanswered), Demo's counter on S1 (answered by the reject after 45 s).
      requests: 3,
      answered: 2,
      response_rate: 0.6667,
      median_response_seconds: 37.5,
      // N1 accepted, N2 rejected.
      negotiations: 2,
      hit_rate: 0.5,
      // S2 ran out (held), S1 withdrawn before its expiry (pulled).
      quotes_held: 1,
      quotes_pulled: 1,
      // The 91-day-old deal is outside the window.
      deals: 1,
    });
    expect(row!.contact).toEqual({ user_id: actors.second.userId, user_name: expect.any(String) });
  });

  it("[NS2] Second Bank's view of Demo Capital is its own: its requests, Demo's answers, Demo's quotes to it", async () => {
    const row = await statsOf('second', 'demo');
    expect(row).toMatchObject({
      name: 'Demo Capital',
      // S1 (answered by Demo's counter after 20 s), S2 (ran out unanswered), Second's counter on P1 (accepted after 90 s).
      requests: 3,
      answered: 2,
      response_rate: 0.6667,
      median_response_seconds: 55,
      negotiations: 2,
      hit_rate: 0.5,
      // P1 filled by the deal (held), P2 withdrawn (pulled).
      quotes_held: 1,
      quotes_pulled: 1,
      deals: 1,
    });
  });

  it('[NS3] a firm that took no part sees neither firm; the stats name only counterparties', async () => {
    const basic = await stats('basic');
    expect(basic.results.map((row) => row.client_id)).not.toContain(actors.demo.clientId);
    expect(basic.results.map((row) => row.client_id)).not.toContain(actors.second.clientId);
    expect(basic.window_days).toBe(90);
    const demo = await stats('demo');
    expect(demo.results.map((row) => row.client_id)).toEqual([actors.second.clientId]);
    expect(demo.count).toBe(1);
  });

  it('[NS4] only traders read it: signed out is 401, a user without client.can_trade is 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/network/stats/' })).statusCode).toBe(401);
    const backoffice = await call(t, 'backoffice', 'GET', '/api/network/stats/');
    expect(backoffice.statusCode, backoffice.body).toBe(403);
  });
});
