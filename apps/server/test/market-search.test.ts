/**
 * Issue 12 §5 fix 1, the market lists: every list's `search` is the bond search of the header and /find (one
 * token index), not a name/ISIN substring. Public runs (`GET api/trade/d/market/`), private runs
 * (`GET api/eoi/private-run/`), exchange RFQs (`GET api/eoi/rfq-quote/`), instruments in the market
 * (`GET api/trade/finstrument/`) and the firm's own quotes (`GET api/trade/eoi/`): the issue's "hdfc 2030",
 * "7.18 GS 2033" and "HDFC 2033" (none of them a substring of a bond name) find the quotes on the bonds the
 * header search finds, each list keeps its own order (newest or most quoted first), a query matching no bond
 * gives an empty list, and LIKE wildcards match nothing by themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  DRIVERS,
  exchangeRfqBody,
  json,
  login,
  startRedisCluster,
  type RedisCluster,
  type TestApp,
} from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const BONDS = {
  hdfc2030: 'INE040A08690', // HDFC Bank Limited 7.40% NCD 28-Feb-2030
  hdfc2033: 'INE040A08666', // HDFC Bank Limited 7.80% NCD 03-May-2033
  hdfc2028: 'INE040A08955', // HDFC Bank Limited 7.70% NCD 16-May-2028: HDFC, neither year
  gs718: 'IN0020230085', // 7.18% GS 2033
  gs726: 'IN0020220151', // 7.26% GS 2033: a G-sec of 2033 with another coupon
} as const;
type Bond = keyof typeof BONDS;
const QUERIES: Array<{ q: string; bonds: Bond[] }> = [
  { q: 'hdfc 2030', bonds: ['hdfc2030'] },
  { q: '7.18 GS 2033', bonds: ['gs718'] },
  { q: 'HDFC 2033', bonds: ['hdfc2033'] },
];

type Quote = { id: string; finstrument_id: number; created_at: string };
type List<T> = { count: number; page: number; page_size: number; results: T[] };
type Instrument = { finstrument_id: number; bid_count: number };

describe.each(DRIVERS)("market lists' search is the bond search (%s)", (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let secondClientId: string;
  const id: Record<Bond, number> = { hdfc2030: 0, hdfc2033: 0, hdfc2028: 0, gs718: 0, gs726: 0 };
  /** Demo's quotes of each kind, oldest first, with their bond. */
  const made: Record<'public' | 'private' | 'rfq', Array<{ id: string; bond: Bond }>> = { public: [], private: [], rfq: [] };

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const list = async <T = Quote>(who: string, path: string, search: string, extra = '') => {
    const response = await get(who, `${path}?search=${encodeURIComponent(search)}${extra}`);
    expect(response.statusCode, `${path} ${search}: ${response.body}`).toBe(200);
    return json<List<T>>(response);
  };
  const quote = async (kind: 'public' | 'private' | 'rfq', bond: Bond, yieldStored: number) => {
    const body =
      kind === 'rfq'
        ? exchangeRfqBody(id[bond], { quantum: 10 * LAKH, yield_stored: yieldStored })
        : {
            quantum: 10 * LAKH,
            finstrument_id: id[bond],
            yield_stored: yieldStored,
            ...(kind === 'private' ? { counterparties: [secondClientId] } : {}),
          };
    const response = await t.app.inject({ method: 'POST', url: '/api/trade/eoi/', payload: body, headers: bearer(tok.demo!) });
    expect(response.statusCode, `${kind} ${bond}: ${response.body}`).toBe(201);
    made[kind].push({ id: json<Quote>(response).id, bond });
  };
  /** The ids of Demo's quotes of `kind` on `bonds`, newest first (the lists' own order). */
  const expected = (kind: 'public' | 'private' | 'rfq', bonds: readonly Bond[]) =>
    made[kind]
      .filter((q) => bonds.includes(q.bond))
      .map((q) => q.id)
      .toReversed();

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart' }))
      tok[name] = (await login(t.app, email)).access;
    secondClientId = json<{ client_id: string }>(await get('second', '/api/session/')).client_id;
    for (const bond of Object.keys(BONDS) as Bond[])
      id[bond] = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${BONDS[bond]}/` })).id;
    // Bids only (they never cross), two on the HDFC 2030 NCD so the order within a bond shows.
    for (const kind of ['public', 'private', 'rfq'] as const)
      for (const [bond, y] of [
        ['hdfc2030', 0.079],
        ['gs718', 0.0701],
        ['hdfc2028', 0.0781],
        ['hdfc2033', 0.0782],
        ['gs726', 0.0702],
        ['hdfc2030', 0.0791],
      ] as const)
        await quote(kind, bond, y);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the header search finds exactly the bonds each query stands for here', async () => {
    for (const { q, bonds } of QUERIES) {
      const response = await t.app.inject({ method: 'GET', url: `/api/finstruments/search/?searchKey=${encodeURIComponent(q)}&limit=50` });
      const found = json<{ finstruments: Array<{ id: number }> }>(response).finstruments.map((f) => f.id);
      for (const bond of Object.keys(BONDS) as Bond[]) expect(found.includes(id[bond]), `${q}: ${bond}`).toBe(bonds.includes(bond));
    }
  });

  it('public runs: the quotes on the matching bonds, newest first', async () => {
    for (const { q, bonds } of QUERIES) {
      const page = await list('second', '/api/trade/d/market/', q);
      expect(
        page.results.map((r) => r.id),
        q,
      ).toEqual(expected('public', bonds));
      expect(page.count, q).toBe(expected('public', bonds).length);
    }
    // A broader query keeps the list's own order across bonds (newest first), not the search rank.
    expect((await list('second', '/api/trade/d/market/', 'hdfc')).results.map((r) => r.id)).toEqual(
      expected('public', ['hdfc2030', 'hdfc2033', 'hdfc2028']),
    );
    // Demo's own quotes (my_quotes: every kind, not the shared cache; made public, private, then RFQ) filter the same way.
    const own = [...made.public, ...made.private, ...made.rfq].filter((m) => m.bond === 'hdfc2030').map((m) => m.id);
    expect((await list('demo', '/api/trade/d/market/', 'hdfc 2030', '&my_quotes=true')).results.map((r) => r.id)).toEqual(own.toReversed());
    // The ISIN still finds its bond (the header search's exact ISIN), and the filters combine.
    expect((await list('second', '/api/trade/d/market/', BONDS.gs718.toLowerCase())).results.map((r) => r.id)).toEqual(
      expected('public', ['gs718']),
    );
    expect((await list('second', '/api/trade/d/market/', 'hdfc 2030', `&finstrument_id=${id.gs718}`)).count).toBe(0);
  });

  it('private runs: the quotes on the matching bonds, for the recipient and the sender', async () => {
    for (const { q, bonds } of QUERIES) {
      expect(
        (await list('second', '/api/eoi/private-run/', q)).results.map((r) => r.id),
        q,
      ).toEqual(expected('private', bonds));
      expect(
        (await list('demo', '/api/eoi/private-run/', q, '&my_quotes=true')).results.map((r) => r.id),
        q,
      ).toEqual(expected('private', bonds));
    }
  });

  it('exchange RFQs: the quotes on the matching bonds, for a firm enabled on the exchange and the sender', async () => {
    for (const { q, bonds } of QUERIES) {
      const page = await list('second', '/api/eoi/rfq-quote/', q);
      expect(
        page.results.map((r) => r.id),
        q,
      ).toEqual(expected('rfq', bonds));
      expect(page.count, q).toBe(expected('rfq', bonds).length);
      expect(
        (await list('demo', '/api/eoi/rfq-quote/', q, '&my_quotes=true&paginate=false')).results.map((r) => r.id),
        q,
      ).toEqual(expected('rfq', bonds));
    }
  });

  it('instruments in the market: the matching bonds with public interest', async () => {
    for (const { q, bonds } of QUERIES) {
      const page = await list<Instrument>('second', '/api/trade/finstrument/', q);
      expect(
        page.results.map((r) => r.finstrument_id),
        q,
      ).toEqual(bonds.map((b) => id[b]));
      expect(page.count, q).toBe(bonds.length);
      // Public interest only: the private runs and RFQs on the same bonds are not counted.
      expect(
        page.results.map((r) => r.bid_count),
        q,
      ).toEqual(bonds.map((b) => expected('public', [b]).length));
    }
    // Most quoted first: the HDFC 2030 NCD (two bids) before the other HDFC bonds (one each).
    expect((await list<Instrument>('second', '/api/trade/finstrument/', 'hdfc')).results[0]!.finstrument_id).toBe(id.hdfc2030);
  });

  it("the firm's own quotes: every kind on the matching bonds, newest first", async () => {
    const all = [...made.public, ...made.private, ...made.rfq];
    for (const { q, bonds } of QUERIES) {
      const page = await list('demo', '/api/trade/eoi/', q, '&page_size=100');
      expect(page.results.map((r) => r.id).toSorted(), q).toEqual(
        all
          .filter((m) => bonds.includes(m.bond))
          .map((m) => m.id)
          .toSorted(),
      );
      const created = page.results.map((r) => r.created_at);
      expect(created, q).toEqual(created.toSorted().toReversed());
    }
  });

  it('a query matching no bond, or only LIKE wildcards, gives every list an empty page', async () => {
    const lists: Array<[string, string, string]> = [
      ['second', '/api/trade/d/market/', ''],
      ['demo', '/api/trade/d/market/', '&my_quotes=true'],
      ['second', '/api/eoi/private-run/', ''],
      ['second', '/api/eoi/rfq-quote/', ''],
      ['second', '/api/trade/finstrument/', ''],
      ['demo', '/api/trade/eoi/', ''],
    ];
    for (const [who, path, extra] of lists) {
      // The same lists without a search are not empty, so an empty page below is the search's doing.
      const unfiltered = await get(who, `${path}${extra ? `?${extra.slice(1)}` : ''}`);
      expect(json<List<unknown>>(unfiltered).count, path).toBeGreaterThan(0);
      for (const q of ['zzqx nothing', 'hdfc 2031 7.18', '%', '%%_', '_']) {
        const page = await list<unknown>(who, path, q, extra);
        expect({ path, q, count: page.count, results: page.results }).toEqual({ path, q, count: 0, results: [] });
      }
    }
    // A wildcard beside a real token is punctuation: "7.18%" is the coupon 7.18.
    expect((await list('second', '/api/trade/d/market/', '7.18%')).results.map((r) => r.id)).toEqual(expected('public', ['gs718']));
  });

  it('the cached public runs: a query in another case or spacing gives the same page, and a new quote shows at once', async () => {
    const before = (await list('second', '/api/trade/d/market/', 'hdfc 2030')).results.map((r) => r.id);
    expect((await list('second', '/api/trade/d/market/', '  HDFC   2030 ')).results.map((r) => r.id)).toEqual(before);
    await quote('public', 'hdfc2030', 0.0792);
    const after = await list('second', '/api/trade/d/market/', 'Hdfc 2030');
    expect(after.results.map((r) => r.id)).toEqual([made.public.at(-1)!.id, ...before]);
    expect((await list<Instrument>('second', '/api/trade/finstrument/', 'HDFC 2030')).results[0]!.bid_count).toBe(3);
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)("market lists' search on two nodes", () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it("a quote made on one node is in the other's searched (and cached) lists at once, and both nodes agree", async () => {
    const [a, b] = cluster.nodes as [(typeof cluster.nodes)[number], (typeof cluster.nodes)[number]];
    const demo = (await login(a, 'dealer@demo.dart')).access;
    const second = (await login(b, 'dealer@second.dart')).access;
    const bond = async (isin: string) => json<{ id: number }>(await a.inject({ method: 'GET', url: `/api/finstrument/${isin}/` })).id;
    const [hdfc2030, gs718] = [await bond(BONDS.hdfc2030), await bond(BONDS.gs718)];
    const runs = async (node: typeof a, q: string) => {
      const response = await node.inject({
        method: 'GET',
        url: `/api/trade/d/market/?search=${encodeURIComponent(q)}`,
        headers: bearer(second),
      });
      expect(response.statusCode, response.body).toBe(200);
      return json<List<Quote>>(response).results.map((r) => r.id);
    };
    // Node B reads (and caches) the searched page first; each quote made on node A shows there at once.
    const made: string[] = [];
    for (const [finstrumentId, q] of [
      [hdfc2030, 'hdfc 2030'],
      [gs718, '7.18 GS 2033'],
      [hdfc2030, 'HDFC 2030'],
    ] as const) {
      const before = await runs(b, q);
      const created = await a.inject({
        method: 'POST',
        url: '/api/trade/eoi/',
        payload: { quantum: 10 * LAKH, finstrument_id: finstrumentId, yield_stored: 0.0795 + made.length / 10_000 },
        headers: bearer(demo),
      });
      expect(created.statusCode, created.body).toBe(201);
      made.push(json<Quote>(created).id);
      expect(await runs(b, q), q).toEqual([made.at(-1), ...before]);
    }
    for (const q of ['hdfc 2030', '7.18 GS 2033', 'HDFC 2033', 'zzqx nothing']) expect(await runs(a, q), q).toEqual(await runs(b, q));
    expect(await runs(b, 'hdfc 2030')).toEqual([made[2], made[0]]);
    expect(await runs(b, 'HDFC 2033')).toEqual([]);
  });
});
