/**
 * Issue 5 ("Market"): the lists of a firm's negotiations (`GET api/eoi/negotiations/`) and deals
 * (`GET api/trade/deals/`) — own ones only (a third firm sees none), newest first, full counter
 * history, the caller's side and counterparty, the anonymous label on an anonymous exchange RFQ,
 * paging caps and bad queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
const HDFC_NCD = 'INE040A08955';

type Quote = { id: string; unit_price_stored: number; settlement_date: string };
type Counter = { action: string; by_client: string; by_user_id: string; yield_stored: number; quantum: number };
type Deal = {
  id: string;
  finstrument_id: number;
  isin: string;
  display_name: string;
  side: string;
  buyer_client_id: string;
  seller_client_id: string;
  buyer_name: string;
  seller_name: string;
  counterparty_name: string;
  negotiation_id: string | null;
  cluster_id: string | null;
  price: number;
  yield: number;
  quantum: number;
  settlement_date: string;
  consideration: number;
  created_at: string;
};
type Negotiation = {
  id: string;
  quote_id: string;
  finstrument_id: number;
  status: string;
  role: string;
  history: Counter[];
  deal: Deal | null;
  created_at: string;
};
type Page<T> = { count: number; page: number; page_size: number; results: T[] };

/** A setup step that must hold (expect() belongs in tests). */
function must(condition: boolean, what: string): void {
  if (!condition) throw new Error(`setup failed: ${what}`);
}

describe.each(DRIVERS)('market lists of negotiations and deals (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const clientIds: Record<string, string> = {};
  let gsec: number;
  let hdfc: number;
  // Made in beforeAll: a negotiated deal, a still-open negotiation, a cluster deal and an anonymous NSE RFQ deal.
  let negotiated: Negotiation;
  let openNegotiation: Negotiation;
  let clusterDealId: string;
  let rfqNegotiation: Negotiation;

  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const quote = async (who: string, body: object) => {
    const response = await post(who, '/api/trade/eoi/', { quantum: 100 * LAKH, finstrument_id: gsec, yield_stored: 0.07, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };
  const negotiate = async (who: string, body: object) => {
    const response = await post(who, '/api/eoi/add-negotiation/', body);
    expect(response.statusCode, response.body).toBe(200);
    return json<Negotiation>(response);
  };
  const negotiations = async (who: string, query = '') => {
    const response = await get(who, `/api/eoi/negotiations/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<Page<Negotiation>>(response);
  };
  const deals = async (who: string, query = '') => {
    const response = await get(who, `/api/trade/deals/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<Page<Deal>>(response);
  };

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart', basic: 'basic@small.dart' })) {
      tok[name] = (await login(t.app, email)).access;
      clientIds[name] = json<{ client_id: string }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[name]!) }),
      ).client_id;
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;

    // 1. Demo bids on the HDFC NCD; Second counters, Demo counters back, Second accepts → deal (Demo buys 6).
    const bid = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.078, quantum: 10 * LAKH });
    const first = await negotiate('second', { quote_id: bid.id, yield_stored: 0.0775 });
    await negotiate('demo', { quote_id: bid.id, negotiation_id: first.id, yield_stored: 0.0778, quantum: 6 * LAKH });
    negotiated = await negotiate('second', { quote_id: bid.id, negotiation_id: first.id, action: 'accept' });
    // 2. Demo asks on the G-Sec; Second counters and nothing more (open).
    const ask = await quote('demo', { quote_type: 'ASK', yield_stored: 0.069, quantum: 20 * LAKH });
    openNegotiation = await negotiate('second', { quote_id: ask.id, yield_stored: 0.0695 });
    // 3. A cluster: Demo's bid and Second's crossing ask; both accept → deal (Demo buys 30).
    const cbid = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.07, quantum: 30 * LAKH, settlement_delta: 1 });
    const cask = await quote('second', {
      finstrument_id: hdfc,
      quote_type: 'ASK',
      yield_stored: 0.0705,
      quantum: 30 * LAKH,
      settlement_delta: 1,
    });
    const cluster = json<{ results: Array<{ id: string; my_leg_id: string }> }>(
      await get('second', '/api/trade/cluster/?status=proposed'),
    ).results.find((c) => c.my_leg_id === cask.id)!;
    must((await post('demo', `/api/cluster/${cluster.id}/accept/?lsId=${cbid.id}`, {})).statusCode === 200, 'Demo accepts its leg');
    const accepted = json<{ status: string; deal: Deal }>(await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${cask.id}`, {}));
    must(accepted.status === 'accepted', 'both legs accepted');
    clusterDealId = accepted.deal.id;
    // 4. An anonymous one-to-many RFQ on NSE by Demo; Second counters, Demo accepts → deal with the anonymous label.
    const rfq = await quote('demo', {
      quantum: 300 * LAKH,
      yield_stored: 0.0712,
      validity: 60,
      send_to_rfq: true,
      clearing_corporation: 'NSCCL',
    });
    const rfqCounter = await negotiate('second', { quote_id: rfq.id, yield_stored: 0.0713, quantum: 300 * LAKH });
    rfqNegotiation = await negotiate('demo', { quote_id: rfq.id, negotiation_id: rfqCounter.id, action: 'accept' });
    must(rfqNegotiation.deal?.seller_name === 'Anonymous NSE RFQ participant', 'an anonymous RFQ deal');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("lists the firm's negotiations newest first, with the full counter history and the deal, from each side", async () => {
    const demo = await negotiations('demo');
    const ids = demo.results.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining([negotiated.id, openNegotiation.id, rfqNegotiation.id]));
    expect(demo.count).toBe(demo.results.length);
    expect(demo).toMatchObject({ page: 1, page_size: 20 });
    const created = demo.results.map((n) => n.created_at);
    expect(created).toEqual(created.toSorted().toReversed());

    const mine = demo.results.find((n) => n.id === negotiated.id)!;
    expect(mine).toMatchObject({ role: 'quoter', status: 'accepted', finstrument_id: hdfc });
    expect(mine.history.map((h) => [h.action, h.by_client])).toEqual([
      ['counter', 'responder'],
      ['counter', 'quoter'],
      ['accept', 'responder'],
    ]);
    expect(mine.history[1]).toMatchObject({ yield_stored: 0.0778, quantum: 6 * LAKH });
    expect(mine.deal).toMatchObject({ id: negotiated.deal!.id, side: 'buy', quantum: 6 * LAKH, seller_name: 'Second Bank' });
    expect(mine.history).toEqual(negotiated.history);

    const theirs = (await negotiations('second')).results.find((n) => n.id === negotiated.id)!;
    expect(theirs).toMatchObject({ role: 'responder', status: 'accepted' });
    expect(theirs.deal).toMatchObject({ side: 'sell', buyer_name: 'Demo Capital' });

    const open = await negotiations('second', '?status=open');
    expect(open.results.map((n) => n.id)).toEqual([openNegotiation.id]);
    expect(open.results[0]).toMatchObject({ role: 'responder', deal: null });
    expect(open.results[0]!.history).toHaveLength(1);
  });

  it("lists the firm's deals newest first from its own side, with the bond and the counterparty", async () => {
    const demo = await deals('demo');
    expect(demo.count).toBe(3);
    expect(demo.results.map((d) => d.id)).toEqual([rfqNegotiation.deal!.id, clusterDealId, negotiated.deal!.id]);
    const bond = json<{ isin: string; display_name: string }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` }));
    expect(demo.results[2]).toMatchObject({
      finstrument_id: hdfc,
      isin: HDFC_NCD,
      display_name: bond.display_name,
      side: 'buy',
      counterparty_name: 'Second Bank',
      quantum: 6 * LAKH,
      yield: 0.0778,
      price: negotiated.deal!.price,
      settlement_date: negotiated.deal!.settlement_date,
      consideration: negotiated.deal!.consideration,
      negotiation_id: negotiated.id,
    });
    expect(demo.results[1]).toMatchObject({
      side: 'buy',
      counterparty_name: 'Second Bank',
      quantum: 30 * LAKH,
      cluster_id: expect.any(String),
    });

    const second = await deals('second');
    expect(second.results.map((d) => d.id)).toEqual(demo.results.map((d) => d.id));
    expect(second.results.every((d) => d.side === 'sell')).toBe(true);
    expect(second.results.slice(1).every((d) => d.counterparty_name === 'Demo Capital')).toBe(true);
  });

  it('never names the other firm on an anonymous exchange RFQ, in the deal or the negotiation', async () => {
    const deal = (await deals('demo')).results.find((d) => d.id === rfqNegotiation.deal!.id)!;
    expect(deal).toMatchObject({ side: 'buy', counterparty_name: 'Anonymous NSE RFQ participant', seller_client_id: '' });
    expect(JSON.stringify(deal)).not.toContain('Second Bank');
    expect(JSON.stringify(deal)).not.toContain(clientIds.second!);
    const n = (await negotiations('demo')).results.find((x) => x.id === rfqNegotiation.id)!;
    expect(n.history[0]).toMatchObject({ by_client: 'responder', by_user_id: '' });
    expect(JSON.stringify(n)).not.toContain('Second Bank');
    expect(JSON.stringify(n)).not.toContain(clientIds.second!);
    // And the other way round: Second Bank sees Demo Capital only as the anonymous participant.
    const theirs = (await deals('second')).results.find((d) => d.id === rfqNegotiation.deal!.id)!;
    expect(theirs).toMatchObject({ side: 'sell', counterparty_name: 'Anonymous NSE RFQ participant', buyer_client_id: '' });
    expect(JSON.stringify(theirs)).not.toContain('Demo Capital');
  });

  it("shows a third firm none of the others' negotiations or deals", async () => {
    expect(await negotiations('basic')).toMatchObject({ count: 0, results: [] });
    expect(await deals('basic')).toMatchObject({ count: 0, results: [] });
  });

  it('pages both lists and caps page_size at 100', async () => {
    const [p1, p2] = [await deals('demo', '?page=1&page_size=1'), await deals('demo', '?page=2&page_size=1')];
    expect(p1).toMatchObject({ count: 3, page: 1, page_size: 1 });
    expect(p1.results).toHaveLength(1);
    expect(p2.results).toHaveLength(1);
    expect(p2.results[0]!.id).not.toBe(p1.results[0]!.id);
    expect((await deals('demo', '?page=9&page_size=100')).results).toEqual([]);
    const n1 = await negotiations('demo', '?page_size=2');
    expect(n1.results).toHaveLength(2);
    expect(n1.count).toBe(3);
    expect((await negotiations('demo', '?page=2&page_size=2')).results).toHaveLength(1);
  });

  it('answers 400 to a bad query', async () => {
    for (const url of [
      '/api/trade/deals/?page_size=101',
      '/api/trade/deals/?page_size=0',
      '/api/trade/deals/?page=0',
      '/api/trade/deals/?page=abc',
      '/api/trade/deals/?status=open',
      '/api/eoi/negotiations/?page_size=101',
      '/api/eoi/negotiations/?status=done',
      '/api/eoi/negotiations/?foo=1',
    ]) {
      const response = await get('demo', url);
      expect(response.statusCode, url).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/trade/deals/' })).statusCode).toBe(401);
  });
});
