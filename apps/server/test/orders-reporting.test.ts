/**
 * The reporter and its faults, on PGlite and PostgreSQL: a venue outage keeps orders `reporting` with an
 * exponential back-off and they report once it is back; an answer lost after the venue took the report, and a
 * node killed (-9) between the venue's answer and its commit, both end in the same trade number and one trade;
 * a stale copy of a modified report changes nothing at the venue; the 10-minute alert and the 15-minute
 * escalation, once each. On two nodes sharing PostgreSQL (with Redis): both reporting at once send each report
 * once, only the elected node runs the jobs, and a node dying mid-report is taken over without a second trade.
 */
import { REPORTING_ALERT_MINUTES, REPORTING_DEADLINE_MINUTES } from '@dart/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema';
import { electLeader } from '../src/lib/leader';
import { backoffMs, REPORTER, sideReportOf } from '../src/modules/orders';
import { createTestApp, DRIVERS, type RedisCluster, startRedisCluster, type TestApp } from './helpers';
import { auditOf, confirmedTrade, historyOf, orderRows, readOrder, venueBook } from './orders-support';
import { getTicket, postTradeActors } from './post-trade-support';

const MINUTE = 60_000;

/** One order's report to the venue exactly as the reporter builds it. */
async function sideReportFor(database: TestApp['database'], orderId: string) {
  const [row] = await database.db.select().from(orders).where(eq(orders.id, orderId));
  const view = (
    await database.query<{ isin: string; custodian: string | null }>(
      `SELECT f.isin, c.name AS custodian FROM orders o JOIN finstruments f ON f.id = o.finstrument_id
       LEFT JOIN custodians c ON c.id = o.custodian_id WHERE o.id = $1`,
      [orderId],
    )
  )[0]!;
  return sideReportOf(row!, { isin: view.isin, custodianName: view.custodian });
}

/** Sends one side's report to the venue exactly as the reporter would, then "dies": nothing stored, the lease left. */
async function reportAndDie(app: FastifyInstance, database: TestApp['database'], orderId: string, now: Date) {
  await database.db
    .update(orders)
    .set({ nextReportAt: new Date(now.getTime() + REPORTER.LEASE_MS) })
    .where(eq(orders.id, orderId));
  return app.exchange.venue.reportTrade(await sideReportFor(database, orderId));
}

describe.each(DRIVERS)('the order reporter (%s)', (driver) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: '0' });
    await postTradeActors(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('keeps orders reporting through a venue outage, backing off exponentially, and reports them once it is back', async () => {
    const trade = await confirmedTrade(t);
    const now = new Date();
    t.app.exchange.venue.configure({ failureRate: 1 });
    try {
      await t.app.orders.reporter.tick(now);
      let rows = await orderRows(t, trade.ticketId);
      for (const row of [rows.order, rows.procurement]) {
        expect(row).toMatchObject({ state: 'reporting', reportAttempts: 1, exchangeReportRef: null });
        expect(row.lastError).toMatch(/injected failure/);
        expect(row.nextReportAt!.getTime()).toBe(now.getTime() + backoffMs(1));
      }
      expect(await auditOf(t, 'order.report_failed', trade.orderId)).toHaveLength(1);
      // Not due again before the back-off: a pass now sends nothing.
      await t.app.orders.reporter.tick(now);
      expect((await orderRows(t, trade.ticketId)).order.reportAttempts).toBe(1);
      // Each failure doubles the wait.
      const later = new Date(now.getTime() + backoffMs(1));
      await t.app.orders.reporter.tick(later);
      rows = await orderRows(t, trade.ticketId);
      expect(rows.order.reportAttempts).toBe(2);
      expect(rows.order.nextReportAt!.getTime()).toBe(later.getTime() + backoffMs(2));
      expect(backoffMs(2)).toBe(2 * backoffMs(1));
      expect(backoffMs(30)).toBe(REPORTER.BACKOFF_MAX_MS);
      expect((await venueBook(t, trade.ticketId)).sell).toBeUndefined();
      expect((await readOrder(t, 'second', 'order', trade.orderId)).state).toBe('reporting');
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
    // The venue is back: the next due pass reports both sides, once each.
    await t.app.orders.reporter.tick(new Date(now.getTime() + 10 * MINUTE));
    const rows = await orderRows(t, trade.ticketId);
    expect(rows.order).toMatchObject({ state: 'reported', lastError: null, reportAttempts: 0 });
    expect(rows.procurement.exchangeTradeId).toBe(rows.order.exchangeTradeId);
    const book = await venueBook(t, trade.ticketId);
    expect([book.sell?.submissions, book.buy?.submissions]).toEqual([1, 1]);
    expect(book.trades).toHaveLength(1);
  });

  it('gets the same trade number after the venue’s answer was lost: reported once, one trade', async () => {
    const trade = await confirmedTrade(t);
    const now = new Date();
    t.app.exchange.venue.configure({ answerLossRate: 1 });
    try {
      await t.app.orders.reporter.tick(now);
    } finally {
      t.app.exchange.venue.configure({ answerLossRate: 0 });
    }
    // The venue took both reports and matched them; Dart never heard back.
    const held = await venueBook(t, trade.ticketId);
    expect([held.sell?.status, held.buy?.status]).toEqual(['matched', 'matched']);
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['reporting', 'reporting']);
    expect(rows.order.lastError).toMatch(/answer was lost/);

    await t.app.orders.reporter.tick(new Date(now.getTime() + 10 * MINUTE));
    const after = await orderRows(t, trade.ticketId);
    expect(after.order.state).toBe('reported');
    expect(after.order.exchangeTradeId).toBe(held.sell!.tradeId);
    expect(after.procurement.exchangeTradeId).toBe(held.sell!.tradeId);
    const book = await venueBook(t, trade.ticketId);
    expect(book.trades.map((tr) => tr.tradeId)).toEqual([held.sell!.tradeId]);
    // Each side was sent twice (the lost answer, then the retry) and the venue matched them once.
    expect([book.sell!.submissions, book.buy!.submissions]).toEqual([2, 2]);
    expect(await auditOf(t, 'order.reported', trade.orderId)).toHaveLength(1);
  });

  it('never reports twice after a kill -9 between the venue’s answer and the commit: the lease runs out, same trade id', async () => {
    const trade = await confirmedTrade(t);
    const now = new Date();
    // The node sent both reports (the second one matched them) and was killed before storing either answer.
    await reportAndDie(t.app, t.database, trade.orderId, now);
    const answer = await reportAndDie(t.app, t.database, trade.procurementId, now);
    expect(answer.status).toBe('matched');
    const tradeId = answer.status === 'matched' ? answer.tradeId : '';
    // Its lease still holds the orders: another pass before it runs out sends nothing.
    await t.app.orders.reporter.tick(now);
    expect((await venueBook(t, trade.ticketId)).sell?.submissions).toBe(1);
    // After the lease: reported again, and the venue answers with the first trade number.
    await t.app.orders.reporter.tick(new Date(now.getTime() + REPORTER.LEASE_MS + 1));
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['reported', 'reported']);
    expect([rows.order.exchangeTradeId, rows.procurement.exchangeTradeId]).toEqual([tradeId, tradeId]);
    const book = await venueBook(t, trade.ticketId);
    expect(book.trades).toHaveLength(1);
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reported');
  });

  it('ignores a stale copy of a report the member has since revised', async () => {
    const trade = await confirmedTrade(t);
    const [original] = await t.database.db.select().from(orders).where(eq(orders.id, trade.orderId));
    const view = { isin: (await readOrder(t, 'second', 'order', trade.orderId)).isin, custodianName: null };
    const venue = t.app.exchange.venue;
    const revised = { ...sideReportOf(original!, view), revision: original!.version + 1, price: original!.price + 1 };
    expect((await venue.reportTrade(revised)).status).toBe('pending');
    // The old revision arrives late: the venue keeps the newer terms.
    expect((await venue.reportTrade(sideReportOf(original!, view))).status).toBe('pending');
    expect((await venueBook(t, trade.ticketId)).sell).toMatchObject({
      revision: original!.version + 1,
      price: original!.price + 1,
      submissions: 2,
    });
  });

  it('takes a batch of reports in one call: each trade matched under its own number, a side alone pending, differing sides refused', async () => {
    const [a, b, c] = [await confirmedTrade(t), await confirmedTrade(t), await confirmedTrade(t)];
    const venue = t.app.exchange.venue;
    const aSell = await sideReportFor(t.database, a!.orderId);
    const bBuy = await sideReportFor(t.database, b!.procurementId);
    const batch = [
      aSell,
      await sideReportFor(t.database, a!.procurementId),
      await sideReportFor(t.database, b!.orderId),
      // B's buyer reports another price; C's buyer has not reported yet.
      { ...bBuy, price: bBuy.price + 1 },
      await sideReportFor(t.database, c!.orderId),
    ];
    const answers = await venue.reportTrades(aSell.exchange, batch);
    expect(answers.map((answer) => answer.status)).toEqual(['matched', 'matched', 'refused', 'refused', 'pending']);
    const tradeOfA = answers[0]!.status === 'matched' ? answers[0]!.tradeId : '';
    expect(tradeOfA).toMatch(/^(NSE|BSE)-TRD-\d{6,}$/);
    expect(answers[1]).toMatchObject({ status: 'matched', tradeId: tradeOfA });
    expect(answers[2]).toMatchObject({
      reason: expect.stringContaining(`price (sell ${bBuy.price.toFixed(4)}, buy ${(bBuy.price + 1).toFixed(4)})`),
    });
    const bookOfA = await venueBook(t, a!.ticketId);
    expect([bookOfA.sell?.tradeId, bookOfA.buy?.tradeId, bookOfA.trades.map((trade) => trade.tradeId)]).toEqual([
      tradeOfA,
      tradeOfA,
      [tradeOfA],
    ]);
    expect((await venueBook(t, b!.ticketId)).trades).toHaveLength(0);
    expect((await venueBook(t, c!.ticketId)).sell?.status).toBe('pending');

    // The next batch: C's buyer, and a repeat of A's seller (a retry) answered as before.
    const next = await venue.reportTrades(aSell.exchange, [await sideReportFor(t.database, c!.procurementId), aSell]);
    expect(next[1]).toEqual(answers[0]);
    const tradeOfC = next[0]!.status === 'matched' ? next[0]!.tradeId : '';
    expect(tradeOfC).toMatch(/^(NSE|BSE)-TRD-\d{6,}$/);
    expect(tradeOfC).not.toBe(tradeOfA);
    const bookOfC = await venueBook(t, c!.ticketId);
    expect([bookOfC.sell?.status, bookOfC.buy?.status, bookOfC.trades.map((trade) => trade.tradeId)]).toEqual([
      'matched',
      'matched',
      [tradeOfC],
    ]);
    expect((await venueBook(t, a!.ticketId)).sell?.submissions).toBe(2);

    // The reporter stores the answers it gets again: both trades reported with their numbers, B's orders mismatched.
    await t.app.orders.reporter.tick(new Date(Date.now() + REPORTER.PENDING_RECHECK_MS));
    for (const [trade, tradeId] of [
      [a!, tradeOfA],
      [c!, tradeOfC],
    ] as const) {
      const rows = await orderRows(t, trade.ticketId);
      expect([rows.order.state, rows.procurement.state, rows.order.exchangeTradeId, rows.procurement.exchangeTradeId]).toEqual([
        'reported',
        'reported',
        tradeId,
        tradeId,
      ]);
    }
    // Both tickets reported in one transaction: each with its own history entry, after its earlier ones.
    for (const trade of [a!, c!]) {
      expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reported');
      const [reported] = await historyOf(t, trade.ticketId, 'reported');
      expect(reported).toMatchObject({ fromState: 'reporting', toState: 'reported', seq: 6 });
      expect(await auditOf(t, 'order.reported', trade.orderId)).toHaveLength(1);
    }
    const rowsOfB = await orderRows(t, b!.ticketId);
    expect([rowsOfB.order.state, rowsOfB.procurement.state]).toEqual(['mismatch', 'mismatch']);
  });

  it('raises the reporting alert at 10 minutes and escalates at the 15-minute deadline, once each', async () => {
    const trade = await confirmedTrade(t);
    const tradedAt = new Date((await getTicket(t, 'demo', trade.ticketId)).traded_at).getTime();
    const at = (minutes: number) => new Date(tradedAt + minutes * MINUTE + 1_000);
    t.app.exchange.venue.configure({ failureRate: 1 });
    try {
      await t.app.orders.reporter.tick(at(REPORTING_ALERT_MINUTES - 1));
      expect(await historyOf(t, trade.ticketId, 'report_alert')).toHaveLength(0);
      await t.app.orders.reporter.tick(at(REPORTING_ALERT_MINUTES));
      expect(await historyOf(t, trade.ticketId, 'report_alert')).toHaveLength(1);
      expect((await getTicket(t, 'demo', trade.ticketId)).report_alert).toBe('alert');
      await t.app.orders.reporter.tick(at(REPORTING_ALERT_MINUTES + 2));
      expect(await historyOf(t, trade.ticketId, 'report_alert')).toHaveLength(1);
      expect(await historyOf(t, trade.ticketId, 'report_escalated')).toHaveLength(0);
      await t.app.orders.reporter.tick(at(REPORTING_DEADLINE_MINUTES));
      await t.app.orders.reporter.tick(at(REPORTING_DEADLINE_MINUTES + 5));
      expect(await historyOf(t, trade.ticketId, 'report_alert')).toHaveLength(1);
      expect(await historyOf(t, trade.ticketId, 'report_escalated')).toHaveLength(1);
      const ticket = await getTicket(t, 'second', trade.ticketId);
      expect(ticket).toMatchObject({ state: 'reporting', report_alert: 'escalated' });
      expect(await auditOf(t, 'ticket.report_escalated', trade.ticketId)).toHaveLength(1);
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
    // Reported late: reported all the same.
    await t.app.orders.reporter.tick(at(REPORTING_DEADLINE_MINUTES + 30));
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reported');
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('the order reporter on two nodes', () => {
  let cluster: RedisCluster;
  let a: FastifyInstance;
  let b: FastifyInstance;
  /** The post-trade helpers take a TestApp; node A's API with the shared database. */
  let ta: TestApp;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: '0' });
    [a, b] = cluster.nodes as [FastifyInstance, FastifyInstance];
    ta = { app: a, database: a.deps.database } as TestApp;
    await postTradeActors(ta);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('sends each report once when both nodes report at the same time', async () => {
    const trades = [];
    for (let i = 0; i < 4; i++) trades.push(await confirmedTrade(ta));
    await Promise.all([a.orders.reporter.tick(), b.orders.reporter.tick(), a.orders.reporter.tick(), b.orders.reporter.tick()]);
    for (const trade of trades) {
      const rows = await orderRows(ta, trade.ticketId);
      expect([rows.order.state, rows.procurement.state]).toEqual(['reported', 'reported']);
      const book = await venueBook(ta, trade.ticketId);
      expect([book.sell?.submissions, book.buy?.submissions]).toEqual([1, 1]);
      expect(book.trades).toHaveLength(1);
      expect(await auditOf(ta, 'order.reported', trade.orderId)).toHaveLength(1);
    }
  });

  it('runs the jobs on the elected node only: a ticket confirmed on node B is reported by node A', async () => {
    const sent = { a: 0, b: 0 };
    for (const [name, node] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const venue = node.exchange.venue;
      const report = venue.reportTrades.bind(venue);
      venue.reportTrades = (exchange, reports) => {
        sent[name] += reports.length;
        return report(exchange, reports);
      };
    }
    // Node A is elected first; node B finds the lock held.
    const leaders = [electLeader(a.deps.database, 'test:orders-jobs')];
    await leaders[0]!.ready;
    leaders.push(electLeader(b.deps.database, 'test:orders-jobs'));
    await leaders[1]!.ready;
    expect(leaders.map((l) => l.isLeader())).toEqual([true, false]);
    a.orders.startJobs(leaders[0]!.isLeader);
    b.orders.startJobs(leaders[1]!.isLeader);
    try {
      const tb = { app: b, database: b.deps.database } as TestApp;
      await postTradeActors(tb);
      const trade = await confirmedTrade(tb);
      // Node A hears of the new orders over the bus and reports them at once (its 1 s pass as a fallback).
      const until = Date.now() + 10_000;
      while ((await orderRows(ta, trade.ticketId)).order.state !== 'reported') {
        if (Date.now() > until) throw new Error('never reported');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(sent).toEqual({ a: 2, b: 0 });
    } finally {
      await a.orders.stop();
      await b.orders.stop();
      for (const l of leaders) await l.stop();
    }
  }, 90_000);

  it('takes over a report from a node killed mid-report: same trade number, one trade', async () => {
    const trade = await confirmedTrade(ta);
    const now = new Date();
    // Node A sent both reports and died before storing the answers.
    await reportAndDie(a, a.deps.database, trade.orderId, now);
    const answer = await reportAndDie(a, a.deps.database, trade.procurementId, now);
    await a.close();
    cluster.nodes.splice(cluster.nodes.indexOf(a), 1);
    const tb = { app: b, database: b.deps.database } as TestApp;
    await b.orders.reporter.tick(new Date(now.getTime() + REPORTER.LEASE_MS + 1));
    const rows = await orderRows(tb, trade.ticketId);
    expect(answer.status === 'matched' && [rows.order.exchangeTradeId, rows.procurement.exchangeTradeId]).toEqual([
      answer.status === 'matched' ? answer.tradeId : null,
      answer.status === 'matched' ? answer.tradeId : null,
    ]);
    expect((await venueBook(tb, trade.ticketId)).trades).toHaveLength(1);
    await b.orders.settlement.tick();
    expect((await orderRows(tb, trade.ticketId)).order.state).toBe('settled');
  });
});
