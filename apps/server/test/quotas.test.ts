/**
 * Daily business quotas (RELIABILITY #34) through the HTTP API on every driver, with low caps set by
 * DAILY_QUOTAS: quote creation per user, RFQs raised, quote updates (cancel/replace
 * loops), bulk uploads (the whole file counts) and broadcast chat messages. Over a cap → 429 with the documented message and a
 * Retry-After to midnight IST, nothing stored, other firms unaffected; a request refused
 * for another reason uses no quota; a new IST day starts afresh. Firm-wide caps and concurrent
 * charges: src/lib/quotas.test.ts.
 */
import { quotaExceededMessage } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatUser } from './chat-support';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';

describe.each(DRIVERS)('daily quotas (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let gsec: number;

  beforeAll(async () => {
    t = await createTestApp(driver, {
      BOND_IMPORT: 'slice',
      DAILY_QUOTAS: 'quote.create.user=2,quote.create.client=3,rfq.raise.user=1,quote.update.user=2,chat.broadcast.user=1',
    });
    const who = { demo: 'dealer@demo.dart', second: 'dealer@second.dart' };
    for (const [name, email] of Object.entries(who)) tok[name] = (await login(t.app, email)).access;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | string, type?: string) =>
    t.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload } : {}),
      headers: { ...bearer(tok[who]!), ...(type ? { 'content-type': type } : {}) },
    });
  const quote = (who: string, extra: object = {}) =>
    call(who, 'POST', '/api/trade/eoi/', { quantum: 100 * LAKH, finstrument_id: gsec, yield_stored: 0.07, settlement_delta: 1, ...extra });
  const myOpenQuotes = async (who: string) =>
    json<{ count: number }>(await call(who, 'GET', '/api/trade/d/market/?my_quotes=true&page_size=100')).count;

  it('caps quotes per user with 429 and nothing stored; other firms are unaffected', async () => {
    // A refused request (bad yield) uses no quota.
    expect((await quote('demo', { yield_stored: 5 })).statusCode).toBe(400);
    for (let i = 0; i < 2; i++) expect((await quote('demo', { yield_stored: 0.07 + i / 10_000 })).statusCode).toBe(201);
    const before = await myOpenQuotes('demo');
    const refused = await quote('demo');
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({ code: 'RATE_LIMITED', message: quotaExceededMessage('quote.create', 'user', 2) });
    expect(json(refused).message).toBe('Daily limit reached: at most 2 quotes a day per user. It resets at midnight IST.');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await myOpenQuotes('demo')).toBe(before);
    // Another firm is untouched.
    expect((await quote('second')).statusCode).toBe(201);
  });

  it('caps quote updates (cancel/replace loops) per user', async () => {
    const created = await quote('second', { yield_stored: 0.0711 });
    expect(created.statusCode).toBe(201);
    const id = json<{ id: string }>(created).id;
    expect((await call('second', 'PUT', `/api/eoi/update/${id}/`, { quantum: 120 * LAKH })).statusCode).toBe(200);
    expect((await call('second', 'PUT', `/api/eoi/update/${id}/`, { quantum: 130 * LAKH })).statusCode).toBe(200);
    const refused = await call('second', 'PUT', `/api/eoi/update/${id}/`, { quantum: 140 * LAKH });
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe(quotaExceededMessage('quote.update', 'user', 2));
    const stored = json<{ quantum: number }>(await call('second', 'GET', `/api/trade/eoi/${id}/`));
    expect(stored.quantum).toBe(130 * LAKH);
  });

  it('a bulk upload counts every row: a file that does not fit imports nothing', async () => {
    // Second Bank's dealer is out of quotes today; tomorrow (IST) two rows fit and three do not.
    t.advanceClock(24 * 3_600_000);
    const row = `${GSEC_2033},10L,7.1`;
    const before = await myOpenQuotes('second');
    const refused = await call('second', 'POST', '/api/eoi/upload/', `isin,quantum,yield\n${row}\n${row}\n${row}`, 'text/csv');
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe(quotaExceededMessage('quote.create', 'user', 2));
    expect(await myOpenQuotes('second')).toBe(before);
    const fits = await call('second', 'POST', '/api/eoi/upload/', `isin,quantum,yield\n${row}\n${row}`, 'text/csv');
    expect(fits.statusCode, fits.body).toBe(201);
  });

  it('caps RFQs raised, before the exchange hears of them; a new IST day starts afresh', async () => {
    const rfq = () => quote('demo', { send_to_rfq: true, clearing_corporation: 'NSCCL', validity: 60 });
    const first = await rfq();
    expect(first.statusCode, first.body).toBe(201);
    const second = await rfq();
    expect(second.statusCode).toBe(429);
    expect(json(second).message).toBe(quotaExceededMessage('rfq.raise', 'user', 1));
    // The refused RFQ never reached the venue: its next number would have been the one after.
    const next = json<{ exchange_ref: string }>(first).exchange_ref.replace(/\d+$/, (n) => String(Number(n) + 1).padStart(n.length, '0'));
    expect(await t.app.exchange.venue.rfq(next)).toBeUndefined();
  });

  it('caps broadcast chat messages: over the cap nothing of the send is stored, in the broadcast or the recipients’ chats', async () => {
    const broker = await chatUser(t.app, 'broker@brokers.dart');
    const a = await chatUser(t.app, 'dealer@demo.dart');
    const b = await chatUser(t.app, 'dealer@second.dart');
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(broker.access), ...(payload ? { payload } : {}) });
    const created = await api('POST', '/api/chat/channels/', { customType: 'broadcast', name: 'Axes', invitedUserIds: [a.id, b.id] });
    expect(created.statusCode, created.body).toBe(201);
    const url = json<{ url: string }>(created).url;
    expect((await api('POST', `/api/chat/channels/${url}/messages/`, { reqId: 'axe-1', message: 'Offering 7.18% 2034' })).statusCode).toBe(
      201,
    );
    const refused = await api('POST', `/api/chat/channels/${url}/messages/`, { reqId: 'axe-2', message: 'Offering 7.10% 2033' });
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe(quotaExceededMessage('chat.broadcast', 'user', 1));
    expect(json<{ messages: unknown[] }>(await api('GET', `/api/chat/channels/${url}/messages/`)).messages).toHaveLength(1);
    // Each recipient's direct chat with the broker holds the first message only.
    const channels = json<{ channels: Array<{ url: string; customType: string }> }>(
      await api('GET', '/api/chat/channels/?limit=100'),
    ).channels;
    const directs = channels.filter((ch) => ch.customType === 'direct');
    expect(directs.length).toBeGreaterThanOrEqual(2);
    for (const direct of directs) {
      const texts = json<{ messages: Array<{ message: string }> }>(
        await api('GET', `/api/chat/channels/${direct.url}/messages/`),
      ).messages.map((m) => m.message);
      expect(texts).not.toContain('Offering 7.10% 2033');
    }
  });
});
