/**
 * Raising exchange RFQs (issue 12 §3): the spec's payload (`send_to_rfq`, `rfq_mode`,
 * `oto_participant_details`, `clearing_corporation`) with field errors, the simulated participants
 * answering a Dart firm's RFQ on its raise (one-to-one: only the named participant), the raiser's
 * `GET api/eoi/my-rfqs/` with each response's terms and validity, and accepting a response through the
 * negotiation accept: deal, the response taken, the trade reported to the venue. On two nodes, an RFQ
 * raised through one node is answered by the participants running on the other.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeTrades } from '../src/db/schema';
import { SIMULATED_FIRM } from '../src/modules/exchange';
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

const GSEC_2033 = 'IN0020220151';
const CRORE = 10_000_000;
type Quote = { id: string; exchange: string | null; rfq_mode: string | null; counterparties: string[] | null; quantum: number };
type MyRfq = Quote & {
  status: string;
  remaining_quantum: number;
  responses: Array<{
    negotiation_id: string;
    status: string;
    participant: string;
    last_by: string;
    yield_stored: number;
    quantum: number;
    valid_until: string;
    response_id: string | null;
    can_accept: boolean;
    deal_id: string | null;
  }>;
};
type FieldErrors = { code: string; errors?: Record<string, string[]> };

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DRIVERS)('raising exchange RFQs (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const clientIds: Record<string, string> = {};
  let gsec: number;
  let simFirm: string;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart' })) {
      tok[name] = (await login(t.app, email)).access;
      clientIds[name] = json<{ client_id: string }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[name]!) }),
      ).client_id;
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    simFirm = (await t.app.exchange.participants.self()).clientId;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const raise = async (who: string, body: object) => {
    const response = await post(who, '/api/trade/eoi/', exchangeRfqBody(gsec, body));
    expect(response.statusCode, response.body).toBe(201);
    return json<Quote>(response);
  };
  const myRfqs = async (who: string) => json<{ results: MyRfq[] }>(await get(who, '/api/eoi/my-rfqs/')).results;
  const responsesTo = async (rfqId: string) =>
    t.database.query<{ id: string; client_id: string; quantum: number; expires_at: Date; status: string }>(
      `SELECT id, client_id, quantum::float8 AS quantum, expires_at, status FROM quotes WHERE respond_to = $1`,
      [rfqId],
    );

  it('refuses a one-to-one RFQ without its participant with a field error, never a 500', async () => {
    const missing = await post('demo', '/api/trade/eoi/', exchangeRfqBody(gsec, { rfq_mode: 'ONE_TO_ONE' }));
    expect(missing.statusCode).toBe(400);
    expect(json<FieldErrors>(missing).errors).toEqual({ oto_participant_details: ['This field is required'] });

    const badId = await post(
      'demo',
      '/api/trade/eoi/',
      exchangeRfqBody(gsec, { rfq_mode: 'ONE_TO_ONE', oto_participant_details: { client_id: 'x' } }),
    );
    expect(badId.statusCode).toBe(400);
    expect(Object.keys(json<FieldErrors>(badId).errors ?? {})).toEqual(['oto_participant_details.client_id']);

    const mismatch = await post(
      'demo',
      '/api/trade/eoi/',
      exchangeRfqBody(gsec, {
        rfq_mode: 'ONE_TO_ONE',
        oto_participant_details: { client_id: simFirm },
        counterparties: [clientIds.second],
      }),
    );
    expect(mismatch.statusCode).toBe(400);
    expect(json<FieldErrors>(mismatch).errors?.oto_participant_details?.[0]).toContain('same firm');

    const badMode = await post('demo', '/api/trade/eoi/', exchangeRfqBody(gsec, { rfq_mode: 'ONE_TO_FEW' }));
    expect(badMode.statusCode).toBe(400);
    expect(Object.keys(json<FieldErrors>(badMode).errors ?? {})).toContain('rfq_mode');
    const badCc = await post('demo', '/api/trade/eoi/', exchangeRfqBody(gsec, { clearing_corporation: 'NSE' }));
    expect(badCc.statusCode).toBe(400);
    expect(Object.keys(json<FieldErrors>(badCc).errors ?? {})).toContain('clearing_corporation');
  });

  it('offers the simulated participants in the RFQ participant search, and a one-to-one RFQ to them is answered by them only', async () => {
    const search = json<{ results: Array<{ client_id: string; name: string; nsccl_code: string | null }> }>(
      await get('demo', '/api/chatter/search-trade-participants?search_param=simulated&for_rfq=true&exchange=NSE'),
    );
    expect(search.results[0]).toMatchObject({ client_id: simFirm, name: SIMULATED_FIRM, nsccl_code: 'SIMULATED-NSE-RFQ' });

    const toSim = await raise('demo', {
      quantum: 25 * CRORE,
      rfq_mode: 'ONE_TO_ONE',
      oto_participant_details: { client_id: simFirm, name: SIMULATED_FIRM },
    });
    expect(toSim).toMatchObject({ rfq_mode: 'ONE_TO_ONE', counterparties: [simFirm] });
    const toSecond = await raise('demo', {
      quantum: 10 * CRORE,
      rfq_mode: 'ONE_TO_ONE',
      oto_participant_details: { client_id: clientIds.second },
    });
    // Another firm cannot see, let alone answer, a one-to-one RFQ named to the simulated firm.
    expect((await post('second', '/api/eoi/add/', { respond_to: toSim.id, quantum: 25 * CRORE, yield_stored: 0.071 })).statusCode).toBe(
      404,
    );

    await t.app.exchange.participants.respond(50);
    const answers = await responsesTo(toSim.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ client_id: simFirm, quantum: 25 * CRORE });
    expect(await responsesTo(toSecond.id)).toHaveLength(0);
  });

  it('answers a one-to-many RFQ on its raise; the raiser sees the response with its validity and accepts it: deal, response taken, trade reported', async () => {
    const stop = await t.app.exchange.participants.answerOnRaise(100);
    let rfq: Quote;
    try {
      rfq = await raise('demo', { quote_type: 'BID', quantum: 50 * CRORE, rfq_mode: 'ONE_TO_MANY', validity: 60 });
      await until(async () => ((await responsesTo(rfq.id)).length > 0 ? true : undefined));
    } finally {
      stop();
    }
    const [response] = await responsesTo(rfq.id);
    expect(response).toMatchObject({ client_id: simFirm, quantum: 50 * CRORE, status: 'open' });
    // The response stands 5 minutes (the raiser watches it count down), well inside the RFQ's hour.
    const validFor = response!.expires_at.getTime() - Date.now();
    expect(validFor).toBeGreaterThan(4 * 60_000);
    expect(validFor).toBeLessThanOrEqual(5 * 60_000);

    const mine = (await myRfqs('demo')).find((r) => r.id === rfq.id)!;
    expect(mine.responses).toHaveLength(1);
    const answer = mine.responses[0]!;
    expect(answer).toMatchObject({
      status: 'open',
      last_by: 'responder',
      participant: 'Anonymous NSE RFQ participant',
      quantum: 50 * CRORE,
      response_id: response!.id,
      can_accept: true,
      deal_id: null,
    });
    expect(new Date(answer.valid_until).getTime()).toBe(response!.expires_at.getTime());
    // Only the raiser's firm has it.
    expect((await myRfqs('second')).map((r) => r.id)).not.toContain(rfq.id);

    const accepted = await post('demo', '/api/eoi/add-negotiation/', {
      quote_id: rfq.id,
      negotiation_id: answer.negotiation_id,
      action: 'accept',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const deal = json<{ deal: { id: string; side: string; quantum: number; seller_name: string; yield: number } }>(accepted).deal;
    expect(deal).toMatchObject({
      side: 'buy',
      quantum: 50 * CRORE,
      seller_name: 'Anonymous NSE RFQ participant',
      yield: answer.yield_stored,
    });
    expect((await responsesTo(rfq.id))[0]!.status).toBe('filled');
    const after = (await myRfqs('demo')).find((r) => r.id === rfq.id)!;
    expect(after).toMatchObject({ status: 'filled', remaining_quantum: 0 });
    expect(after.responses[0]).toMatchObject({ status: 'accepted', can_accept: false, deal_id: deal.id });

    await t.app.exchange.service.settle();
    const [trade] = await t.database.db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, deal.id));
    expect(trade).toMatchObject({ exchange: 'NSE', clearingCorporation: 'NSCCL', reportStatus: 'reported' });
    expect(await t.app.exchange.venue.trade(trade!.exchangeTradeId!)).toMatchObject({ quantum: 50 * CRORE, dealId: deal.id });
  });

  it('answers on raise an RFQ raised under an Idempotency-Key (the answer is not fenced as the raising request)', async () => {
    const stop = await t.app.exchange.participants.answerOnRaise(50);
    try {
      const raised = await t.app.inject({
        method: 'POST',
        url: '/api/trade/eoi/',
        payload: exchangeRfqBody(gsec, { quantum: 15 * CRORE }),
        headers: { ...bearer(tok.demo!), 'idempotency-key': `rfq-${Date.now()}` },
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const rfq = json<Quote>(raised);
      const [answer] = await until(async () => {
        const rows = await responsesTo(rfq.id);
        return rows.length > 0 ? rows : undefined;
      });
      expect(answer).toMatchObject({ client_id: simFirm, quantum: 15 * CRORE, status: 'open' });
    } finally {
      stop();
    }
  });

  it('refuses to accept a response whose validity ended', async () => {
    const rfq = await raise('demo', { quote_type: 'ASK', quantum: 5 * CRORE, validity: 60 });
    await t.app.exchange.participants.respond(50);
    const [response] = await responsesTo(rfq.id);
    expect(response).toBeDefined();
    await t.database.query(`UPDATE quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [response!.id]);
    const answer = (await myRfqs('demo')).find((r) => r.id === rfq.id)!.responses[0]!;
    expect(answer.can_accept).toBe(false);
    const refused = await post('demo', '/api/eoi/add-negotiation/', {
      quote_id: rfq.id,
      negotiation_id: answer.negotiation_id,
      action: 'accept',
    });
    expect(refused.statusCode).toBe(409);
    expect(json<{ message: string }>(refused).message).toBe('This response is no longer open.');
  });

  it('a participant’s counter through the negotiation is a response the raiser can accept too', async () => {
    const rfq = await raise('demo', { quote_type: 'BID', quantum: 10 * CRORE });
    const counter = await post('second', '/api/eoi/add-negotiation/', { quote_id: rfq.id, yield_stored: 0.0713 });
    expect(counter.statusCode, counter.body).toBe(200);
    const answer = (await myRfqs('demo')).find((r) => r.id === rfq.id)!.responses[0]!;
    expect(answer).toMatchObject({ last_by: 'responder', response_id: null, can_accept: true, yield_stored: 0.0713 });
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('RFQ answers on two nodes', () => {
  let cluster: RedisCluster;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let token = '';
  let gsec: number;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
    [a, b] = cluster.nodes as [FastifyInstance, FastifyInstance];
    token = (await login(b, 'dealer@demo.dart')).access;
    gsec = json<{ id: number }>(await b.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('an RFQ raised through node B is answered by the participants on node A; B lists the response', async () => {
    const stop = await a.exchange.participants.answerOnRaise(100);
    try {
      const raised = await b.inject({
        method: 'POST',
        url: '/api/trade/eoi/',
        payload: exchangeRfqBody(gsec, { quantum: 20 * CRORE }),
        headers: bearer(token),
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const rfq = json<{ id: string }>(raised);
      const answer = await until(async () => {
        const read = await b.inject({ method: 'GET', url: '/api/eoi/my-rfqs/', headers: bearer(token) });
        // A node still settling its connections may refuse a read for a moment: read again.
        if (read.statusCode !== 200) return undefined;
        return json<{ results: MyRfq[] }>(read).results.find((r) => r.id === rfq.id)?.responses[0];
      });
      expect(answer).toMatchObject({ quantum: 20 * CRORE, can_accept: true, last_by: 'responder' });
    } finally {
      stop();
    }
  });
});
