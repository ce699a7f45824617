/**
 * Issue 5 ("Market") through the HTTP API on a slice of the real bond universe: quotes (EOI) with
 * the spec's field and cross-field rules, idempotency, lifecycle, public and private runs, tenant
 * isolation, negotiation, matching into clusters and deals, and live events over real sockets.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one HDFC NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;
const GSEC_2033 = 'IN0020220151';
const HDFC_NCD = 'INE040A08955';

type Quote = Record<string, unknown> & {
  id: string;
  unit_price_stored: number;
  yield_stored: number;
  status: string;
  remaining_quantum: number;
  quote_type: string;
};
type List = { count: number; page_size: number; results: Quote[]; restriction_text: string | null };
type Cluster = {
  id: string;
  status: string;
  my_leg_id: string;
  my_side: string;
  price: number;
  quantum: number;
  bid_accepted: boolean;
  ask_accepted: boolean;
  deal: Record<string, unknown> | null;
};

describe.each(DRIVERS)('market (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const clientIds: Record<string, string> = {};
  let gsec: number;
  let hdfc: number;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const who = {
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      basic: 'basic@small.dart',
      broker: 'broker@brokers.dart',
      viewer: 'viewer@demo.dart',
      compliance: 'compliance@demo.dart',
    };
    for (const [name, email] of Object.entries(who)) {
      tok[name] = (await login(t.app, email)).access;
      clientIds[name] = json<{ client_id: string }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[name]!) }),
      ).client_id;
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: string, url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { ...bearer(tok[who]!), ...headers } });
  const put = (who: string, url: string, payload?: object) =>
    t.app.inject({ method: 'PUT', url, ...(payload ? { payload } : {}), headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const quote = async (who: string, body: object) => {
    const response = await post(who, '/api/trade/eoi/', { quantum: 100 * LAKH, finstrument_id: gsec, yield_stored: 0.07, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };

  it('creates a quote by yield with the spec defaults and prices it through bond-math', async () => {
    const q = await quote('demo', { validity: 60 });
    expect(q).toMatchObject({
      quote_type: 'BID',
      source: 'WEBSITE',
      state: 'DEFAULT',
      fixed_field: 'yield',
      yield_stored: 0.07,
      quantum: 100 * LAKH,
      remaining_quantum: 100 * LAKH,
      face_value_per_bond: 100,
      status: 'open',
      is_mine: true,
      private: false,
    });
    const priced = json<{ price: { unit_clean_price: number } }>(
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/finstrument/${gsec}/`,
        payload: { yield: 0.07, settlement_date: q.settlement_date },
      }),
    );
    expect(q.unit_price_stored).toBe(priced.price.unit_clean_price);
    const audit = await t.database.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity_id = $1`, [q.id]);
    expect(audit.map((a) => a.action)).toEqual(['quote.created']);
  });

  it('creates a quote by price through api/eoi/add/ and computes the yield', async () => {
    const response = await post('demo', '/api/eoi/add/', {
      quantum: 5 * LAKH,
      finstrument_id: gsec,
      quote_type: 'ask',
      fixed_field: 'price',
      unit_price_stored: 101.23456,
      settlement_delta: 1,
    });
    expect(response.statusCode, response.body).toBe(201);
    const q = json<Quote>(response);
    expect(q.quote_type).toBe('ASK');
    expect(q.unit_price_stored).toBe(101.2346);
    expect(q.yield_stored).toBeGreaterThan(0.03);
    expect(q.yield_stored).toBeLessThan(0.1);
    expect(String(q.yield_stored).split('.')[1]!.length).toBeLessThanOrEqual(6);
  });

  it('enforces the field rules of spec §5 with the spec messages', async () => {
    const errorsOf = async (body: object) =>
      json<{ errors: Record<string, string[]> }>(
        await post('demo', '/api/trade/eoi/', { quantum: 10 * LAKH, finstrument_id: gsec, yield_stored: 0.07, ...body }),
      ).errors;
    expect((await errorsOf({ quantum: 0 })).quantum).toEqual(['Cannot be zero']);
    expect((await errorsOf({ quantum: -5 })).quantum).toEqual(['Cannot be negative']);
    expect((await errorsOf({ quantum: 1_000_000_000_000 })).quantum).toEqual(['Max 12 digits']);
    expect((await errorsOf({ quantum: 'abc' })).quantum).toEqual(['Should be number']);
    expect((await errorsOf({ quantum: undefined })).quantum).toEqual(['This field is required']);
    expect((await errorsOf({ fixed_field: 'price', unit_price_stored: 300 })).unit_price_stored).toEqual(['Should be less than 250']);
    expect((await errorsOf({ fixed_field: 'price', unit_price_stored: -1 })).unit_price_stored).toEqual(['Cannot be negative']);
    expect((await errorsOf({ fixed_field: 'price' })).unit_price_stored).toEqual(['This field is required']);
    expect((await errorsOf({ yield_stored: 1.5 })).yield_stored).toEqual(['Yield above 100%']);
    expect((await errorsOf({ yield_stored: -0.01 })).yield_stored).toEqual(['Cannot be negative']);
    expect((await errorsOf({ settlement: '2030-01-01', settlement_delta: 1 })).settlement).toEqual([
      'Cannot provide both settlement date and settlement delta',
    ]);
    expect((await errorsOf({ client_id: clientIds.second })).client_id).toEqual(['Unknown field.']);
    expect((await errorsOf({ counterparties: [clientIds.demo] })).counterparties).toEqual([
      'You cannot send a private run to your own firm.',
    ]);
    const both = await post('second', '/api/eoi/add/', {
      quantum: LAKH,
      respond_to: (await quote('demo', {})).id,
      unit_price_stored: 100,
      yield_stored: 0.07,
    });
    expect(json(both).errors).toEqual({ non_field_errors: ['Cannot provide both price and yield'] });
  });

  it('allows price override only to the price-override role', async () => {
    const body = { quantum: 10 * LAKH, finstrument_id: gsec, yield_stored: 0.07, unit_price_stored: 99.5, price_overridden: true };
    const dealer = await post('demo', '/api/trade/eoi/', body);
    expect(dealer.statusCode).toBe(403);
    expect(json(dealer).message).toBe('Your role cannot override the price.');
    const broker = await post('broker', '/api/trade/eoi/', body);
    expect(broker.statusCode).toBe(201);
    expect(json<Quote>(broker)).toMatchObject({ unit_price_stored: 99.5, yield_stored: 0.07, price_overridden: true });
  });

  it('refuses viewer and compliance users (403)', async () => {
    for (const who of ['viewer', 'compliance']) {
      expect((await post(who, '/api/trade/eoi/', { quantum: LAKH, finstrument_id: gsec, yield_stored: 0.07 })).statusCode).toBe(403);
      expect(
        (await post(who, '/api/eoi/add-negotiation/', { quote_id: '00000000-0000-4000-8000-000000000000', yield_stored: 0.07 })).statusCode,
      ).toBe(403);
    }
  });

  it('replays the first result for a repeated Idempotency-Key and refuses the key with another body', async () => {
    const body = { quantum: 7 * LAKH, finstrument_id: gsec, yield_stored: 0.0712 };
    const first = await post('demo', '/api/trade/eoi/', body, { 'idempotency-key': 'key-1' });
    const second = await post('demo', '/api/trade/eoi/', body, { 'idempotency-key': 'key-1' });
    expect(second.statusCode).toBe(201);
    expect(json<Quote>(second).id).toBe(json<Quote>(first).id);
    expect(second.headers['idempotency-replayed']).toBe('true');
    const other = await post('demo', '/api/trade/eoi/', { ...body, quantum: 8 * LAKH }, { 'idempotency-key': 'key-1' });
    expect(other.statusCode).toBe(409);
    const rows = await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM quotes WHERE quantum = ${7 * LAKH}`);
    expect(rows[0]!.n).toBe('1');
  });

  it('lists public runs with pagination, search and my_quotes; anonymous to other firms; empty without trade access', async () => {
    const mine = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.075 });
    const market = json<List>(await get('second', '/api/trade/d/market/'));
    expect(market.page_size).toBe(20);
    const seen = market.results.find((q) => q.id === mine.id);
    expect(seen).toMatchObject({ is_mine: false, client_name: null, counterparties: null });
    const search = json<List>(await get('second', `/api/trade/d/market/?search=${HDFC_NCD}`));
    expect(search.results.map((q) => q.id)).toEqual([mine.id]);
    const my = json<List>(await get('second', '/api/trade/d/market/?my_quotes=true'));
    expect(my.results.every((q) => q.is_mine)).toBe(true);
    const viewer = json<List>(await get('viewer', '/api/trade/d/market/'));
    expect(viewer.results).toEqual([]);
    expect(viewer.restriction_text).toContain('09:00–17:00 IST');
    expect((await get('demo', '/api/trade/d/market/?page_size=1000')).statusCode).toBe(400);
    const timings = json<{ sessions: unknown[]; t0_cutoff: string; timezone: string }>(await get('viewer', '/api/trade/timings'));
    expect(timings.sessions).toHaveLength(5);
    expect(timings.timezone).toBe('Asia/Kolkata');
  });

  it('shows private runs only to their recipients', async () => {
    const run = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.0761, counterparties: [clientIds.second] });
    expect(run.private).toBe(true);
    expect(json<List>(await get('second', '/api/eoi/private-run/')).results.find((q) => q.id === run.id)).toMatchObject({
      client_name: 'Demo Capital',
    });
    expect(json<List>(await get('demo', '/api/eoi/private-run/')).results.map((q) => q.id)).toContain(run.id);
    expect(json<List>(await get('basic', '/api/eoi/private-run/')).results.map((q) => q.id)).not.toContain(run.id);
    expect(json<List>(await get('basic', '/api/trade/d/market/?page_size=100')).results.map((q) => q.id)).not.toContain(run.id);
    expect((await get('basic', `/api/trade/eoi/${run.id}/`)).statusCode).toBe(404);
    expect((await post('basic', '/api/eoi/add-negotiation/', { quote_id: run.id, yield_stored: 0.077 })).statusCode).toBe(404);
  });

  it('never lets another firm close, expire or change a quote (404), and closes/expires/updates/replaces own quotes', async () => {
    const q = await quote('demo', { yield_stored: 0.0699 });
    expect((await put('second', `/api/trade/d/eoi/${q.id}/close/`)).statusCode).toBe(404);
    expect((await put('second', '/api/trade/d/eoi/close/', { ids: [q.id] })).statusCode).toBe(404);
    expect((await post('second', `/api/eoi/expire/${q.id}/`, {})).statusCode).toBe(404);
    expect((await put('second', `/api/eoi/update/${q.id}/`, { quantum: LAKH })).statusCode).toBe(404);
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${q.id}/`)).status).toBe('open');

    const updated = json<Quote>(await put('demo', `/api/eoi/update/${q.id}/`, { yield_stored: 0.0705, quantum: 50 * LAKH }));
    expect(updated).toMatchObject({ yield_stored: 0.0705, quantum: 50 * LAKH });
    expect(updated.unit_price_stored).toBeLessThan(q.unit_price_stored);

    const replacement = await quote('demo', { yield_stored: 0.071, replaces: q.id });
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${q.id}/`))).toMatchObject({ status: 'replaced', replaced_by: replacement.id });

    const closed = json<Quote>(await put('demo', `/api/trade/d/eoi/${replacement.id}/close/`));
    expect(closed.status).toBe('closed');
    expect((await put('demo', `/api/trade/d/eoi/${replacement.id}/close/`)).statusCode).toBe(409);
    const [a, b] = [await quote('demo', { yield_stored: 0.0691 }), await quote('demo', { yield_stored: 0.0692 })];
    const many = json<{ closed: Quote[] }>(await put('demo', '/api/trade/d/eoi/close/', { ids: [a.id, b.id] }));
    expect(many.closed.map((x) => x.status)).toEqual(['closed', 'closed']);
    const e = await quote('demo', { yield_stored: 0.0693 });
    expect(json<Quote>(await post('demo', `/api/eoi/expire/${e.id}/`, {})).status).toBe('expired');
  });

  it('expires quotes automatically at the end of their validity', async () => {
    const q = await quote('demo', { validity: 1, yield_stored: 0.0694 });
    t.advanceClock(2 * 60_000);
    expect(await t.app.market.expireDue()).toBeGreaterThanOrEqual(1);
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${q.id}/`)).status).toBe('expired');
    const audit = await t.database.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity_id = $1 ORDER BY id`, [q.id]);
    expect(audit.map((r) => r.action)).toEqual(['quote.created', 'quote.expired']);
  });

  it('negotiates with a counter history and turns an accepted counter into a deal', async () => {
    const bid = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.078, quantum: 10 * LAKH });
    const c1 = await post('second', '/api/eoi/add-negotiation/', { quote_id: bid.id, yield_stored: 0.0775 });
    expect(c1.statusCode, c1.body).toBe(200);
    const n = json<{
      id: string;
      status: string;
      role: string;
      history: Array<{ by_client: string; yield_stored: number; unit_price_stored: number; quantum: number }>;
    }>(c1);
    expect(n).toMatchObject({ status: 'open', role: 'responder' });
    expect(n.history[0]).toMatchObject({ by_client: 'responder', yield_stored: 0.0775, quantum: 10 * LAKH });
    // The responder cannot accept its own counter; an outsider cannot see the thread.
    expect(
      (await post('second', '/api/eoi/add-negotiation/', { quote_id: bid.id, negotiation_id: n.id, action: 'accept' })).statusCode,
    ).toBe(400);
    expect(
      (await post('basic', '/api/eoi/add-negotiation/', { quote_id: bid.id, negotiation_id: n.id, action: 'accept' })).statusCode,
    ).toBe(404);
    const c2 = json<typeof n>(
      await post('demo', '/api/eoi/add-negotiation/', { quote_id: bid.id, negotiation_id: n.id, yield_stored: 0.0778, quantum: 6 * LAKH }),
    );
    expect(c2.history.map((h) => h.by_client)).toEqual(['responder', 'quoter']);
    const accepted = await post('second', '/api/eoi/add-negotiation/', { quote_id: bid.id, negotiation_id: n.id, action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const done = json<{
      status: string;
      deal: {
        side: string;
        price: number;
        yield: number;
        quantum: number;
        consideration: number;
        buyer_name: string;
        seller_name: string;
        settlement_date: string;
      };
    }>(accepted);
    expect(done.status).toBe('accepted');
    expect(done.deal).toMatchObject({
      side: 'sell',
      yield: 0.0778,
      quantum: 6 * LAKH,
      buyer_name: 'Demo Capital',
      seller_name: 'Second Bank',
      price: c2.history[1]!.unit_price_stored,
    });
    expect(done.deal.consideration).toBeGreaterThan(0);
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${bid.id}/`)).remaining_quantum).toBe(4 * LAKH);
  });

  it('matches crossing interest of different firms into clusters (price/time priority, partial fills) and makes a deal when both accept', async () => {
    const bond = hdfc;
    // Demo bids for 100 at 7.00 %; Demo's own ask never matches it; Second asks 60 at a lower price (higher yield): it crosses.
    const bid = await quote('demo', { finstrument_id: bond, yield_stored: 0.07, quantum: 100 * LAKH, settlement_delta: 1 });
    const own = await quote('demo', {
      finstrument_id: bond,
      quote_type: 'ASK',
      yield_stored: 0.069,
      quantum: 10 * LAKH,
      settlement_delta: 1,
    });
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${own.id}/`)).remaining_quantum).toBe(10 * LAKH);
    const ask = await quote('second', {
      finstrument_id: bond,
      quote_type: 'ASK',
      yield_stored: 0.0705,
      quantum: 60 * LAKH,
      settlement_delta: 1,
    });
    expect(ask.remaining_quantum).toBe(0);
    const clusters = json<{ results: Cluster[] }>(await get('second', '/api/trade/cluster/?status=proposed')).results;
    const cluster = clusters.find((c) => c.my_leg_id === ask.id)!;
    expect(cluster).toMatchObject({ my_side: 'ASK', quantum: 60 * LAKH, price: bid.unit_price_stored, status: 'proposed' });
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${bid.id}/`)).remaining_quantum).toBe(40 * LAKH);
    expect(json<{ results: Cluster[] }>(await get('basic', '/api/trade/cluster/')).results).toEqual([]);
    expect((await get('basic', `/api/trade/cluster/${cluster.id}/`)).statusCode).toBe(404);
    expect((await post('basic', `/api/cluster/${cluster.id}/accept/`, {})).statusCode).toBe(404);
    const priced = json<{ consideration: number; yield: number }>(
      await get('demo', `/api/cluster/${cluster.id}/?price=${bid.unit_price_stored}`),
    );
    expect(priced.consideration).toBeGreaterThan(0);
    expect(priced.yield).toBeCloseTo(0.07, 6);

    const half = json<Cluster>(await post('demo', `/api/cluster/${cluster.id}/accept/?lsId=${bid.id}`, {}));
    expect(half).toMatchObject({ status: 'proposed', bid_accepted: true, ask_accepted: false });
    expect((await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${bid.id}`, {})).statusCode).toBe(400);
    const both = json<Cluster>(await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${ask.id}`, {}));
    expect(both.status).toBe('accepted');
    expect(both.deal).toMatchObject({
      side: 'sell',
      quantum: 60 * LAKH,
      price: bid.unit_price_stored,
      buyer_name: 'Demo Capital',
      seller_name: 'Second Bank',
    });
    expect(json<Quote>(await get('second', `/api/trade/eoi/${ask.id}/`)).status).toBe('filled');

    // Closing a proposed cluster gives its quantum back to both quotes.
    const ask2 = await quote('second', {
      finstrument_id: bond,
      quote_type: 'ASK',
      yield_stored: 0.0702,
      quantum: 15 * LAKH,
      settlement_delta: 1,
    });
    const c2 = json<{ results: Cluster[] }>(await get('second', '/api/trade/cluster/?status=proposed')).results.find(
      (c) => c.my_leg_id === ask2.id,
    )!;
    expect(c2.quantum).toBe(15 * LAKH);
    expect(json<Cluster>(await put('demo', `/api/trade/cluster/${c2.id}/`, { status: 'closed' })).status).toBe('closed');
    expect(json<Quote>(await get('second', `/api/trade/eoi/${ask2.id}/`)).remaining_quantum).toBe(15 * LAKH);
    expect(json<Quote>(await get('demo', `/api/trade/eoi/${bid.id}/`)).remaining_quantum).toBe(40 * LAKH);
  });

  it('delivers public runs to trading users, private runs to recipients only, over real sockets', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws/trade/d/`;
    const open = (token: string) =>
      new Promise<{ socket: WebSocket; events: Array<{ topic: string; payload: { quote_id?: string } }> }>((resolve, reject) => {
        const socket = new WebSocket(url);
        const events: Array<{ topic: string; payload: { quote_id?: string } }> = [];
        socket.on('message', (raw) => {
          const m = JSON.parse(raw.toString()) as { type: string; topic: string; payload: { quote_id?: string } };
          if (m.type === 'auth_ok') resolve({ socket, events });
          if (m.type === 'event') events.push(m);
        });
        socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
        socket.on('error', reject);
      });
    const second = await open(tok.second!);
    const basic = await open(tok.basic!);
    const viewer = await open(tok.viewer!);
    const pub = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.0811 });
    const priv = await quote('demo', { finstrument_id: hdfc, yield_stored: 0.0812, counterparties: [clientIds.second] });
    const waitFor = async (events: Array<{ topic: string; payload: { quote_id?: string } }>, id: string) => {
      for (let i = 0; i < 100 && !events.some((e) => e.payload.quote_id === id); i++) await new Promise((r) => setTimeout(r, 20));
      return events.filter((e) => e.payload.quote_id === id);
    };
    expect((await waitFor(second.events, pub.id)).map((e) => e.topic)).toEqual(['market.public_run']);
    expect((await waitFor(second.events, priv.id)).map((e) => e.topic)).toEqual(['market.private_run']);
    expect((await waitFor(basic.events, pub.id)).length).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(basic.events.some((e) => e.payload.quote_id === priv.id)).toBe(false);
    expect(viewer.events.some((e) => e.topic.startsWith('market.'))).toBe(false);
    for (const c of [second, basic, viewer]) c.socket.close();
  });
});
