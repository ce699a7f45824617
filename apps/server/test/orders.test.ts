/**
 * Orders and procurement orders through the HTTP API (spec trading-domain §7 "Orders"), on PGlite and
 * PostgreSQL: every call with its allowed and refused transitions (409 naming the state), another firm's order
 * 404, view-only roles 403, BASIC 402; the reporter matching both sides on the simulated NSE reporting platform,
 * a mismatch fixed by a modify, settlement at NSCCL (settled, failed with the reason, retried, cancelled), the
 * unified list with the spec's filters, CSV/XLSX export and the contract note PDF. Venue outages, crashes,
 * the deadline alerts and two nodes are in orders-reporting.test.ts.
 */
import { ORDER_STATE_LABELS, OrderListSchema, SETTLEMENT_FAILURE_REASONS, type Order } from '@dart/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { audienceOf, auditOf, confirmedTrade, orderRows, pdfText, readOrder, venueBook, type ConfirmedTrade } from './orders-support';
import { call, getTicket, makeDeal, postTradeActors, GSEC_2033, HDFC_NCD } from './post-trade-support';

type List = { count: number; page: number; page_size: number; results: Order[] };

describe.each(DRIVERS)('orders and procurement orders (%s)', (driver) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice', EXCHANGE_SIM_SETTLE_MS: '0' });
    await postTradeActors(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A confirmed trade reported and matched at the venue (both orders `reported`). */
  const reportedTrade = async (options: Parameters<typeof confirmedTrade>[1] = {}): Promise<ConfirmedTrade> => {
    const trade = await confirmedTrade(t, options);
    await t.app.orders.reporter.tick();
    const rows = await orderRows(t, trade.ticketId);
    expect([rows.order.state, rows.procurement.state]).toEqual(['reported', 'reported']);
    return trade;
  };

  it('reports both sides of a confirmed ticket and matches them into one trade: orders and ticket reported', async () => {
    const trade = await confirmedTrade(t);
    const before = await readOrder(t, 'second', 'order', trade.orderId);
    expect(before).toMatchObject({
      kind: 'order',
      state: 'reporting',
      state_label: 'Reporting',
      buy_or_sell: 'sell',
      counterparty_name: 'Demo Capital',
      isin: HDFC_NCD,
      exchange: 'NSE',
      clearing_corporation: 'NSCCL',
      exchange_trade_id: null,
      ticket_id: trade.ticketId,
    });
    expect(before.number).toMatch(/^ORD-\d{6}$/);
    expect(before.consideration.consideration).toBe(trade.ticket.consideration.consideration);
    expect(before.custodian_name).toBeTruthy();
    const procurement = await readOrder(t, 'demo', 'procurement', trade.procurementId);
    expect(procurement).toMatchObject({ kind: 'procurement', buy_or_sell: 'buy', counterparty_name: 'Second Bank' });
    expect(procurement.number).toMatch(/^PRO-\d{6}$/);

    await t.app.orders.reporter.tick();
    const order = await readOrder(t, 'second', 'order', trade.orderId);
    const bought = await readOrder(t, 'demo', 'procurement', trade.procurementId);
    expect(order.state).toBe('reported');
    expect(order.exchange_trade_id).toMatch(/^NSE-TRD-\d{6}$/);
    expect(bought.exchange_trade_id).toBe(order.exchange_trade_id);
    expect(order.reported_at).not.toBeNull();
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reported');

    // The venue holds one report per side, each sent once, and one trade at NSCCL.
    const book = await venueBook(t, trade.ticketId);
    expect(book.sell).toMatchObject({ status: 'matched', submissions: 1, member: (await postTradeActors(t)).second.clientId });
    expect(book.buy).toMatchObject({ status: 'matched', submissions: 1, member: (await postTradeActors(t)).demo.clientId });
    expect(book.trades).toHaveLength(1);
    expect(book.trades[0]).toMatchObject({ tradeId: order.exchange_trade_id, clearingCorporation: 'NSCCL', status: 'pending' });
    expect(book.trades[0]!.sellerCustodian).toBe(order.custodian_name);

    // Audited, and announced live to both firms of the trade (and no one else).
    expect(await auditOf(t, 'order.reported', trade.orderId)).toHaveLength(1);
    const actors = await postTradeActors(t);
    expect(await audienceOf(t, 'trade.open_orders', 'order_id', trade.orderId)).toEqual(
      [actors.demo.clientId, actors.second.clientId].sort(),
    );
    // Each names the firm whose order it is (the seller's here): the bell tells that firm only (notifications README).
    const owners = await t.database.query<{ owner: string }>(
      `SELECT DISTINCT payload->>'client_id' AS owner FROM events WHERE topic = 'trade.open_orders' AND payload->>'order_id' = $1`,
      [trade.orderId],
    );
    expect(owners).toEqual([{ owner: actors.second.clientId }]);
    const refresh = await t.database.query<{ client_id: string }>(
      `SELECT client_id FROM events WHERE topic = 'trade.refresh_tickets' AND payload->>'ticket_id' = $1 AND payload->>'action' = 'reported'`,
      [trade.ticketId],
    );
    expect(refresh.map((r) => r.client_id).sort()).toEqual([actors.demo.clientId, actors.second.clientId].sort());
    // A user's step names the firm that acted (the bell spares it, notifications README); the system's names none.
    const stepActors = await t.database.query<{ action: string; actor: string | null }>(
      `SELECT DISTINCT payload->>'action' AS action, payload->>'actor_client_id' AS actor FROM events
        WHERE topic = 'trade.refresh_tickets' AND payload->>'ticket_id' = $1 AND payload->>'action' IN ('price', 'accept_consideration', 'reported')`,
      [trade.ticketId],
    );
    const byActionAndActor = (a: { action: string; actor: string | null }, b: typeof a) =>
      a.action.localeCompare(b.action) || String(a.actor).localeCompare(String(b.actor));
    expect(stepActors.sort(byActionAndActor)).toEqual(
      [
        { action: 'accept_consideration', actor: actors.demo.clientId },
        { action: 'accept_consideration', actor: actors.second.clientId },
        { action: 'price', actor: actors.second.clientId },
        { action: 'reported', actor: null },
      ].sort(byActionAndActor),
    );

    // A second pass changes nothing: no second report, no second trade.
    await t.app.orders.reporter.tick();
    expect((await venueBook(t, trade.ticketId)).trades).toHaveLength(1);
  });

  it('keeps each firm to its own side: 404 for another firm or the other kind, reads for viewers, back office and compliance', async () => {
    const trade = await confirmedTrade(t);
    // The seller's order is Second Bank's: Demo Capital (the buyer) and a broker see 404.
    expect((await call(t, 'demo', 'GET', `/api/orders/${trade.orderId}/`)).statusCode).toBe(404);
    expect((await call(t, 'broker', 'GET', `/api/orders/${trade.orderId}/`)).statusCode).toBe(404);
    // A procurement order is not an order: the other path is 404 even for its own firm.
    expect((await call(t, 'demo', 'GET', `/api/orders/${trade.procurementId}/`)).statusCode).toBe(404);
    expect(json(await call(t, 'demo', 'GET', `/api/orders/${trade.procurementId}/`)).message).toBe('Order not found.');
    // The firm's dealers, viewers, back office and compliance officers read (compliance reads the firm's trades,
    // issue 16); BASIC firms get 402.
    for (const who of ['demo', 'viewer', 'backoffice', 'compliance'] as const)
      expect((await call(t, who, 'GET', `/api/procurement-orders/${trade.procurementId}/`)).statusCode, who).toBe(200);
    expect((await call(t, 'basic', 'GET', '/api/orders/unified/')).statusCode).toBe(402);
    // Only traders act: viewer and back office are refused, view-only as such.
    const viewer = await call(t, 'viewer', 'POST', '/api/procurement-orders/', { ticket_id: trade.ticketId });
    expect(viewer.statusCode).toBe(403);
    expect((await call(t, 'backoffice', 'POST', '/api/procurement-orders/', { ticket_id: trade.ticketId })).statusCode).toBe(403);
    const compliance = await call(t, 'compliance', 'POST', `/api/procurement-orders/${trade.procurementId}/cancel/`, {
      version: 1,
      reason: 'x',
    });
    expect(compliance.statusCode).toBe(403);
  });

  it('POST reports the firm’s side now and answers the existing order: idempotent, side and state checked', async () => {
    const made = await makeDeal(t);
    // Not confirmed yet: no order to report.
    const early = await call(t, 'second', 'POST', '/api/orders/', { ticket_id: made.ticketId });
    expect(early.statusCode).toBe(409);
    expect(json(early).message).toBe('This ticket is not confirmed yet: both sides must accept the consideration first.');
    expect((await call(t, 'broker', 'POST', '/api/orders/', { ticket_id: made.ticketId })).statusCode).toBe(404);
    expect((await call(t, 'demo', 'POST', '/api/orders/', { ticket_id: crypto.randomUUID() })).statusCode).toBe(404);
    expect((await call(t, 'demo', 'POST', '/api/orders/', { ticket_id: 'nope' })).statusCode).toBe(400);

    const trade = await confirmedTrade(t);
    // The buyer reports orders? No: only the seller reports an order, only the buyer a procurement order.
    const wrong = await call(t, 'demo', 'POST', '/api/orders/', { ticket_id: trade.ticketId });
    expect(wrong.statusCode).toBe(403);
    expect(json(wrong).message).toBe('Only the seller reports an order.');
    // The seller reports now: the venue holds its report, pending the buyer's.
    const first = await call(t, 'second', 'POST', '/api/orders/', { ticket_id: trade.ticketId });
    expect(first.statusCode, first.body).toBe(200);
    expect(json<Order>(first)).toMatchObject({ id: trade.orderId, state: 'reporting' });
    expect((await venueBook(t, trade.ticketId)).sell).toMatchObject({ status: 'pending', submissions: 1 });
    // The buyer reports its procurement order: the venue matches the two.
    const second = await call(t, 'demo', 'POST', '/api/procurement-orders/', { ticket_id: trade.ticketId });
    expect(json<Order>(second)).toMatchObject({ id: trade.procurementId, state: 'reported' });
    expect((await readOrder(t, 'second', 'order', trade.orderId)).state).toBe('reported');
    // Again: the existing order, nothing sent.
    const again = await call(t, 'second', 'POST', '/api/orders/', { ticket_id: trade.ticketId });
    expect(json<Order>(again)).toMatchObject({ id: trade.orderId, state: 'reported' });
    expect((await venueBook(t, trade.ticketId)).sell).toMatchObject({ status: 'matched', submissions: 1 });
    expect((await venueBook(t, trade.ticketId)).trades).toHaveLength(1);
  });

  it('refuses both reports when one side modified its price, naming the field; a modify back matches them', async () => {
    const trade = await confirmedTrade(t);
    const order = await readOrder(t, 'second', 'order', trade.orderId);
    // The seller's report says another price (before anything was sent).
    const modified = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/modify/`, {
      version: order.version,
      price: Number((order.price + 0.5).toFixed(4)),
    });
    expect(modified.statusCode, modified.body).toBe(200);
    const changed = json<Order>(modified);
    expect(changed).toMatchObject({ state: 'reporting', price: Number((order.price + 0.5).toFixed(4)) });
    expect(changed.consideration.consideration).toBeGreaterThan(order.consideration.consideration);
    expect(changed.yield).toBeLessThan(order.yield);
    expect(await auditOf(t, 'order.modified', trade.orderId)).toHaveLength(1);

    await t.app.orders.reporter.tick();
    const sell = await readOrder(t, 'second', 'order', trade.orderId);
    const buy = await readOrder(t, 'demo', 'procurement', trade.procurementId);
    expect(sell.state).toBe('mismatch');
    expect(buy.state).toBe('mismatch');
    expect(sell.reason).toMatch(/do not match on price \(sell [\d.]+, buy [\d.]+\)/);
    expect(buy.reason).toBe(sell.reason);
    expect((await venueBook(t, trade.ticketId)).trades).toHaveLength(0);
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reporting');

    // A stale version is refused; the PUT method belongs to orders, procurement orders modify by PATCH.
    const stale = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/modify/`, { version: order.version, price: order.price });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toBe('This order was changed by someone else. Reload it and try again.');
    expect(
      (await call(t, 'demo', 'PUT', `/api/procurement-orders/${trade.procurementId}/modify/`, { version: buy.version })).statusCode,
    ).toBe(404);
    expect((await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/modify/`, { version: sell.version })).statusCode).toBe(400);

    // The seller puts its price back: re-reported at once, matched.
    const fixed = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/modify/`, { version: sell.version, price: order.price });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(json<Order>(fixed)).toMatchObject({ state: 'reported', reason: null });
    expect(json<Order>(fixed).consideration.consideration).toBe(order.consideration.consideration);
    expect((await readOrder(t, 'demo', 'procurement', trade.procurementId)).state).toBe('reported');
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('reported');
    expect((await venueBook(t, trade.ticketId)).sell).toMatchObject({ status: 'matched', revision: json<Order>(fixed).version - 1 });

    // Once reported, modify is refused with the state named.
    const late = await call(t, 'demo', 'PATCH', `/api/procurement-orders/${trade.procurementId}/modify/`, {
      version: (await readOrder(t, 'demo', 'procurement', trade.procurementId)).version,
      quantum: 100_000,
    });
    expect(late.statusCode).toBe(409);
    expect(json(late).message).toBe('This order is reported: modify is not allowed.');
  });

  it('re-reports after a mismatch when the other side fixed its report, and modifies the custodian by PATCH', async () => {
    const trade = await confirmedTrade(t);
    const buy = await readOrder(t, 'demo', 'procurement', trade.procurementId);
    const moved = await call(t, 'demo', 'PATCH', `/api/procurement-orders/${trade.procurementId}/modify/`, {
      version: buy.version,
      quantum: buy.quantum * 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await t.app.orders.reporter.tick();
    const mismatch = await readOrder(t, 'second', 'order', trade.orderId);
    expect(mismatch.reason).toMatch(/face value/);
    // The buyer sets its size back, the seller re-reports: matched.
    const back = await call(t, 'demo', 'PATCH', `/api/procurement-orders/${trade.procurementId}/modify/`, {
      version: (await readOrder(t, 'demo', 'procurement', trade.procurementId)).version,
      quantum: buy.quantum,
    });
    expect(json<Order>(back).state).toBe('reported');
    expect((await readOrder(t, 'second', 'order', trade.orderId)).state).toBe('reported');

    // A modify of the custodian only (before reporting) keeps the terms.
    const other = await confirmedTrade(t);
    const custodians = json<Array<{ client_id: string; name: string }>>(await call(t, 'demo', 'GET', '/api/client/search-custodians/'));
    const pick = custodians[custodians.length - 1]!;
    const own = await readOrder(t, 'demo', 'procurement', other.procurementId);
    const patched = await call(t, 'demo', 'PATCH', `/api/procurement-orders/${other.procurementId}/modify/`, {
      version: own.version,
      custodian_id: pick.client_id,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(json<Order>(patched)).toMatchObject({ custodian_name: pick.name, price: own.price, quantum: own.quantum });
    const unknown = await call(t, 'demo', 'PATCH', `/api/procurement-orders/${other.procurementId}/modify/`, {
      version: json<Order>(patched).version,
      custodian_id: crypto.randomUUID(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(unknown).errors).toEqual({ custodian_id: ['Unknown custodian.'] });
  });

  it('accepts a reported trade, and a rejection of the consideration cancels it on both sides and at the venue', async () => {
    const trade = await reportedTrade();
    const buy = await readOrder(t, 'demo', 'procurement', trade.procurementId);
    const accepted = await call(t, 'demo', 'PUT', `/api/procurement-orders/${trade.procurementId}/accept-reject/`, {
      version: buy.version,
      reported_order_status: 'ACCEPTED',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(json<Order>(accepted)).toMatchObject({ state: 'accepted', reported_order_status: 'ACCEPTED' });
    const twice = await call(t, 'demo', 'PUT', `/api/procurement-orders/${trade.procurementId}/accept-reject/`, {
      version: json<Order>(accepted).version,
      reported_order_status: 'ACCEPTED',
    });
    expect(twice.statusCode).toBe(409);
    expect(json(twice).message).toBe('This order is accepted: accept is not allowed.');

    const sell = await readOrder(t, 'second', 'order', trade.orderId);
    const noReason = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/accept-reject/`, {
      version: sell.version,
      reported_order_status: 'REJECTED',
    });
    expect(noReason.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(noReason).errors).toEqual({ reason: ['Please give a reason.'] });
    const bad = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/accept-reject/`, {
      version: sell.version,
      reported_order_status: 'MAYBE',
    });
    expect(json(bad).message).toBe('reported_order_status should be ACCEPTED or REJECTED.');
    const rejected = await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/accept-reject/`, {
      version: sell.version,
      reported_order_status: 'REJECTED',
      reason: 'Consideration differs from our books',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(json<Order>(rejected)).toMatchObject({
      state: 'rejected',
      reported_order_status: 'REJECTED',
      reason: 'Consideration differs from our books',
    });
    expect(await readOrder(t, 'demo', 'procurement', trade.procurementId)).toMatchObject({
      state: 'cancelled',
      reason: 'Consideration differs from our books',
    });
    expect(await getTicket(t, 'demo', trade.ticketId)).toMatchObject({
      state: 'cancelled',
      reason: 'Consideration differs from our books',
    });
    const book = await venueBook(t, trade.ticketId);
    expect([book.sell?.status, book.buy?.status, book.trades[0]?.status]).toEqual(['cancelled', 'cancelled', 'cancelled']);
    // Nothing settles a cancelled trade.
    await t.app.orders.settlement.tick();
    expect((await readOrder(t, 'second', 'order', trade.orderId)).state).toBe('rejected');
  });

  it('cancels a trade before it settles, with the reason, on both sides; then refuses every action', async () => {
    const trade = await confirmedTrade(t);
    const sell = await readOrder(t, 'second', 'order', trade.orderId);
    const noReason = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, { version: sell.version });
    expect(noReason.statusCode).toBe(400);
    const stale = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, {
      version: sell.version + 5,
      reason: 'Booked twice',
    });
    expect(stale.statusCode).toBe(409);
    const key = { 'idempotency-key': `cancel-${trade.orderId}` };
    const body = { version: sell.version, reason: 'Booked twice' };
    const cancelled = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, body, key);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // A retry of the same submit (a lost response) gets the same answer back, not a 409.
    const retried = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, body, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotency-replayed']).toBe('true');
    expect(json<Order>(retried).version).toBe(json<Order>(cancelled).version);
    expect(json<Order>(cancelled)).toMatchObject({ state: 'cancelled', reason: 'Booked twice' });
    expect((await readOrder(t, 'demo', 'procurement', trade.procurementId)).state).toBe('cancelled');
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('cancelled');
    expect(await auditOf(t, 'order.cancelled', trade.procurementId)).toHaveLength(1);
    // The reporter sends nothing for it any more.
    await t.app.orders.reporter.tick();
    expect((await venueBook(t, trade.ticketId)).trades).toHaveLength(0);

    const version = json<Order>(cancelled).version;
    const again = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, { version, reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toBe('This order is cancelled: cancel is not allowed.');
    expect(json(await call(t, 'second', 'PUT', `/api/orders/${trade.orderId}/modify/`, { version, price: 100 })).message).toBe(
      'This order is cancelled: modify is not allowed.',
    );
    const settle = await call(t, 'second', 'PATCH', `/api/orders/settle-cancel/${trade.orderId}/settle/`, { version });
    expect(settle.statusCode).toBe(409);
    expect(json(settle).message).toBe('This order is cancelled: settle is not allowed.');
    // POST answers the existing (cancelled) order: idempotent, nothing reported.
    expect(json<Order>(await call(t, 'second', 'POST', '/api/orders/', { ticket_id: trade.ticketId })).state).toBe('cancelled');
  });

  it('settles a reported trade at NSCCL: orders and ticket settled, once', async () => {
    const trade = await reportedTrade();
    await t.app.orders.settlement.tick();
    const sell = await readOrder(t, 'second', 'order', trade.orderId);
    expect(sell).toMatchObject({ state: 'settled', state_label: ORDER_STATE_LABELS.settled });
    expect(sell.settled_at).not.toBeNull();
    expect((await readOrder(t, 'demo', 'procurement', trade.procurementId)).state).toBe('settled');
    expect((await getTicket(t, 'second', trade.ticketId)).state).toBe('settled');
    await t.app.orders.settlement.tick();
    const book = await venueBook(t, trade.ticketId);
    expect(book.trades[0]).toMatchObject({ status: 'settled', payinRuns: 1 });
    expect(await auditOf(t, 'order.settled', trade.orderId)).toHaveLength(1);
    // Settled is final: cancel is refused with the state named.
    const cancel = await call(t, 'second', 'POST', `/api/orders/${trade.orderId}/cancel/`, { version: sell.version, reason: 'Late' });
    expect(json(cancel).message).toBe('This order is settled: cancel is not allowed.');
  });

  it('asks the clearing corporation for an exchange’s unsettled trades in one query; a lost answer settles them on the next pass, once', async () => {
    const trades = [await reportedTrade(), await reportedTrade()];
    const tradeIds = await Promise.all(trades.map(async (trade) => (await orderRows(t, trade.ticketId)).order.exchangeTradeId!));
    const venue = t.app.exchange.venue;
    const asked: string[][] = [];
    const ask = venue.settlementsOf.bind(venue);
    venue.settlementsOf = (exchange, ids) => {
      asked.push([...ids]);
      return ask(exchange, ids);
    };
    try {
      // The pay-ins run at the venue but its answer is lost: nothing moves here.
      venue.configure({ answerLossRate: 1 });
      try {
        await t.app.orders.settlement.tick();
      } finally {
        venue.configure({ answerLossRate: 0 });
      }
      expect((await readOrder(t, 'second', 'order', trades[0]!.orderId)).state).toBe('reported');
      await t.app.orders.settlement.tick();
    } finally {
      venue.settlementsOf = ask;
    }
    // Each pass asked for both trades in one call.
    expect(asked.filter((ids) => tradeIds.every((id) => ids.includes(id)))).toHaveLength(2);
    for (const trade of trades) {
      expect((await readOrder(t, 'second', 'order', trade.orderId)).state).toBe('settled');
      expect((await venueBook(t, trade.ticketId)).trades[0]).toMatchObject({ status: 'settled', payinRuns: 1 });
      expect(await auditOf(t, 'order.settled', trade.orderId)).toHaveLength(1);
    }
  });

  it('fails a settlement with the reason, retries it (settled), and cancels another failed one', async () => {
    const trade = await reportedTrade();
    t.app.exchange.venue.configure({ settlementOutcome: () => 'funds' });
    try {
      await t.app.orders.settlement.tick();
    } finally {
      t.app.exchange.venue.configure({ settlementOutcome: undefined });
    }
    const failed = await readOrder(t, 'second', 'order', trade.orderId);
    expect(failed).toMatchObject({ state: 'failed', reason: SETTLEMENT_FAILURE_REASONS.funds });
    expect((await readOrder(t, 'demo', 'procurement', trade.procurementId)).reason).toBe(SETTLEMENT_FAILURE_REASONS.funds);
    expect(await getTicket(t, 'demo', trade.ticketId)).toMatchObject({ state: 'failed', reason: SETTLEMENT_FAILURE_REASONS.funds });

    const bad = await call(t, 'second', 'PATCH', `/api/orders/settle-cancel/${trade.orderId}/retry/`, { version: failed.version });
    expect(bad.statusCode).toBe(400);
    const retried = await call(t, 'second', 'PATCH', `/api/orders/settle-cancel/${trade.orderId}/settle/`, { version: failed.version });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(json<Order>(retried)).toMatchObject({ state: 'reported', reason: null });
    expect(await auditOf(t, 'order.settlement_retried', trade.procurementId)).toHaveLength(1);
    await t.app.orders.settlement.tick();
    expect((await readOrder(t, 'demo', 'procurement', trade.procurementId)).state).toBe('settled');
    expect((await getTicket(t, 'demo', trade.ticketId)).state).toBe('settled');
    expect((await venueBook(t, trade.ticketId)).trades[0]).toMatchObject({ status: 'settled', payinRuns: 2 });

    const other = await reportedTrade();
    t.app.exchange.venue.configure({
      settlementOutcome: (instruction) => (instruction.ticketId === other.ticketId ? 'securities' : undefined),
    });
    try {
      await t.app.orders.settlement.tick();
    } finally {
      t.app.exchange.venue.configure({ settlementOutcome: undefined });
    }
    const short = await readOrder(t, 'demo', 'procurement', other.procurementId);
    expect(short).toMatchObject({ state: 'failed', reason: SETTLEMENT_FAILURE_REASONS.securities });
    const noReason = await call(t, 'demo', 'PATCH', `/api/procurement-orders/settle-cancel/${other.procurementId}/cancel/`, {
      version: short.version,
    });
    expect(noReason.statusCode).toBe(400);
    const cancelled = await call(t, 'demo', 'PATCH', `/api/procurement-orders/settle-cancel/${other.procurementId}/cancel/`, {
      version: short.version,
      reason: 'Seller cannot deliver',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json<Order>(cancelled)).toMatchObject({ state: 'cancelled', reason: 'Seller cannot deliver' });
    expect((await readOrder(t, 'second', 'order', other.orderId)).state).toBe('cancelled');
    expect((await getTicket(t, 'demo', other.ticketId)).state).toBe('cancelled');
    expect((await venueBook(t, other.ticketId)).trades[0]?.status).toBe('cancelled');
  });

  it('serves a real contract note PDF of a reported trade, to its own firm only', async () => {
    const trade = await confirmedTrade(t);
    const early = await call(t, 'second', 'GET', `/api/orders/${trade.orderId}/contract-note/`);
    expect(early.statusCode).toBe(409);
    expect(json(early).message).toBe('This order is reporting: contract note is not allowed.');
    await t.app.orders.reporter.tick();
    const order = await readOrder(t, 'second', 'order', trade.orderId);
    const response = await call(t, 'backoffice', 'GET', `/api/procurement-orders/${trade.procurementId}/contract-note/`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="contract-note-PRO-\d{6}\.pdf"$/);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages } = pdfText(response.rawPayload);
    expect(pages).toBe(1);
    for (const expected of [
      'CONTRACT NOTE',
      HDFC_NCD,
      order.exchange_trade_id!,
      'NSCCL',
      'Demo Capital',
      'Second Bank',
      'DVP-I',
      'Stamp duty',
    ])
      expect(text, expected).toContain(expected);
    expect(text).toContain(order.custodian_name!);
    expect((await call(t, 'demo', 'GET', `/api/orders/${trade.orderId}/contract-note/`)).statusCode).toBe(404);
    expect((await call(t, 'basic', 'GET', `/api/orders/${trade.orderId}/contract-note/`)).statusCode).toBe(402);
  });

  describe('the unified list and its exports', () => {
    let gsecTrade: ConfirmedTrade;
    beforeAll(async () => {
      // A G-sec trade where Demo Capital sells (an order), reported; the others above are Demo Capital's buys.
      gsecTrade = await confirmedTrade(t, { isin: GSEC_2033, quantum: 1_000_000, yield: 0.0712, buyer: 'second' });
      await t.app.orders.reporter.tick();
    });

    const list = async (query: string, who: 'demo' | 'second' = 'demo') => {
      const response = await call(t, who, 'GET', `/api/orders/unified/${query}`);
      expect(response.statusCode, response.body).toBe(200);
      // The route writes its answer without the app's zod check (lib/typed-json.ts): every answer is held to it here,
      // and must carry nothing the check would have stripped.
      const body = json<List>(response);
      expect(OrderListSchema.parse(body)).toEqual(body);
      return body;
    };

    it('lists the firm’s own orders and procurement orders only, newest first, paged', async () => {
      const all = await list('?page_size=500');
      const actors = await postTradeActors(t);
      expect(all.count).toBeGreaterThan(5);
      expect(all.results.some((o) => o.kind === 'order') && all.results.some((o) => o.kind === 'procurement')).toBe(true);
      const own = (
        await t.database.query<{ n: string }>(`SELECT count(*)::text AS n FROM orders WHERE client_id = $1`, [actors.demo.clientId])
      )[0]!;
      expect(all.count).toBe(Number(own.n));
      const times = all.results.map((o) => o.created_at);
      expect([...times].sort((x, y) => y.localeCompare(x))).toEqual(times);
      // Tenant isolation: Second Bank's list holds none of Demo Capital's orders.
      const theirs = await list('?page_size=500', 'second');
      const mine = new Set(all.results.map((o) => o.id));
      expect(theirs.results.some((o) => mine.has(o.id))).toBe(false);

      const page2 = await list('?page_size=2&page=2');
      expect(page2).toMatchObject({ page: 2, page_size: 2, count: all.count });
      expect(page2.results.map((o) => o.id)).toEqual(all.results.slice(2, 4).map((o) => o.id));
      // The total rides on the page's rows: a page beyond the last still counts, a first page of nothing is 0.
      expect(await list('?page_size=2&page=999')).toMatchObject({ page: 999, count: all.count, results: [] });
      expect(await list('?search=NO-SUCH-BOND')).toMatchObject({ count: 0, results: [] });
      expect((await list('?paginate=false')).page_size).toBe(500);
      expect((await call(t, 'demo', 'GET', '/api/orders/unified/?page_size=501')).statusCode).toBe(400);
    });

    it('filters by state, kind, search and the spec’s numeric and date filters', async () => {
      const sold = await list('?kind=order');
      expect(sold.results.map((o) => o.id)).toContain(gsecTrade.orderId);
      expect(sold.results.every((o) => o.kind === 'order')).toBe(true);
      expect((await list('?state=settled')).results.every((o) => o.state === 'settled')).toBe(true);
      expect((await list('?state=reported&kind=order')).results.map((o) => o.id)).toContain(gsecTrade.orderId);
      const bySearch = await list(`?search=${GSEC_2033}`);
      expect(bySearch.results.length).toBeGreaterThan(0);
      expect(bySearch.results.every((o) => o.isin === GSEC_2033)).toBe(true);
      // `%` is a literal character: "7.26% GS 2033" holds "% GS" but not "%GS".
      expect((await list('?search=%25%20GS')).count).toBeGreaterThan(0);
      expect((await list('?search=%25GS')).count).toBe(0);

      const gsec = await readOrder(t, 'demo', 'order', gsecTrade.orderId);
      const filter = (filters: object[]) => list(`?filters=${encodeURIComponent(JSON.stringify(filters))}`);
      expect((await filter([{ field: 'quantum', type: 'equals', value: 1_000_000 }])).results.map((o) => o.id)).toContain(gsec.id);
      expect((await filter([{ field: 'quantum', type: 'greaterThan', value: 1_000_000 }])).results.map((o) => o.id)).not.toContain(gsec.id);
      expect((await filter([{ field: 'price', type: 'equals', value: gsec.price }])).results.map((o) => o.id)).toContain(gsec.id);
      const cheap = await filter([{ field: 'consideration', type: 'lessThanOrEqual', value: gsec.consideration.consideration }]);
      expect(cheap.results.every((o) => o.consideration.consideration <= gsec.consideration.consideration)).toBe(true);
      const yields = await filter([{ field: 'yield', type: 'greaterThanOrEqual', value: 0.07 }]);
      expect(yields.results.every((o) => o.yield >= 0.07)).toBe(true);
      expect((await filter([{ field: 'settlement_date', type: 'is', value: gsec.settlement_date }])).results.map((o) => o.id)).toContain(
        gsec.id,
      );
      expect((await filter([{ field: 'trade_date', type: 'after', value: gsec.trade_date }])).count).toBe(0);
      expect((await filter([{ field: 'trade_date', type: 'before', value: '2000-01-01' }])).count).toBe(0);
      expect((await filter([{ field: 'price', type: 'lessThan', value: 0 }])).count).toBe(0);

      const badJson = await call(t, 'demo', 'GET', '/api/orders/unified/?filters=nope');
      expect(badJson.statusCode).toBe(400);
      expect(json(badJson).message).toBe('filters should be a JSON array.');
      const badType = await call(
        t,
        'demo',
        'GET',
        `/api/orders/unified/?filters=${encodeURIComponent('[{"field":"price","type":"is","value":1}]')}`,
      );
      expect(badType.statusCode).toBe(400);
    });

    it('exports the filtered blotter as formula-safe CSV and as XLSX', async () => {
      // A reason typed by a user that a spreadsheet would run as a formula.
      const trade = await confirmedTrade(t);
      const own = await readOrder(t, 'demo', 'procurement', trade.procurementId);
      const cancel = await call(t, 'demo', 'POST', `/api/procurement-orders/${trade.procurementId}/cancel/`, {
        version: own.version,
        reason: '=HYPERLINK("http://evil.example","x")',
      });
      expect(cancel.statusCode, cancel.body).toBe(200);

      const csv = await call(t, 'demo', 'GET', '/api/orders/unified/export/?format=csv&state=cancelled');
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
      const text = csv.rawPayload.toString('utf8');
      expect(text.startsWith('\uFEFFNumber,Kind,Ticket,State')).toBe(true);
      const lines = text.trim().split('\r\n');
      expect(lines.length - 1).toBe((await list('?state=cancelled&page_size=500')).count);
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      expect(text).not.toMatch(/,=HYPERLINK/);

      const xlsx = await call(t, 'demo', 'GET', `/api/orders/unified/export/?format=xlsx&search=${GSEC_2033}`);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Transactions')!;
      expect(sheet.getRow(1).getCell(6).value).toBe('ISIN');
      expect(sheet.rowCount - 1).toBe((await list(`?search=${GSEC_2033}&page_size=500`)).count);
      expect(sheet.getRow(2).getCell(6).value).toBe(GSEC_2033);

      expect((await call(t, 'demo', 'GET', '/api/orders/unified/export/?format=pdf')).statusCode).toBe(400);
      expect((await call(t, 'viewer', 'GET', '/api/orders/unified/export/')).statusCode).toBe(200);
      expect((await call(t, 'basic', 'GET', '/api/orders/unified/export/')).statusCode).toBe(402);
    });
  });
});
