/**
 * Issue 12 §1 "Size is face value" through the HTTP API: `quantum` is face value in rupees, a whole
 * number of bonds (₹100 a G-sec bond, the bond's own face value for an NCD); a size that is not is
 * refused with a field error on `quantum` (400, never 500) on create, update, negotiation and upload;
 * responses carry `face_value_per_bond`; a deal's consideration is priced for the bonds in the size;
 * and migration 0013 turns stored sizes in bonds into face value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151';
/** Face value ₹1 L per bond (the importer's market-standard NCD face value: the data leaves it blank). */
const HDFC_NCD = 'INE040A08955';
const CRORE = 10_000_000;
const LAKH = 100_000;
const WHOLE_NCD = 'Must be a whole number of bonds (₹1 L each)';

type Quote = { id: string; quantum: number; remaining_quantum: number; face_value_per_bond?: number; unit_price_stored: number };
type Cluster = { id: string; my_leg_id: string; quantum: number; face_value_per_bond?: number; status: string; deal: Deal | null };
type Deal = {
  quantum: number;
  face_value_per_bond?: number;
  consideration: number;
  consideration_details: { quantity: number; face_amount: number } | null;
};
type ErrorBody = { code: string; errors?: Record<string, string[]> };

describe.each(DRIVERS)('market sizes are face value (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let gsec: number;
  let hdfc: number;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    tok.demo = (await login(t.app, 'dealer@demo.dart')).access;
    tok.second = (await login(t.app, 'dealer@second.dart')).access;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const put = (who: string, url: string, payload: object) => t.app.inject({ method: 'PUT', url, payload, headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const quote = async (who: string, body: object) => {
    const response = await post(who, '/api/trade/eoi/', { finstrument_id: gsec, yield_stored: 0.07, settlement_delta: 1, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };

  it('[FV1] takes a ₹5 Cr G-sec quote as 5,00,000 bonds of ₹100 and shows the bond size to the other firm', async () => {
    const mine = await quote('demo', { quantum: 5 * CRORE });
    expect(mine).toMatchObject({ quantum: 5 * CRORE, remaining_quantum: 5 * CRORE, face_value_per_bond: 100 });
    const seen = json<{ results: Quote[] }>(await get('second', `/api/trade/d/market/?search=${GSEC_2033}`)).results.find(
      (q) => q.id === mine.id,
    );
    expect(seen).toMatchObject({ quantum: 5 * CRORE, face_value_per_bond: 100 });
    const ncd = await quote('demo', { finstrument_id: hdfc, quantum: 2 * CRORE, yield_stored: 0.078 });
    expect(ncd.face_value_per_bond).toBe(LAKH);
    const depth = json<{ face_value_per_bond: number; bid_quantum: number }>(
      await get('second', `/api/quote/depth/?finstrument_id=${hdfc}`),
    );
    expect(depth.face_value_per_bond).toBe(LAKH);
    expect(depth.bid_quantum).toBeGreaterThanOrEqual(2 * CRORE);
  });

  it('[FV2] refuses a size that is not a whole number of bonds with a field error on quantum (create, update, negotiation)', async () => {
    const refused = async (response: Awaited<ReturnType<typeof post>>, message: string) => {
      expect(response.statusCode, response.body).toBe(400);
      expect(json<ErrorBody>(response)).toMatchObject({ code: 'VALIDATION_FAILED', errors: { quantum: [message] } });
    };
    // ₹1.5 L of a ₹1 L NCD; ₹150 of a ₹100 G-sec.
    await refused(await post('demo', '/api/trade/eoi/', { finstrument_id: hdfc, quantum: 150_000, yield_stored: 0.078 }), WHOLE_NCD);
    await refused(
      await post('demo', '/api/trade/eoi/', { finstrument_id: gsec, quantum: 150, yield_stored: 0.07 }),
      'Must be a whole number of bonds (₹100 each)',
    );
    await refused(
      await post('demo', '/api/trade/eoi/', { finstrument_id: gsec, quantum: 100.5, yield_stored: 0.07 }),
      'Should be a whole number of rupees',
    );
    const ncd = await quote('demo', { finstrument_id: hdfc, quantum: 3 * LAKH, yield_stored: 0.078 });
    await refused(await put('demo', `/api/eoi/update/${ncd.id}/`, { quantum: 250_000 }), WHOLE_NCD);
    await refused(
      await post('second', '/api/eoi/add-negotiation/', { quote_id: ncd.id, yield_stored: 0.0775, quantum: 50_000 }),
      WHOLE_NCD,
    );
    // Whole bonds pass everywhere.
    expect((await put('demo', `/api/eoi/update/${ncd.id}/`, { quantum: 4 * LAKH })).statusCode).toBe(200);
    expect(
      (await post('second', '/api/eoi/add-negotiation/', { quote_id: ncd.id, yield_stored: 0.0775, quantum: 2 * LAKH })).statusCode,
    ).toBe(200);
    const rows = await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM quotes WHERE quantum IN (150000, 150, 250000)`);
    expect(rows[0]!.n).toBe('0');
  });

  it('[FV3] prices a deal for the bonds in the size: ₹1 Cr of a ₹1 L NCD is 100 bonds with ₹1 Cr face', async () => {
    const bid = await quote('demo', { finstrument_id: hdfc, quantum: 1 * CRORE, yield_stored: 0.07 });
    const ask = await quote('second', { finstrument_id: hdfc, quote_type: 'ASK', quantum: 1 * CRORE, yield_stored: 0.0705 });
    const cluster = json<{ results: Cluster[] }>(await get('second', '/api/trade/cluster/?status=proposed')).results.find(
      (c) => c.my_leg_id === ask.id,
    )!;
    expect(cluster).toMatchObject({ quantum: 1 * CRORE, face_value_per_bond: LAKH });
    expect((await post('demo', `/api/cluster/${cluster.id}/accept/?lsId=${bid.id}`, {})).statusCode).toBe(200);
    const accepted = json<Cluster>(await post('second', `/api/cluster/${cluster.id}/accept/?lsId=${ask.id}`, {}));
    expect(accepted.status).toBe('accepted');
    const deal = accepted.deal!;
    expect(deal).toMatchObject({ quantum: 1 * CRORE, face_value_per_bond: LAKH });
    expect(deal.consideration_details).toMatchObject({ quantity: 100, face_amount: 1 * CRORE });
    // Principal at a price near par plus accrued: about ₹1 Cr, not ₹1 Cr × ₹1 L.
    expect(deal.consideration).toBeGreaterThan(0.9 * CRORE);
    expect(deal.consideration).toBeLessThan(1.2 * CRORE);
  });

  it('[FV4] upload reads quantum as face value with lakh/crore shorthand and refuses part of a bond', async () => {
    const upload = (csv: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/eoi/upload/',
        payload: csv,
        headers: { 'content-type': 'text/csv', ...bearer(tok.demo!) },
      });
    const refused = await upload(`isin,quote_type,quantum,yield\n${HDFC_NCD},BID,1.5L,7.8\n${GSEC_2033},BID,5cr,7.1\n`);
    expect(refused.statusCode).toBe(400);
    expect(json<{ row_errors: unknown[] }>(refused).row_errors).toEqual([{ row: 2, field: 'quantum', message: WHOLE_NCD }]);
    const ok = await upload(`isin,quote_type,quantum,yield\n${HDFC_NCD},BID,50 L,7.8\n${GSEC_2033},BID,"5,00,00,000",7.1\n`);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(json<{ quotes: Quote[] }>(ok).quotes.map((q) => [q.quantum, q.face_value_per_bond])).toEqual([
      [50 * LAKH, LAKH],
      [5 * CRORE, 100],
    ]);
  });

  it('[FV5] migration 0013 turns stored sizes in bonds into face value, cut to 12 digits', async () => {
    const g = await quote('demo', { quantum: 7 * CRORE, yield_stored: 0.0711 });
    const n = await quote('demo', { finstrument_id: hdfc, quantum: 6 * LAKH, yield_stored: 0.0791 });
    const negotiated = await post('second', '/api/eoi/add-negotiation/', { quote_id: n.id, yield_stored: 0.079, quantum: 3 * LAKH });
    const negotiationId = json<{ id: string }>(negotiated).id;
    // Back to the stored form before issue 12 (bonds), plus venue-book rows, as an old database holds them.
    await t.database.query(`UPDATE quotes SET quantum = quantum / 100, remaining_quantum = remaining_quantum / 100 WHERE id = $1`, [g.id]);
    await t.database.query(`UPDATE quotes SET quantum = quantum / 100000, remaining_quantum = remaining_quantum / 100000 WHERE id = $1`, [
      n.id,
    ]);
    await t.database.query(`UPDATE negotiations SET history = jsonb_set(history, '{0,quantum}', '3'::jsonb) WHERE id = $1`, [
      negotiationId,
    ]);
    await t.database.query(
      `INSERT INTO exchange_sim_rfqs (ref, exchange, mode, anonymous, isin, side, quantum, price, yield_fraction, settlement_date, valid_until)
       VALUES ('FV-TEST-1', 'NSE', 'ONE_TO_MANY', true, $1, 'BID', 2100, 100, 0.07, '2030-01-01', now()),
              ('FV-TEST-2', 'NSE', 'ONE_TO_MANY', true, $1, 'BID', 20000000000, 100, 0.07, '2030-01-01', now())`,
      [GSEC_2033],
    );
    await t.database.query(`DELETE FROM schema_migrations WHERE tag = '0013_face_value_quantum'`);

    expect(await migrate(t.database)).toEqual(['0013_face_value_quantum']);

    const stored = await t.database.query<{ id: string; quantum: string; remaining_quantum: string }>(
      `SELECT id, quantum::text, remaining_quantum::text FROM quotes WHERE id IN ($1, $2)`,
      [g.id, n.id],
    );
    expect(Object.fromEntries(stored.map((r) => [r.id, [Number(r.quantum), Number(r.remaining_quantum)]]))).toEqual({
      [g.id]: [7 * CRORE, 7 * CRORE],
      [n.id]: [6 * LAKH, 6 * LAKH],
    });
    const [history] = await t.database.query<{ quantum: string }>(
      `SELECT history -> 0 ->> 'quantum' AS quantum FROM negotiations WHERE id = $1`,
      [negotiationId],
    );
    expect(Number(history!.quantum)).toBe(3 * LAKH);
    const venue = await t.database.query<{ ref: string; quantum: string }>(
      `SELECT ref, quantum::text FROM exchange_sim_rfqs WHERE ref LIKE 'FV-TEST-%' ORDER BY ref`,
    );
    // 2,100 G-sec bonds are ₹2.1 L; 2,00,00,00,000 bonds (₹2 lakh crore) are cut to the largest 12-digit whole-bond size.
    expect(venue.map((r) => [r.ref, Number(r.quantum)])).toEqual([
      ['FV-TEST-1', 2_10_000],
      ['FV-TEST-2', 999_999_999_900],
    ]);
    // Applied once: a second run changes nothing.
    expect(await migrate(t.database)).toEqual([]);
  });
});
