/**
 * Issue 11 defects 1 and 6: one Idempotency-Key mechanism on every submit route, through the real
 * app on the embedded database and on PostgreSQL. Concurrent submits with one key answer the first
 * result or 409 + Retry-After, never 5xx, with exactly one effect; retries replay; the key with
 * another request is refused; keys are per user; a refused request reaches no exchange venue and a
 * store that fails after the venue accepted cancels there.
 */
import { MARKET_MESSAGES } from '@dart/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';
import { concurrentSubmits, ok, SCENARIOS, uniqueQuantum, type Harness, type Submit, type Who } from './idempotency-support';

describe.each(DRIVERS)('Idempotency-Key on every submit (%s)', (driver) => {
  let t: TestApp;
  let h: Harness;
  const tok = {} as Record<Who, string>;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const users = {} as Harness['users'];
    for (const [who, email] of Object.entries({
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      ops: 'opsadmin@demo.dart',
    }) as Array<[Who, string]>) {
      tok[who] = (await login(t.app, email)).access;
      const session = json<{ client_id: string; user_info: { id: string } }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[who]) }),
      );
      users[who] = { id: session.user_info.id, clientId: session.client_id };
    }
    const gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: '/api/finstrument/IN0020220151/' })).id;
    h = {
      users,
      gsec,
      query: (sql, params) => t.database.query(sql, params),
      venueRfqs: async () => (await t.app.exchange.venue.liveRfqs()).length,
      send: async (_node, submit, headers = {}) => {
        const response = await t.app.inject({
          method: submit.method,
          url: submit.url,
          headers: {
            ...bearer(tok[submit.who]),
            ...(submit.raw ? { 'content-type': submit.raw.contentType } : {}),
            ...headers,
          },
          ...(submit.raw ? { payload: submit.raw.body } : submit.json !== undefined ? { payload: submit.json as object } : {}),
        });
        return { status: response.statusCode, headers: response.headers as Record<string, string>, body: response.body };
      },
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('5 concurrent submits with one key: %s', async (_name, scenario) => {
    expect((await concurrentSubmits(h, scenario, 1)).every((status) => status < 500)).toBe(true);
  });

  const createQuote = (quantum: number): Submit => ({
    who: 'demo',
    method: 'POST',
    url: '/api/trade/eoi/',
    json: { quantum, finstrument_id: h.gsec, yield_stored: 0.0704 },
  });
  const quotesOf = async (quantum: number) =>
    Number((await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM quotes WHERE quantum = $1`, [quantum]))[0]!.n);

  it('refuses the key with another body or route (409), keeps keys per user, and checks the header', async () => {
    const quantum = uniqueQuantum();
    const first = await h.send(0, createQuote(quantum), { 'idempotency-key': 'shared-key' });
    expect(first.status).toBe(201);
    const otherBody = await h.send(0, createQuote(quantum + 100), { 'idempotency-key': 'shared-key' });
    expect(otherBody.status).toBe(409);
    expect(JSON.parse(otherBody.body).message).toBe('This Idempotency-Key was already used with a different request.');
    const otherRoute = await h.send(0, { ...createQuote(quantum), url: '/api/eoi/add/' }, { 'idempotency-key': 'shared-key' });
    expect(otherRoute.status).toBe(409);
    // Another user's same key is theirs alone.
    const theirs = await h.send(0, { ...createQuote(quantum), who: 'second' }, { 'idempotency-key': 'shared-key' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotency-replayed']).toBeUndefined();
    expect(JSON.parse(theirs.body).id).not.toBe(JSON.parse(first.body).id);
    expect(await quotesOf(quantum)).toBe(2);
    const bad = await h.send(0, createQuote(quantum), { 'idempotency-key': 'no spaces allowed' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).errors['Idempotency-Key']).toEqual([
      'Idempotency-Key should be 1–100 letters, digits, dots, colons, dashes or underscores.',
    ]);
  });

  it('stores nothing for a request refused by validation; replays a refusal by the service for the same key', async () => {
    const quantum = uniqueQuantum();
    // Schema validation runs before the key is claimed: the corrected request may reuse the key.
    const invalid = await h.send(
      0,
      { ...createQuote(quantum), json: { quantum: 0, finstrument_id: h.gsec, yield_stored: 0.07 } },
      {
        'idempotency-key': 'fix-me',
      },
    );
    expect(invalid.status).toBe(400);
    const fixed = await h.send(0, createQuote(quantum), { 'idempotency-key': 'fix-me' });
    expect(fixed.status).toBe(201);
    // A 4xx from the service is the request's answer: replayed for the key, nothing blocks a new key.
    const missing = {
      ...createQuote(quantum),
      url: '/api/eoi/add/',
      json: { respond_to: '00000000-0000-4000-8000-000000000000', quantum: 1, yield_stored: 0.07 },
    };
    const refused = await h.send(0, missing, { 'idempotency-key': 'refused-once' });
    expect(refused.status).toBe(404);
    const again = await h.send(0, missing, { 'idempotency-key': 'refused-once' });
    expect(again.status).toBe(404);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(JSON.parse(again.body)).toEqual(JSON.parse(refused.body));
    const fresh = await h.send(0, createQuote(quantum + 300), { 'idempotency-key': 'refused-then-new' });
    expect(fresh.status).toBe(201);
    // A conflict (409) is released: the same key runs again once the state allows it.
    const q = await ok<{ id: string }>(h, createQuote(uniqueQuantum()));
    await ok(h, { who: 'demo', method: 'PUT', url: `/api/trade/d/eoi/${q.id}/close/` });
    const closeAgain = await h.send(
      0,
      { who: 'demo', method: 'PUT', url: `/api/trade/d/eoi/${q.id}/close/` },
      { 'idempotency-key': 'conflict' },
    );
    expect(closeAgain.status).toBe(409);
    const rows = await t.database.query(`SELECT 1 FROM idempotency_keys WHERE key = 'conflict'`);
    expect(rows).toHaveLength(0);
  });

  it('takes over a claim whose node died (lease over), and fences the old holder out', async () => {
    const quantum = uniqueQuantum();
    const submit = createQuote(quantum);
    // A crashed node's claim: pending, lease over, same request.
    const probe = await h.send(0, submit, { 'idempotency-key': 'probe' });
    const [row] = await t.database.query<{ request_hash: string; route: string }>(
      `SELECT request_hash, route FROM idempotency_keys WHERE key = 'probe'`,
    );
    expect(probe.status).toBe(201);
    await t.database.query(
      `INSERT INTO idempotency_keys (user_id, key, route, request_hash, state, owner, locked_until)
       VALUES ($1, 'crashed', $2, $3, 'pending', 'dead-node', now() - interval '1 second')`,
      [h.users.demo.id, row!.route, row!.request_hash],
    );
    const taken = await h.send(0, submit, { 'idempotency-key': 'crashed' });
    expect(taken.status).toBe(201);
    expect(taken.headers['idempotency-replayed']).toBeUndefined();
    const [after] = await t.database.query<{ state: string; owner: string }>(
      `SELECT state, owner FROM idempotency_keys WHERE key = 'crashed'`,
    );
    expect(after).toMatchObject({ state: 'done' });
    expect(after!.owner).not.toBe('dead-node');
    // A live claim: a duplicate waits, then answers 409 with Retry-After (never runs, never 5xx).
    await t.database.query(
      `INSERT INTO idempotency_keys (user_id, key, route, request_hash, state, owner, locked_until)
       VALUES ($1, 'busy', $2, $3, 'pending', 'other-node', now() + interval '1 minute')`,
      [h.users.demo.id, row!.route, row!.request_hash],
    );
    const busy = await h.send(0, submit, { 'idempotency-key': 'busy' });
    expect(busy.status).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    // Applied (committed) but the answer was lost with its node: never run twice.
    await t.database.query(`UPDATE idempotency_keys SET state = 'applied', locked_until = now() - interval '1 second' WHERE key = 'busy'`);
    const lost = await h.send(0, submit, { 'idempotency-key': 'busy' });
    expect(lost.status).toBe(409);
    expect(JSON.parse(lost.body).message).toMatch(/was carried out/);
    expect(await quotesOf(quantum)).toBe(2);
  });

  it('sends nothing to the venue for an RFQ refused after validation, and cancels one whose store failed', async () => {
    const venue = t.app.exchange.venue;
    const rfq = (extra: object) => ({
      who: 'demo' as const,
      method: 'POST' as const,
      url: '/api/trade/eoi/',
      json: {
        quantum: uniqueQuantum(),
        finstrument_id: h.gsec,
        yield_stored: 0.0712,
        send_to_rfq: true,
        clearing_corporation: 'NSCCL',
        ...extra,
      },
    });
    const before = (await venue.liveRfqs()).length;
    // `replaces` names a quote that is not ours: refused before the venue hears of the RFQ.
    const theirs = await ok<{ id: string }>(h, { ...createQuote(uniqueQuantum()), who: 'second' });
    const refused = await h.send(0, rfq({ replaces: theirs.id }));
    expect(refused.status).toBe(400);
    expect((await venue.liveRfqs()).length).toBe(before);
    // The store fails after the venue accepted (the quote to replace is closed meanwhile, under the book
    // lock): the RFQ is cancelled at the venue and nothing is stored.
    const mine = await ok<{ id: string }>(h, createQuote(uniqueQuantum()));
    venue.configure({ latencyMs: 150 });
    try {
      const submit = rfq({ replaces: mine.id });
      const racing = h.send(0, submit);
      await new Promise((resolve) => setTimeout(resolve, 40));
      await ok(h, { who: 'demo', method: 'PUT', url: `/api/trade/d/eoi/${mine.id}/close/` });
      const answer = await racing;
      expect(answer.status).toBe(400);
      expect((await venue.liveRfqs()).length).toBe(before);
      expect((await venue.cancelledRefs()).length).toBeGreaterThan(0);
      expect(await quotesOf((submit.json as { quantum: number }).quantum)).toBe(0);
    } finally {
      venue.configure({ latencyMs: 0 });
    }
  });

  /** Waits until the request under `key` holds its claim (state pending, an owner), then ends its lease. */
  async function expireLeaseOnceClaimed(key: string) {
    for (let i = 0; i < 200; i++) {
      const [row] = await t.database.query<{ owner: string | null }>(
        `SELECT owner FROM idempotency_keys WHERE key = $1 AND state = 'pending'`,
        [key],
      );
      if (row?.owner) {
        await t.database.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [key]);
        return row.owner;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no pending claim for ${key}`);
  }

  it('rolls the old holder back when a retry took its claim over after the lease (market: an RFQ)', async () => {
    const venue = t.app.exchange.venue;
    const quantum = uniqueQuantum();
    const submit: Submit = {
      who: 'demo',
      method: 'POST',
      url: '/api/trade/eoi/',
      json: { quantum, finstrument_id: h.gsec, yield_stored: 0.0712, send_to_rfq: true, clearing_corporation: 'NSCCL' },
    };
    // The first request is slow at the venue (before its transaction): its lease runs out meanwhile and
    // a retry with the key takes the claim over, runs, and answers.
    venue.configure({ latencyMs: 400 });
    let slow: Promise<Awaited<ReturnType<Harness['send']>>>;
    try {
      slow = h.send(0, submit, { 'idempotency-key': 'takeover-market' });
      const oldOwner = await expireLeaseOnceClaimed('takeover-market');
      venue.configure({ latencyMs: 0 });
      const retry = await h.send(0, submit, { 'idempotency-key': 'takeover-market' });
      expect(retry.status, retry.body).toBe(201);
      const [claim] = await t.database.query<{ owner: string; state: string }>(
        `SELECT owner, state FROM idempotency_keys WHERE key = 'takeover-market'`,
      );
      expect(claim).toMatchObject({ state: 'done' });
      expect(claim!.owner).not.toBe(oldOwner);
    } finally {
      venue.configure({ latencyMs: 0 });
    }
    // The old holder's transaction is fenced out: 409, nothing of it stored, its venue RFQ cancelled.
    const old = await slow;
    expect(old.status, old.body).toBe(409);
    expect(JSON.parse(old.body).message).toBe(MARKET_MESSAGES.idempotencyTakenOver);
    expect(await quotesOf(quantum)).toBe(1);
    expect((await venue.liveRfqs()).filter((r) => r.quantum === quantum)).toHaveLength(1);
    // The key still answers the retry's result.
    const replay = await h.send(0, submit, { 'idempotency-key': 'takeover-market' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
  });
});

// PGlite is one connection, so nothing can run inside another request's transaction there: the chat
// takeover (the old holder paused mid-transaction on a row lock) runs on PostgreSQL.
describe.runIf(process.env.DATABASE_URL)('a claim taken over mid-transaction (chat, PostgreSQL)', () => {
  let t: TestApp;
  const tok: Record<'demo' | 'second', string> = { demo: '', second: '' };
  let secondId: string;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    tok.demo = (await login(t.app, 'dealer@demo.dart')).access;
    tok.second = (await login(t.app, 'dealer@second.dart')).access;
    secondId = json<{ user_info: { id: string } }>(await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok.second) }))
      .user_info.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const claimOf = async (key: string) =>
    (await t.database.query<{ owner: string | null; state: string }>(`SELECT owner, state FROM idempotency_keys WHERE key = $1`, [key]))[0];

  it('rolls the old holder back when a retry took its claim over (create a channel)', async () => {
    const name = `Takeover ${Date.now().toString(36)}`;
    const create = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/channels/',
        headers: { ...bearer(tok.demo), 'idempotency-key': 'takeover-chat' },
        payload: { customType: 'group', name, invitedUserIds: [secondId] },
      });
    const channelsNamed = async () =>
      Number((await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM chat_channels WHERE name = $1`, [name]))[0]!.n);
    // Another session locks the invitee's user row: the channel's member row (a foreign key to it) waits,
    // inside the first request's transaction.
    const locker = new pg.Client({ connectionString: t.config.databaseUrl! });
    await locker.connect();
    let slow: ReturnType<typeof create> | undefined;
    let retry: ReturnType<typeof create> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [secondId]);
      slow = create();
      let oldOwner: string | null = null;
      for (let i = 0; i < 200 && !oldOwner; i++) {
        const claim = await claimOf('takeover-chat');
        if (claim?.state === 'pending' && claim.owner) oldOwner = claim.owner;
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(oldOwner, 'the first request holds the claim').toBeTruthy();
      // Its lease runs out while it waits on the lock; a retry takes the claim over.
      await new Promise((resolve) => setTimeout(resolve, 150));
      await t.database.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = 'takeover-chat'`);
      retry = create();
      for (let i = 0; i < 200 && (await claimOf('takeover-chat'))?.owner === oldOwner; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await claimOf('takeover-chat'))?.owner).not.toBe(oldOwner);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    const [old, again] = await Promise.all([slow!, retry!]);
    expect(old.statusCode, old.body).toBe(409);
    expect(json<{ message: string }>(old).message).toBe(MARKET_MESSAGES.idempotencyTakenOver);
    expect(again.statusCode, again.body).toBeLessThan(300);
    // One channel: the old holder's was rolled back with its fence.
    expect(await channelsNamed()).toBe(1);
  });
});
