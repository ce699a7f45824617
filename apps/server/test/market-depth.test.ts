/**
 * Issue 5 ("Market"): market depth per bond (`GET api/quote/depth/`, Premium) and the instruments in
 * the market (`GET api/trade/finstrument/`) through the HTTP API: levels summed by price and yield,
 * best first, no firm anywhere; private runs and closed quotes left out; BASIC → 402; no trade access →
 * empty with the restriction text; bad queries → 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
const HDFC_NCD = 'INE040A08955';

type Level = { price: number; yield: number; quantum: number; count: number };
type Depth = {
  finstrument_id: number;
  isin: string;
  bids: Level[];
  asks: Level[];
  bid_quantum: number;
  ask_quantum: number;
  bid_count: number;
  ask_count: number;
  restriction_text: string | null;
};
type Instrument = {
  finstrument_id: number;
  isin: string;
  display_name: string;
  best_bid: { price: number; yield: number; quantum: number } | null;
  best_ask: { price: number; yield: number; quantum: number } | null;
  bid_count: number;
  ask_count: number;
  bid_quantum: number;
  ask_quantum: number;
};
type Instruments = { count: number; page: number; page_size: number; results: Instrument[]; restriction_text: string | null };

describe.each(DRIVERS)('market depth and instruments in the market (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const clientIds: Record<string, string> = {};
  let gsec: number;
  let hdfc: number;
  let closedId: string;

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const quote = async (who: string, body: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      payload: { quantum: 100 * LAKH, finstrument_id: gsec, settlement_delta: 1, ...body },
      headers: bearer(tok[who]!),
    });
    if (response.statusCode !== 201) throw new Error(`setup quote failed: ${response.body}`);
    return json<{ id: string; unit_price_stored: number; yield_stored: number }>(response);
  };

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const who = {
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      basic: 'basic@small.dart',
      broker: 'broker@brokers.dart',
      viewer: 'viewer@demo.dart',
      opsadmin: 'opsadmin@demo.dart',
    };
    for (const [name, email] of Object.entries(who)) {
      tok[name] = (await login(t.app, email)).access;
      clientIds[name] = json<{ client_id: string }>(await get(name, '/api/session/')).client_id;
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
    // Bids (lower prices) never cross the asks (higher prices): nothing is matched away.
    await quote('demo', { yield_stored: 0.072, quantum: 100 * LAKH });
    await quote('second', { yield_stored: 0.072, quantum: 50 * LAKH });
    await quote('broker', { yield_stored: 0.073, quantum: 30 * LAKH });
    await quote('second', { quote_type: 'ASK', yield_stored: 0.068, quantum: 40 * LAKH });
    await quote('demo', { quote_type: 'ASK', yield_stored: 0.067, quantum: 25 * LAKH });
    // Left out of depth: a private run, and a closed quote.
    await quote('demo', { yield_stored: 0.0715, quantum: 999 * LAKH, counterparties: [clientIds.second] });
    closedId = (await quote('broker', { yield_stored: 0.0716, quantum: 777 * LAKH })).id;
    const closed = await t.app.inject({
      method: 'PUT',
      url: `/api/trade/d/eoi/${closedId}/close/`,
      payload: {},
      headers: bearer(tok.broker!),
    });
    if (closed.statusCode !== 200) throw new Error(closed.body);
    await quote('second', { finstrument_id: hdfc, yield_stored: 0.08, quantum: 10 * LAKH });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('sums open public interest by price and yield, best first, with totals', async () => {
    const response = await get('demo', `/api/quote/depth/?finstrument_id=${gsec}`);
    expect(response.statusCode, response.body).toBe(200);
    const depth = json<Depth>(response);
    expect(depth).toMatchObject({ finstrument_id: gsec, isin: GSEC_2033, restriction_text: null });
    expect(depth.bids.map((l) => [l.yield, l.quantum, l.count])).toEqual([
      [0.072, 150 * LAKH, 2],
      [0.073, 30 * LAKH, 1],
    ]);
    expect(depth.asks.map((l) => [l.yield, l.quantum, l.count])).toEqual([
      [0.068, 40 * LAKH, 1],
      [0.067, 25 * LAKH, 1],
    ]);
    // Best first: bids by falling price, asks by rising price; the book does not cross.
    expect(depth.bids[0]!.price).toBeGreaterThan(depth.bids[1]!.price);
    expect(depth.asks[0]!.price).toBeLessThan(depth.asks[1]!.price);
    expect(depth.bids[0]!.price).toBeLessThan(depth.asks[0]!.price);
    expect(depth).toMatchObject({ bid_quantum: 180 * LAKH, ask_quantum: 65 * LAKH, bid_count: 3, ask_count: 2 });
  });

  it('names no firm and shows the same levels to every premium trader (anonymity as public runs)', async () => {
    const mine = await get('demo', `/api/quote/depth/?finstrument_id=${gsec}`);
    const theirs = await get('broker', `/api/quote/depth/?finstrument_id=${gsec}`);
    expect(theirs.json()).toEqual(mine.json());
    for (const id of Object.values(clientIds)) expect(mine.body).not.toContain(id);
    expect(mine.body).not.toMatch(/Demo Capital|Second Bank|Demo Brokers|client/i);
  });

  it('limits the levels and filters by settlement date', async () => {
    const one = json<Depth>(await get('demo', `/api/quote/depth/?finstrument_id=${gsec}&levels=1`));
    expect(one.bids).toHaveLength(1);
    expect(one.asks).toHaveLength(1);
    expect(one.bid_quantum).toBe(180 * LAKH);
    const none = json<Depth>(await get('demo', `/api/quote/depth/?finstrument_id=${gsec}&settlement_date=2099-01-01`));
    expect(none).toMatchObject({ bids: [], asks: [], bid_quantum: 0, ask_count: 0 });
  });

  it('refuses BASIC clients with 402 and gives users without trade access empty levels and the restriction text', async () => {
    const basic = await get('basic', `/api/quote/depth/?finstrument_id=${gsec}`);
    expect(basic.statusCode).toBe(402);
    expect(json(basic).code).toBe('PREMIUM_REQUIRED');
    for (const who of ['viewer', 'opsadmin']) {
      const response = await get(who, `/api/quote/depth/?finstrument_id=${gsec}`);
      expect(response.statusCode).toBe(200);
      const depth = json<Depth>(response);
      expect(depth).toMatchObject({ bids: [], asks: [], bid_count: 0, ask_count: 0 });
      expect(depth.restriction_text).toMatch(/trade access/);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/quote/depth/?finstrument_id=${gsec}` })).statusCode).toBe(401);
  });

  it('answers bad queries with 400 and an unknown bond with 404', async () => {
    const missing = await get('demo', '/api/quote/depth/');
    expect(missing.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(missing).errors.finstrument_id).toBeDefined();
    expect((await get('demo', '/api/quote/depth/?finstrument_id=abc')).statusCode).toBe(400);
    expect((await get('demo', `/api/quote/depth/?finstrument_id=${gsec}&levels=51`)).statusCode).toBe(400);
    expect((await get('demo', `/api/quote/depth/?finstrument_id=${gsec}&who=me`)).statusCode).toBe(400);
    expect((await get('demo', '/api/quote/depth/?finstrument_id=99999999')).statusCode).toBe(404);
  });

  it('lists the bonds with open public quotes, most quoted first, with best bid and ask', async () => {
    const response = await get('second', '/api/trade/finstrument/');
    expect(response.statusCode, response.body).toBe(200);
    const list = json<Instruments>(response);
    expect(list).toMatchObject({ count: 2, page: 1, page_size: 20, restriction_text: null });
    expect(list.results.map((r) => r.isin)).toEqual([GSEC_2033, HDFC_NCD]);
    const g = list.results[0]!;
    expect(g).toMatchObject({ finstrument_id: gsec, bid_count: 3, ask_count: 2, bid_quantum: 180 * LAKH, ask_quantum: 65 * LAKH });
    // The best bid is the oldest at the highest price (demo's 100); the best ask the lowest price.
    expect(g.best_bid).toMatchObject({ yield: 0.072, quantum: 100 * LAKH });
    expect(g.best_ask).toMatchObject({ yield: 0.068, quantum: 40 * LAKH });
    expect(list.results[1]).toMatchObject({ isin: HDFC_NCD, bid_count: 1, ask_count: 0, best_ask: null });
    expect(response.body).not.toMatch(/Demo Capital|Second Bank|Demo Brokers/);
  });

  it('searches and pages the instruments, and refuses other types', async () => {
    const search = json<Instruments>(await get('demo', `/api/trade/finstrument/?search=${HDFC_NCD.slice(0, 8).toLowerCase()}`));
    expect(search.results.map((r) => r.isin)).toEqual([HDFC_NCD]);
    const paged = json<Instruments>(await get('demo', '/api/trade/finstrument/?page=2&page_size=1&type=Bond'));
    expect(paged).toMatchObject({ count: 2, page: 2, page_size: 1 });
    expect(paged.results.map((r) => r.isin)).toEqual([HDFC_NCD]);
    expect((await get('demo', '/api/trade/finstrument/?type=Stock')).statusCode).toBe(400);
    expect((await get('demo', '/api/trade/finstrument/?page_size=101')).statusCode).toBe(400);
    const restricted = json<Instruments>(await get('opsadmin', '/api/trade/finstrument/'));
    expect(restricted).toMatchObject({ count: 0, results: [] });
    expect(restricted.restriction_text).toMatch(/trade access/);
    // BASIC clients trade too (instruments are not Premium).
    expect(json<Instruments>(await get('basic', '/api/trade/finstrument/')).count).toBe(2);
  });

  it('never serves a stale depth or list: a change shows at once, an expiry as soon as it is due', async () => {
    const before = json<Depth>(await get('demo', `/api/quote/depth/?finstrument_id=${hdfc}`));
    expect(before.bid_count).toBe(1);
    await quote('broker', { finstrument_id: hdfc, yield_stored: 0.081, quantum: 5 * LAKH, validity: 1 });
    const after = json<Depth>(await get('demo', `/api/quote/depth/?finstrument_id=${hdfc}`));
    expect(after).toMatchObject({ bid_count: 2, bid_quantum: 15 * LAKH });
    expect(json<Instruments>(await get('demo', `/api/trade/finstrument/?search=${HDFC_NCD}`)).results[0]).toMatchObject({ bid_count: 2 });
    t.advanceClock(2 * 60_000);
    expect(json<Depth>(await get('demo', `/api/quote/depth/?finstrument_id=${hdfc}`))).toMatchObject({
      bid_count: 1,
      bid_quantum: 10 * LAKH,
    });
    expect(json<Instruments>(await get('demo', `/api/trade/finstrument/?search=${HDFC_NCD}`)).results[0]).toMatchObject({ bid_count: 1 });
  });
});
