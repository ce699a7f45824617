/**
 * Issue 5 ("Market"): trading hours (Mon–Fri NSE business days, 09:00–17:00 IST) with an injected
 * clock. With `TRADING_HOURS=enforce`, quoting, responding, updating, uploading, countering and
 * accepting are refused outside the session (400 with a clear message), while closing and rejecting
 * stay possible; with `TRADING_HOURS=off` (the test/development default) the same calls go through.
 */
import { MARKET_CLOSED_MESSAGE } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingSession } from '../src/modules/market/market.service';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
/** Wednesday 25 Nov 2026 (a business day) 10:00 IST. */
const OPEN = '2026-11-25T04:30:00Z';
/** The same Wednesday 17:30 IST. */
const EVENING = '2026-11-25T12:00:00Z';
/** Tuesday 24 Nov 2026, 10:00 IST: Guru Nanak Jayanti, an NSE holiday. */
const HOLIDAY = '2026-11-24T04:30:00Z';
/** Saturday 28 Nov 2026, 11:00 IST. */
const SATURDAY = '2026-11-28T05:30:00Z';

describe('the trading session (pure)', () => {
  it('is open 09:00–17:00 IST on NSE business days only', () => {
    expect(tradingSession(new Date(OPEN))).toMatchObject({ isOpen: true, businessDay: true, today: '2026-11-25' });
    expect(tradingSession(new Date('2026-11-25T03:30:00Z')).isOpen).toBe(true); // 09:00 IST sharp
    expect(tradingSession(new Date('2026-11-25T03:29:59Z')).isOpen).toBe(false); // 08:59 IST
    expect(tradingSession(new Date('2026-11-25T11:29:59Z')).isOpen).toBe(true); // 16:59 IST
    expect(tradingSession(new Date('2026-11-25T11:30:00Z')).isOpen).toBe(false); // 17:00 IST
    expect(tradingSession(new Date(EVENING)).isOpen).toBe(false);
    expect(tradingSession(new Date(HOLIDAY))).toMatchObject({ isOpen: false, businessDay: false });
    expect(tradingSession(new Date(SATURDAY))).toMatchObject({ isOpen: false, businessDay: false });
    // 20:00 UTC on Tuesday is already Wednesday 01:30 in India: the IST date decides.
    expect(tradingSession(new Date('2026-11-24T20:00:00Z'))).toMatchObject({ today: '2026-11-25', businessDay: true, isOpen: false });
  });
});

describe.each(DRIVERS)('trading hours (%s)', (driver) => {
  let enforced: TestApp;
  let relaxed: TestApp;
  const tok: Record<string, string> = {};
  const relaxedTok: Record<string, string> = {};
  let gsec: number;

  const setClock = (t: TestApp, iso: string) => t.advanceClock(Date.parse(iso) - t.app.deps.now().getTime());
  const call = (t: TestApp, token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | string, type?: string) =>
    t.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload } : {}),
      headers: { ...bearer(token), ...(type ? { 'content-type': type } : {}) },
    });
  const quoteBody = (extra: object = {}) => ({
    quantum: 100 * LAKH,
    finstrument_id: gsec,
    yield_stored: 0.07,
    settlement_delta: 1,
    ...extra,
  });

  beforeAll(async () => {
    enforced = await createTestApp(driver, { BOND_IMPORT: 'slice', TRADING_HOURS: 'enforce' });
    relaxed = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart' })) {
      tok[name] = (await login(enforced.app, email)).access;
      relaxedTok[name] = (await login(relaxed.app, email)).access;
    }
    gsec = json<{ id: number }>(await enforced.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await enforced?.close();
    await relaxed?.close();
  });

  it('accepts a quote in the session and refuses one after 17:00, on a holiday and on a Saturday', async () => {
    setClock(enforced, OPEN);
    const open = await call(enforced, tok.demo!, 'POST', '/api/trade/eoi/', quoteBody());
    expect(open.statusCode, open.body).toBe(201);
    expect(json<{ is_open: boolean }>(await call(enforced, tok.demo!, 'GET', '/api/trade/timings')).is_open).toBe(true);
    for (const when of [EVENING, HOLIDAY, SATURDAY]) {
      setClock(enforced, when);
      const refused = await call(enforced, tok.demo!, 'POST', '/api/trade/eoi/', quoteBody());
      expect(refused.statusCode, when).toBe(400);
      expect(json(refused)).toMatchObject({ code: 'BAD_REQUEST', message: MARKET_CLOSED_MESSAGE });
      expect(json<{ is_open: boolean }>(await call(enforced, tok.demo!, 'GET', '/api/trade/timings')).is_open).toBe(false);
    }
  });

  it('refuses responding, updating, uploading, countering and accepting outside the session; closing and rejecting still work', async () => {
    setClock(enforced, OPEN);
    const bid = json<{ id: string }>(await call(enforced, tok.demo!, 'POST', '/api/trade/eoi/', quoteBody({ yield_stored: 0.0705 })));
    const spare = json<{ id: string }>(await call(enforced, tok.demo!, 'POST', '/api/trade/eoi/', quoteBody({ yield_stored: 0.071 })));
    const counter = await call(enforced, tok.second!, 'POST', '/api/eoi/add-negotiation/', { quote_id: bid.id, yield_stored: 0.0702 });
    expect(counter.statusCode, counter.body).toBe(200);
    const negotiation = json<{ id: string }>(counter);
    // An ask at the bid's price makes a cluster to accept later.
    const ask = await call(enforced, tok.second!, 'POST', '/api/trade/eoi/', quoteBody({ quote_type: 'ASK', yield_stored: 0.07 }));
    expect(ask.statusCode, ask.body).toBe(201);
    const clusters = json<{ results: Array<{ id: string; status: string }> }>(
      await call(enforced, tok.second!, 'GET', '/api/trade/cluster/?status=proposed'),
    );
    expect(clusters.results.length).toBeGreaterThan(0);

    setClock(enforced, EVENING);
    const refusals = [
      await call(enforced, tok.second!, 'POST', '/api/eoi/add/', { respond_to: spare.id, quantum: 10 * LAKH, yield_stored: 0.0712 }),
      await call(enforced, tok.demo!, 'PUT', `/api/eoi/update/${spare.id}/`, { quantum: 50 * LAKH }),
      await call(enforced, tok.demo!, 'POST', '/api/eoi/upload/', `isin,quantum,yield\n${GSEC_2033},5cr,7`, 'text/csv'),
      await call(enforced, tok.second!, 'POST', '/api/eoi/add-negotiation/', { quote_id: spare.id, yield_stored: 0.0712 }),
      await call(enforced, tok.demo!, 'POST', '/api/eoi/add-negotiation/', {
        quote_id: bid.id,
        negotiation_id: negotiation.id,
        action: 'accept',
      }),
      await call(enforced, tok.second!, 'POST', `/api/cluster/${clusters.results[0]!.id}/accept/`, {}),
    ];
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(400);
      expect(json(response).message).toBe(MARKET_CLOSED_MESSAGE);
    }
    // Withdrawing interest is never blocked by the clock.
    const rejected = await call(enforced, tok.demo!, 'POST', '/api/eoi/add-negotiation/', {
      quote_id: bid.id,
      negotiation_id: negotiation.id,
      action: 'reject',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const closed = await call(enforced, tok.demo!, 'PUT', `/api/trade/d/eoi/${spare.id}/close/`, {});
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('lets everything through at any hour with TRADING_HOURS=off (the test and development default)', async () => {
    expect(relaxed.config.tradingHours).toBe('off');
    expect(enforced.config.tradingHours).toBe('enforce');
    setClock(relaxed, SATURDAY);
    const quote = await call(relaxed, relaxedTok.demo!, 'POST', '/api/trade/eoi/', quoteBody());
    expect(quote.statusCode, quote.body).toBe(201);
    const counter = await call(relaxed, relaxedTok.second!, 'POST', '/api/eoi/add-negotiation/', {
      quote_id: json<{ id: string }>(quote).id,
      yield_stored: 0.0702,
    });
    expect(counter.statusCode, counter.body).toBe(200);
    const uploaded = await call(
      relaxed,
      relaxedTok.demo!,
      'POST',
      '/api/eoi/upload/',
      `isin,quantum,yield\n${GSEC_2033},5cr,7`,
      'text/csv',
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
  });
});
