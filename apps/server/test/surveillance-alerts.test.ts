/**
 * Issue 16 §1, surveillance alerts: each rule raises its alert from data made through the real API (chat, market,
 * tickets, orders), for every Dart firm involved with that firm's side of the evidence, and stays quiet on the
 * negative case next to it. The scanner is ticked by hand (NODE_ENV=test starts no timer).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSurveillanceScanner } from '../src/modules/surveillance/surveillance.scanner';
import { bearer, createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { confirmedTrade } from './orders-support';
import { bondId, call, GSEC_2033, HDFC_NCD, LAKH, makeDeal, postTradeActors, type Actor } from './post-trade-support';
import {
  alertDetail,
  alertsAbout,
  alertsOf,
  demoSecondChat,
  referenceYield,
  say,
  scan,
  secondBankCompliance,
} from './surveillance-support';

describe.each(DRIVERS)('surveillance alerts (%s)', (driver) => {
  let t: TestApp;
  let demo: string;
  let second: string;
  let actors: Record<string, Actor>;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    actors = await postTradeActors(t);
    demo = actors.compliance!.token;
    second = (await secondBankCompliance(t)).token;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('chat lexicon: a Hinglish phrase raises an alert for the sender firm only; ordinary trading talk raises none', async () => {
    const channel = await demoSecondChat(t, 'Lexicon desk');
    const hit = await say(t, 'demo', channel, 'Sir pakka return milega, baaki under the table setting karo');
    const plain = await say(t, 'second', channel, 'Bid 7.80 for 5 cr, settlement T+1 at NSCCL, cash settlement as usual');
    await scan(t);

    const [alert] = await alertsAbout(t, demo, 'chat_lexicon', hit);
    expect(alert).toMatchObject({ kind: 'chat_lexicon', status: 'open', kind_label: 'Chat lexicon' });
    expect(alert!.score).toBeGreaterThanOrEqual(85);
    expect(alert!.facts.terms).toContain('pakka return');
    expect(alert!.facts.terms).toContain('under the table');
    expect(alert!.evidence[0]).toMatchObject({ type: 'chat_message', id: hit });
    expect(alert!.evidence[0]!.excerpt).toContain('pakka return milega');
    expect(alert!.summary).toContain('Second Bank');
    // The sender's firm's alert only: Second Bank's compliance officer has none about it, nor about the plain message.
    expect(await alertsAbout(t, second, 'chat_lexicon', hit)).toEqual([]);
    expect(await alertsAbout(t, second, 'chat_lexicon', plain)).toEqual([]);
    expect(await alertsAbout(t, demo, 'chat_lexicon', plain)).toEqual([]);
  });

  it('chat lexicon: a file name counts; a harmless file name does not', async () => {
    const channel = await demoSecondChat(t, 'Files desk');
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel}/files/?reqId=f-1&fileName=${encodeURIComponent('side_deal-terms.txt')}`,
      headers: { ...bearer(actors.second!.token), 'content-type': 'text/plain' },
      payload: Buffer.from('terms'),
    });
    expect(bad.statusCode, bad.body).toBe(201);
    const good = await t.app.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel}/files/?reqId=f-2&fileName=${encodeURIComponent('settlement-terms.txt')}`,
      headers: { ...bearer(actors.second!.token), 'content-type': 'text/plain' },
      payload: Buffer.from('terms'),
    });
    expect(good.statusCode, good.body).toBe(201);
    await scan(t);
    const badId = json<{ messageId: string }>(bad).messageId;
    const goodId = json<{ messageId: string }>(good).messageId;
    const [alert] = await alertsAbout(t, second, 'chat_lexicon', badId);
    expect(alert!.facts.terms).toBe('side deal');
    expect(alert!.evidence.some((item) => item.type === 'chat_file' && item.excerpt === 'side_deal-terms.txt')).toBe(true);
    expect(await alertsAbout(t, second, 'chat_lexicon', goodId)).toEqual([]);
  });

  it('chat before trade: a chat naming the ISIN, then a deal on it between the two firms, raises one alert per firm', async () => {
    const channel = await demoSecondChat(t, 'Axe desk');
    const named = await say(t, 'second', channel, `Can offer ${HDFC_NCD} around 7.80, interested?`);
    const reference = await referenceYield(t, HDFC_NCD);
    const deal = await makeDeal(t, { isin: HDFC_NCD, yield: Number(reference.toFixed(6)) });
    // A deal on a bond nobody named in chat.
    const quiet = await makeDeal(t, { isin: GSEC_2033, yield: Number((await referenceYield(t, GSEC_2033)).toFixed(6)) });
    await scan(t);

    const [ours] = await alertsAbout(t, demo, 'chat_before_trade', deal.dealId);
    const [theirs] = await alertsAbout(t, second, 'chat_before_trade', deal.dealId);
    for (const alert of [ours, theirs]) {
      expect(alert!.evidence.some((item) => item.type === 'chat_message' && item.id === named)).toBe(true);
      expect(alert!.facts).toMatchObject({ isin: HDFC_NCD, messages: 1 });
    }
    expect(ours!.title).toContain('Second Bank');
    expect(theirs!.title).toContain('Demo Capital');
    // Each firm's side of the evidence: Demo Capital bought, so its bid is there and Second Bank's audit rows are not.
    expect(ours!.evidence.filter((i) => i.type === 'audit').every((i) => !i.excerpt.includes('@second.dart'))).toBe(true);
    expect(theirs!.evidence.filter((i) => i.type === 'audit').every((i) => !i.excerpt.includes('@demo.dart'))).toBe(true);
    expect(ours!.evidence.some((i) => i.type === 'audit')).toBe(true);
    expect(await alertsAbout(t, demo, 'chat_before_trade', quiet.dealId)).toEqual([]);
    expect(await alertsAbout(t, second, 'chat_before_trade', quiet.dealId)).toEqual([]);
  });

  it('off-market: a deal far from the reference yield alerts both firms, linked to their lexicon alert; a deal at it does not', async () => {
    const channel = await demoSecondChat(t, 'Parking desk');
    const lexicon = await say(t, 'second', channel, 'Park kar do till quarter end, we buy back later');
    const reference = await referenceYield(t, HDFC_NCD);
    const far = await makeDeal(t, { isin: HDFC_NCD, yield: Number((reference + 0.025).toFixed(6)) });
    const near = await makeDeal(t, { isin: HDFC_NCD, yield: Number(reference.toFixed(6)) });
    await scan(t);

    const [ours] = await alertsAbout(t, demo, 'off_market', far.dealId);
    const [theirs] = await alertsAbout(t, second, 'off_market', far.dealId);
    for (const alert of [ours!, theirs!]) {
      expect(alert.facts).toMatchObject({ isin: HDFC_NCD, deviation_bp: 250, rating_group: expect.any(String) });
      expect(alert.score).toBeGreaterThanOrEqual(50);
      expect(alert.evidence.some((i) => i.type === 'deal' && i.id === far.dealId)).toBe(true);
    }
    // The parking message and the off-market deal between the same two firms are linked in Second Bank's alerts.
    const [parking] = await alertsAbout(t, second, 'chat_lexicon', lexicon);
    expect(parking!.linked_alert_ids).toContain(theirs!.id);
    expect((await alertDetail(t, second, theirs!.id)).linked_alert_ids).toContain(parking!.id);
    // Demo Capital's bid behind the far deal was off-market too (its own firm's quote alert).
    expect((await alertsOf(t, demo, 'off_market')).some((a) => a.title.startsWith('Off-market bid'))).toBe(true);
    expect(await alertsAbout(t, demo, 'off_market', near.dealId)).toEqual([]);
    expect(await alertsAbout(t, second, 'off_market', near.dealId)).toEqual([]);
  });

  it('wash trade: the same two firms buy and sell the same bond back within the window; the same direction twice is not', async () => {
    const gsecYield = Number((await referenceYield(t, GSEC_2033)).toFixed(6));
    // Demo Capital buys from Second Bank twice: the same direction, no wash trade.
    const first = await makeDeal(t, { isin: GSEC_2033, yield: gsecYield, buyer: 'demo', quantum: 10 * LAKH });
    const again = await makeDeal(t, { isin: GSEC_2033, yield: gsecYield, buyer: 'demo', quantum: 10 * LAKH });
    await scan(t);
    for (const token of [demo, second])
      for (const id of [first.dealId, again.dealId]) expect(await alertsAbout(t, token, 'wash_trade', id)).toEqual([]);

    // Then Second Bank buys the same bond back from Demo Capital: each earlier leg pairs with it, for both firms.
    const back = await makeDeal(t, { isin: GSEC_2033, yield: gsecYield, buyer: 'second', quantum: 10 * LAKH });
    await scan(t);
    for (const token of [demo, second]) {
      const alerts = await alertsAbout(t, token, 'wash_trade', back.dealId);
      const pairs = alerts.map((a) => a.evidence.filter((i) => i.type === 'deal').map((i) => i.id));
      expect(pairs).toContainEqual([first.dealId, back.dealId]);
      expect(pairs).toContainEqual([again.dealId, back.dealId]);
      expect(alerts.find((a) => a.evidence.some((i) => i.id === again.dealId))!.score).toBe(90);
    }
  });

  it('spoofing: quotes placed and pulled within seconds without trading raise an alert; two pulls do not', async () => {
    const hdfc = await bondId(t, HDFC_NCD);
    const gsec = await bondId(t, GSEC_2033);
    const placeAndPull = async (finstrumentId: number, yieldStored: number) => {
      const placed = await call(t, 'demo', 'POST', '/api/trade/eoi/', {
        quote_type: 'ASK',
        quantum: 5 * LAKH,
        finstrument_id: finstrumentId,
        yield_stored: yieldStored,
        validity: 60,
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const id = json<{ id: string }>(placed).id;
      const pulled = await call(t, 'demo', 'PUT', `/api/trade/d/eoi/${id}/close/`);
      expect(pulled.statusCode, pulled.body).toBe(200);
      return id;
    };
    const hdfcYield = Number((await referenceYield(t, HDFC_NCD)).toFixed(6));
    const gsecYield = Number((await referenceYield(t, GSEC_2033)).toFixed(6));
    const layered = [
      await placeAndPull(hdfc, hdfcYield - 0.001),
      await placeAndPull(hdfc, hdfcYield - 0.0012),
      await placeAndPull(hdfc, hdfcYield - 0.0014),
    ];
    const few = [await placeAndPull(gsec, gsecYield - 0.0005), await placeAndPull(gsec, gsecYield - 0.0006)];
    await scan(t);

    const [alert] = await alertsAbout(t, demo, 'spoofing', layered[0]!);
    expect(alert!.evidence.filter((i) => i.type === 'quote').map((i) => i.id)).toEqual(layered);
    expect(alert!.facts).toMatchObject({ isin: HDFC_NCD, pulled_quotes: 3 });
    expect(alert!.score).toBe(60);
    expect(await alertsAbout(t, demo, 'spoofing', few[0]!)).toEqual([]);
    expect(await alertsAbout(t, second, 'spoofing', layered[0]!)).toEqual([]);
  });

  it('leaves rows younger than the settle time for a later pass, then reads them', async () => {
    const channel = await demoSecondChat(t, 'Settle desk');
    const young = await say(t, 'demo', channel, 'Window dressing before the quarter end');
    await t.app.surveillance.scanner.scanOnce({ settleMs: 60_000 });
    expect(await alertsAbout(t, demo, 'chat_lexicon', young)).toEqual([]);
    await scan(t);
    expect(await alertsAbout(t, demo, 'chat_lexicon', young)).toHaveLength(1);
  });

  it('scans in the background on the elected node only', async () => {
    const channel = await demoSecondChat(t, 'Leader desk');
    const hit = await say(t, 'demo', channel, 'We can front run the client order today');
    const follower = createSurveillanceScanner(t.app.deps, { intervalMs: 20, settleMs: 0 });
    follower.start(() => false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await follower.stop();
    expect(await alertsAbout(t, demo, 'chat_lexicon', hit)).toEqual([]);

    const leader = createSurveillanceScanner(t.app.deps, { intervalMs: 20, settleMs: 0 });
    leader.start(() => true);
    try {
      await vi.waitFor(async () => expect(await alertsAbout(t, demo, 'chat_lexicon', hit)).toHaveLength(1), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await leader.stop();
    }
  });

  it('chat lexicon: the database pre-filter lets through the spellings the rule catches; near misses raise nothing', async () => {
    const channel = await demoSecondChat(t, 'Spelling desk');
    // Upper case with hyphens, and a no-break space: both pass the database's keyword and pattern tests.
    const hit = await say(t, 'demo', channel, 'Keep it OFF-THE-BOOKS pls, small kick\u00a0back for you');
    const nearMiss = await say(t, 'second', channel, 'parkings full, cash settlement T+1, setting up a call');
    await scan(t);
    const [alert] = await alertsAbout(t, demo, 'chat_lexicon', hit);
    expect(alert!.facts.terms).toContain('off the books');
    expect(alert!.facts.terms).toContain('kick back');
    expect(await alertsAbout(t, second, 'chat_lexicon', nearMiss)).toEqual([]);
  });

  // Last: it moves the app's clock past the 15-minute rule.
  it('late reporting: an order unreported after 15 minutes alerts its own firm; one reported in time does not', async () => {
    const onTime = await confirmedTrade(t);
    await t.app.orders.reporter.tick(new Date());
    const late = await confirmedTrade(t, { buyer: 'second' });
    t.advanceClock(16 * 60_000);
    await scan(t);

    const [sellerSide] = await alertsAbout(t, demo, 'late_report', late.orderId);
    const [buyerSide] = await alertsAbout(t, second, 'late_report', late.procurementId);
    expect(sellerSide!.facts).toMatchObject({ missing: true, minutes_late: 1 });
    expect(sellerSide!.score).toBe(80);
    expect(sellerSide!.title).toMatch(/^Unreported trade ORD-\d{6}$/);
    expect(buyerSide!.title).toMatch(/^Unreported trade PRO-\d{6}$/);
    // Each firm sees its own order only.
    expect(sellerSide!.evidence.some((i) => i.id === late.procurementId)).toBe(false);
    expect(await alertsAbout(t, demo, 'late_report', late.procurementId)).toEqual([]);
    expect(await alertsAbout(t, second, 'late_report', onTime.orderId)).toEqual([]);
    expect(await alertsAbout(t, demo, 'late_report', onTime.procurementId)).toEqual([]);

    // Reported 20 minutes after the trade: late by 5 minutes, no longer missing.
    const slow = await confirmedTrade(t);
    await t.app.orders.reporter.tick(new Date(Date.now() + 20 * 60_000));
    await scan(t);
    const [reportedLate] = await alertsAbout(t, second, 'late_report', slow.orderId);
    expect(reportedLate!.facts).toMatchObject({ missing: false, minutes_late: 5 });
    expect(reportedLate!.score).toBe(70);
    expect(reportedLate!.title).toMatch(/^Late reported trade ORD-\d{6}$/);
  });
});
