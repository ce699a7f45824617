/**
 * Orders of an exchange-RFQ deal, on PGlite and PostgreSQL: the RFQ platform reports the deal itself, so a
 * confirmed ticket from such a deal is never reported again on the OTC trade reporting platform. Its orders take
 * the RFQ platform's one trade number (orders, ticket history, `exchange_trades`, the clearing corporation) and
 * settle from the clearing corporation's one record of that trade; a report still pending is waited for without
 * a back-off, a report failed for good is shown on the orders and the ticket escalates. A negotiation deal
 * still gets its OTC report (regression).
 */
import type { Order, Ticket } from '@dart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeSimReports, exchangeSimSettlements, exchangeSimTrades, exchangeTrades } from '../src/db/schema';
import { RFQ_REPORT } from '../src/modules/orders';
import { createTestApp, DRIVERS, exchangeRfqBody, json, type TestApp } from './helpers';
import { auditOf, confirmedTrade, historyOf, orderRows, readOrder, venueBook } from './orders-support';
import { bondId, call, confirmTicket, getTicket, GSEC_2033, postTradeActors } from './post-trade-support';

const MINUTE = 60_000;

describe.each(DRIVERS)('orders of an exchange-RFQ deal (%s)', (driver) => {
  let t: TestApp;
  let gsec: number;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: '0' });
    await postTradeActors(t);
    gsec = await bondId(t, GSEC_2033);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Demo Capital raises a disclosed NSE RFQ to buy, Second Bank counters it and Demo Capital accepts: a deal on
   * the RFQ platform, reported there by the exchange service (or not, when `venueDown`). Returns the deal's ticket.
   */
  async function rfqDeal(quantum: number, venueDown = false): Promise<{ dealId: string; ticket: Ticket }> {
    const raised = await call(
      t,
      'demo',
      'POST',
      '/api/trade/eoi/',
      exchangeRfqBody(gsec, { quote_type: 'BID', quantum, rfq_anonymous: false }),
    );
    expect(raised.statusCode, raised.body).toBe(201);
    const quoteId = json<{ id: string }>(raised).id;
    const counter = await call(t, 'second', 'POST', '/api/eoi/add-negotiation/', { quote_id: quoteId, yield_stored: 0.0713, quantum });
    expect(counter.statusCode, counter.body).toBe(200);
    if (venueDown) t.app.exchange.venue.configure({ failureRate: 1 });
    try {
      const accepted = await call(t, 'demo', 'POST', '/api/eoi/add-negotiation/', {
        quote_id: quoteId,
        negotiation_id: json<{ id: string }>(counter).id,
        action: 'accept',
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const dealId = json<{ deal: { id: string } }>(accepted).deal.id;
      await t.app.exchange.service.settle();
      const made = await call(t, 'demo', 'POST', '/api/chatter/trade/', { deal_id: dealId });
      expect(made.statusCode, made.body).toBe(200);
      const ticket = json<Ticket>(made);
      expect(ticket.source).toBe('exchange_rfq');
      return { dealId, ticket };
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
  }

  const rfqTradeOf = async (dealId: string) =>
    (await t.database.db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, dealId)))[0]!;
  const otcReportsOf = (ticketId: string) =>
    t.database.db.select().from(exchangeSimReports).where(eq(exchangeSimReports.ticketId, ticketId));
  const clearingOf = (ticketId: string) =>
    t.database.db.select().from(exchangeSimSettlements).where(eq(exchangeSimSettlements.ticketId, ticketId));

  it('takes the RFQ platform’s one trade id on both orders and the ticket, files no OTC report, and settles it', async () => {
    const { dealId, ticket } = await rfqDeal(300);
    const rfq = await rfqTradeOf(dealId);
    expect(rfq).toMatchObject({ reportStatus: 'reported', exchange: 'NSE', clearingCorporation: 'NSCCL' });
    const tradeId = rfq.exchangeTradeId!;
    expect(tradeId).toMatch(/^NSE-TRD-\d{6}$/);
    // The RFQ platform handed its trade to NSCCL under its own number, with the ticket as its reference.
    expect(await clearingOf(ticket.id)).toEqual([
      expect.objectContaining({ tradeId, clearingCorporation: 'NSCCL', status: 'pending', payinRuns: 0 }),
    ]);

    await confirmTicket(t, ticket.id);
    const booked = await orderRows(t, ticket.id);
    expect([booked.order.state, booked.procurement.state]).toEqual(['reporting', 'reporting']);
    // A modify has no report of this side to change: the RFQ platform reported the deal on its terms.
    const modify = await call(t, 'second', 'PUT', `/api/orders/${booked.order.id}/modify/`, { version: booked.order.version, price: 99 });
    expect(modify.statusCode, modify.body).toBe(409);
    expect(json<{ message: string }>(modify).message).toBe(
      'This order is reporting: modify of a trade done on the exchange RFQ platform is not allowed.',
    );

    await t.app.orders.reporter.tick();
    const rows = await orderRows(t, ticket.id);
    for (const row of [rows.order, rows.procurement]) {
      expect(row).toMatchObject({ state: 'reported', exchangeTradeId: tradeId, exchangeReportRef: null, lastError: null, reason: null });
      expect(row.price).toBe(ticket.price);
      expect(row.considerationPaise).toBe(booked.order.considerationPaise);
    }
    const seller = await readOrder(t, 'second', 'order', rows.order.id);
    const buyer = await readOrder(t, 'demo', 'procurement', rows.procurement.id);
    expect([seller.exchange_trade_id, buyer.exchange_trade_id]).toEqual([tradeId, tradeId]);
    expect((await getTicket(t, 'demo', ticket.id)).state).toBe('reported');
    const reported = await historyOf(t, ticket.id, 'reported');
    expect(reported.map((h) => (h.changes as { exchange_trade_id?: string }).exchange_trade_id)).toEqual([tradeId]);
    expect(await auditOf(t, 'order.reported', rows.order.id)).toHaveLength(1);
    // Never reported as an OTC trade: no side report, and one trade at the venue for the deal.
    expect(await otcReportsOf(ticket.id)).toEqual([]);
    expect(await t.database.db.select().from(exchangeSimTrades).where(eq(exchangeSimTrades.dealId, dealId))).toHaveLength(1);

    // Settlement: the orders' job and the RFQ deal's job read the clearing corporation's one record.
    await t.app.orders.settlement.tick();
    const settled = await orderRows(t, ticket.id);
    expect([settled.order.state, settled.procurement.state]).toEqual(['settled', 'settled']);
    expect((await getTicket(t, 'second', ticket.id)).state).toBe('settled');
    await t.app.exchange.service.tick();
    expect((await rfqTradeOf(dealId)).settlementStatus).toBe('settled');
    const [cleared] = await clearingOf(ticket.id);
    expect(cleared).toMatchObject({ tradeId, status: 'settled', payinRuns: 1 });
    // One trade number everywhere: orders, ticket, the RFQ deal's record, the clearing corporation.
    const confirmed = await call(t, 'demo', 'GET', `/api/chatter/trade/confirmed-trade/${ticket.id}/`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.body.match(/NSE-TRD-\d{6}/g)?.every((id) => id === tradeId)).toBe(true);
  });

  it('fails the orders with the clearing corporation’s reason, and a retry settles the same trade', async () => {
    const { dealId, ticket } = await rfqDeal(200);
    const tradeId = (await rfqTradeOf(dealId)).exchangeTradeId!;
    t.app.exchange.venue.configure({
      settlementOutcome: (trade) => (trade.tradeId === tradeId && trade.payinRun === 1 ? 'funds' : undefined),
    });
    try {
      await confirmTicket(t, ticket.id);
      await t.app.orders.tick();
      let rows = await orderRows(t, ticket.id);
      expect([rows.order.state, rows.procurement.state]).toEqual(['failed', 'failed']);
      expect(rows.order.reason).toBe('Shortage of funds at pay-in');
      await t.app.exchange.service.tick();
      expect((await rfqTradeOf(dealId)).settlementStatus).toBe('failed');

      const retry = await call(t, 'demo', 'PATCH', `/api/procurement-orders/settle-cancel/${rows.procurement.id}/settle/`, {
        version: rows.procurement.version,
      });
      expect(retry.statusCode, retry.body).toBe(200);
      await t.app.orders.settlement.tick();
      rows = await orderRows(t, ticket.id);
      expect([rows.order.state, rows.procurement.state]).toEqual(['settled', 'settled']);
      expect(rows.order.exchangeTradeId).toBe(tradeId);
      // The RFQ deal's record follows the retry too.
      await t.app.exchange.service.tick();
      expect((await rfqTradeOf(dealId)).settlementStatus).toBe('settled');
      expect(await clearingOf(ticket.id)).toEqual([expect.objectContaining({ tradeId, status: 'settled', payinRuns: 2 })]);
    } finally {
      t.app.exchange.venue.configure({ settlementOutcome: undefined });
    }
  });

  it('waits for an RFQ report still pending without backing off, then takes it', async () => {
    const { dealId, ticket } = await rfqDeal(400, true);
    expect(await rfqTradeOf(dealId)).toMatchObject({ reportStatus: 'pending', attempts: 1, exchangeTradeId: null });
    await confirmTicket(t, ticket.id);
    const now = new Date();
    await t.app.orders.reporter.tick(now);
    let rows = await orderRows(t, ticket.id);
    for (const row of [rows.order, rows.procurement]) {
      expect(row).toMatchObject({ state: 'reporting', reportAttempts: 0, exchangeTradeId: null, reason: null });
      expect(row.nextReportAt!.getTime()).toBe(now.getTime() + RFQ_REPORT.PENDING_RECHECK_MS);
      expect(row.lastError).toMatch(/^The NSE RFQ platform has not taken the deal's report yet: .*injected failure/);
    }
    // Asked again and again while pending: the wait stays the same, and nothing goes to the OTC platform.
    await t.app.orders.reporter.tick(new Date(now.getTime() + RFQ_REPORT.PENDING_RECHECK_MS));
    rows = await orderRows(t, ticket.id);
    expect(rows.order.nextReportAt!.getTime()).toBe(now.getTime() + 2 * RFQ_REPORT.PENDING_RECHECK_MS);
    expect(rows.order.reportAttempts).toBe(0);
    expect(await auditOf(t, 'order.report_failed', rows.order.id)).toHaveLength(0);
    expect(await otcReportsOf(ticket.id)).toEqual([]);

    // The exchange job reports the deal; the next look takes its trade number.
    await t.app.exchange.service.tick();
    const tradeId = (await rfqTradeOf(dealId)).exchangeTradeId!;
    expect(tradeId).toMatch(/^NSE-TRD-/);
    await t.app.orders.reporter.tick(new Date(now.getTime() + 3 * RFQ_REPORT.PENDING_RECHECK_MS));
    rows = await orderRows(t, ticket.id);
    expect([rows.order.state, rows.procurement.state]).toEqual(['reported', 'reported']);
    expect([rows.order.exchangeTradeId, rows.procurement.exchangeTradeId]).toEqual([tradeId, tradeId]);
    expect(rows.order.lastError).toBeNull();
    await t.app.orders.settlement.tick();
    expect((await orderRows(t, ticket.id)).order.state).toBe('settled');
    expect(await otcReportsOf(ticket.id)).toEqual([]);
  });

  it('shows an RFQ report failed for good on the orders, keeps them reporting for ops, and lets them be cancelled', async () => {
    const { dealId, ticket } = await rfqDeal(500, true);
    t.app.exchange.venue.configure({ failureRate: 1 });
    try {
      for (let i = 0; i < 4; i++) await t.app.exchange.service.tick();
    } finally {
      t.app.exchange.venue.configure({ failureRate: 0 });
    }
    expect(await rfqTradeOf(dealId)).toMatchObject({ reportStatus: 'failed', attempts: 5, exchangeTradeId: null });
    await confirmTicket(t, ticket.id);
    const now = new Date();
    await t.app.orders.reporter.tick(now);
    let rows = await orderRows(t, ticket.id);
    for (const row of [rows.order, rows.procurement]) {
      expect(row).toMatchObject({ state: 'reporting', exchangeTradeId: null, reportAttempts: 0 });
      expect(row.lastError).toMatch(
        /^The NSE RFQ platform did not take the deal's report after 5 attempts \(.*injected failure\); it is not tried again\.$/,
      );
      expect(row.reason).toBe(row.lastError);
      expect(row.nextReportAt!.getTime()).toBe(now.getTime() + RFQ_REPORT.FAILED_RECHECK_MS);
      expect(await auditOf(t, 'order.report_failed', row.id)).toHaveLength(1);
    }
    // The firm sees why on its order.
    const seen: Order = await readOrder(t, 'second', 'order', rows.order.id);
    expect(seen).toMatchObject({ state: 'reporting', reason: rows.order.reason });
    // Looked at again later: the same problem is not audited twice; the ticket escalates past the deadline.
    await t.app.orders.reporter.tick(new Date(now.getTime() + RFQ_REPORT.FAILED_RECHECK_MS));
    expect(await auditOf(t, 'order.report_failed', rows.order.id)).toHaveLength(1);
    const tradedAt = new Date(ticket.traded_at).getTime();
    await t.app.orders.reporter.tick(new Date(tradedAt + 11 * MINUTE));
    await t.app.orders.reporter.tick(new Date(tradedAt + 16 * MINUTE));
    expect(await getTicket(t, 'demo', ticket.id)).toMatchObject({ state: 'reporting', report_alert: 'escalated' });
    expect(await otcReportsOf(ticket.id)).toEqual([]);

    rows = await orderRows(t, ticket.id);
    const cancelled = await call(t, 'second', 'POST', `/api/orders/${rows.order.id}/cancel/`, {
      version: rows.order.version,
      reason: 'Not reported on the RFQ platform.',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    rows = await orderRows(t, ticket.id);
    expect([rows.order.state, rows.procurement.state]).toEqual(['cancelled', 'cancelled']);
    expect((await getTicket(t, 'demo', ticket.id)).state).toBe('cancelled');
  });

  it('still reports a negotiation deal as an OTC trade on the reporting platform (regression)', async () => {
    const trade = await confirmedTrade(t);
    expect(trade.ticket.source).toBe('negotiation');
    await t.app.orders.reporter.tick();
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['reported', 'reported']);
    const book = await venueBook(t, trade.ticketId);
    expect([book.sell?.status, book.buy?.status]).toEqual(['matched', 'matched']);
    expect(book.trades.map((tr) => tr.tradeId)).toEqual([rows.order.exchangeTradeId]);
    expect(rows.order.exchangeReportRef).toBe(book.sell!.ref);
    const dealId = (await t.database.query<{ deal_id: string }>(`SELECT deal_id FROM tickets WHERE id = $1`, [trade.ticketId]))[0]!.deal_id;
    expect(await t.database.db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, dealId))).toEqual([]);
    await t.app.orders.settlement.tick();
    expect((await orderRows(t, trade.ticketId)).order.state).toBe('settled');
  });
});
