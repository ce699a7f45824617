/**
 * Issue 13 tickets through the HTTP API on a slice of the real bond universe: one ticket per deal (created
 * in the deal's transaction; POST api/chatter/trade/ answers 200 / 201), consideration to the paisa against
 * an independent computation (a G-sec and a corporate bond), the list needing-my-action first, manual tickets
 * and their validation messages, confirmation with custodians and the trade confirmation, the participant
 * and custodian searches, tenant isolation, view-only users, stale versions and idempotent submits.
 * The state machine, the seller-or-buyer's-broker rule and live events are in tickets-machine.test.ts.
 */
import { CREDENTIAL_MESSAGES, TICKET_MESSAGES, TRADE_TIME_LATER_MESSAGE, type Ticket } from '@dart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../src/db/schema';
import { sealAudit, verifyAuditChain } from '../src/lib/audit';
import { writeTicketTransitions } from '../src/modules/tickets/ticket-transitions';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import {
  bondId,
  call,
  confirmTicket,
  custodianIds,
  getTicket,
  GSEC_2033,
  HDFC_NCD,
  LAKH,
  makeDeal,
  postTradeActors,
  priceTicket,
  type Actor,
  type PostTradeUser,
} from './post-trade-support';

type Errors = { code: string; message: string; errors?: Record<string, string[]> };
type List = { count: number; page: number; page_size: number; results: Ticket[] };

/** 30E/360 days (ICMA rule 4.16(g)): both day-of-month numbers capped at 30. */
function days30E360(from: string, to: string): number {
  const [y1, m1, d1] = from.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = to.split('-').map(Number) as [number, number, number];
  return (y2 - y1) * 360 + (m2 - m1) * 30 + (Math.min(d2, 30) - Math.min(d1, 30));
}
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
/** The coupon dates around `settlement`, stepping back from maturity by 12/frequency months (no issue date known). */
function couponPeriod(maturity: string, frequency: number, settlement: string): { last: string; next: string } {
  const step = 12 / frequency;
  const shift = (months: number) => {
    const d = new Date(`${maturity}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - months);
    return d.toISOString().slice(0, 10);
  };
  for (let k = 1; ; k++) if (shift(k * step) <= settlement) return { last: shift(k * step), next: shift((k - 1) * step) };
}
const halfUp = (x: number) => Math.floor(x + 0.5 + 1e-9);

/**
 * The consideration computed here, independently of the server and of bond-math: accrued per ₹100 on the
 * bond's day count (30E/360 for G-secs; actual/365, 366 when the coupon period holds 29 February, for SEBI
 * corporate bonds), consideration = face × (clean + accrued) ÷ 100 half-up to the paisa, stamp duty 0.0001 %
 * of the consideration on a corporate bond and nil on a G-sec.
 */
function expectedConsideration(
  bond: { couponRate: number; frequency: number; maturity: string; gsec: boolean },
  trade: { quantum: number; price: number; settlement: string },
) {
  const { last, next } = couponPeriod(bond.maturity, bond.frequency, trade.settlement);
  let accruedDays: number;
  let accruedPer100: number;
  if (bond.gsec) {
    accruedDays = days30E360(last, trade.settlement);
    accruedPer100 = (bond.couponRate * accruedDays) / 360;
  } else {
    accruedDays = dayNumber(trade.settlement) - dayNumber(last);
    const leap = [last.slice(0, 4), next.slice(0, 4)].some((y) => {
      const feb29 = `${y}-02-29`;
      return (
        !Number.isNaN(Date.parse(`${feb29}T00:00:00Z`)) &&
        new Date(`${feb29}T00:00:00Z`).getUTCDate() === 29 &&
        feb29 > last &&
        feb29 <= next
      );
    });
    accruedPer100 = (bond.couponRate * accruedDays) / (leap ? 366 : 365);
  }
  const totalPaise = halfUp(((trade.quantum * (trade.price + accruedPer100)) / 100) * 100);
  const accruedPaise = halfUp(((trade.quantum * accruedPer100) / 100) * 100);
  const stampPaise = bond.gsec ? 0 : halfUp(totalPaise * 0.000001);
  return {
    accrued_days: accruedDays,
    accrued_interest: accruedPaise / 100,
    principal: (totalPaise - accruedPaise) / 100,
    consideration: totalPaise / 100,
    stamp_duty: stampPaise / 100,
    buyer_pays: (totalPaise + stampPaise) / 100,
    seller_receives: totalPaise / 100,
  };
}

describe.each(DRIVERS)('tickets (%s)', (driver) => {
  let t: TestApp;
  let actors: Record<PostTradeUser, Actor>;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    actors = await postTradeActors(t);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Runs `body` with the firm's credentials at `corp` withdrawn, then puts them back. */
  async function withoutCredentials(clientId: string, corp: string, body: () => Promise<void>): Promise<void> {
    const column = corp === 'NSCCL' ? 'nsccl_credentials_ref' : 'iccl_credentials_ref';
    const [{ ref }] = (await t.database.query<{ ref: string }>(`SELECT ${column} AS ref FROM clients WHERE id = $1`, [clientId])) as [
      { ref: string },
    ];
    await t.database.query(`UPDATE clients SET ${column} = NULL WHERE id = $1`, [clientId]);
    try {
      await body();
    } finally {
      await t.database.query(`UPDATE clients SET ${column} = $2 WHERE id = $1`, [clientId, ref]);
    }
  }

  it('writes one ticket per deal in the deal’s transaction: sent, from the negotiation, with its Received stamp', async () => {
    const { dealId, ticketId, ticket } = await makeDeal(t);
    const rows = await t.database.query<{ id: string; state: string }>(`SELECT id, state FROM tickets WHERE deal_id = $1`, [dealId]);
    expect(rows).toEqual([{ id: ticketId, state: 'sent' }]);
    expect(ticket).toMatchObject({
      deal_id: dealId,
      source: 'negotiation',
      state: 'sent',
      state_label: 'Awaiting price',
      version: 1,
      isin: HDFC_NCD,
      quantum: 5 * LAKH,
      face_value_per_bond: LAKH,
      exchange: 'NSE',
      clearing_corporation: 'NSCCL',
      buyer_details: { client_id: actors.demo.clientId, name: 'Demo Capital', user_id: actors.demo.userId },
      seller_details: { client_id: actors.second.clientId, name: 'Second Bank', user_id: actors.second.userId },
      broker_details: [],
      buy_or_sell: 'buy',
      order_ids: { order: null, procurement: null },
    });
    expect(ticket.number).toMatch(/^TKT-\d{6}$/);
    expect(Date.parse(ticket.report_deadline) - Date.parse(ticket.traded_at)).toBe(15 * 60_000);
    // The buyer has nothing to do yet (the seller prices); the seller sees it as a sale and may price it.
    expect(ticket.my_actions).not.toContain('price');
    const seller = await getTicket(t, 'second', ticketId);
    expect(seller.buy_or_sell).toBe('sell');
    expect(seller.my_actions).toEqual(expect.arrayContaining(['price', 'edit', 'cancel', 'reject']));
    expect(seller.history).toEqual([
      expect.objectContaining({ seq: 1, action: 'created', label: 'Received', from_state: null, to_state: 'sent', reason: null }),
    ]);
    const audit = await t.database.query<{ action: string }>(`SELECT action FROM audit_log WHERE entity_id = $1`, [ticketId]);
    expect(audit.map((a) => a.action)).toEqual(['ticket.created']);
  });

  it('POST api/chatter/trade/ answers 201 when it creates the ticket and 200 with the existing one after', async () => {
    const { dealId, ticketId } = await makeDeal(t, { buyer: 'second' });
    const again = await call(t, 'demo', 'POST', '/api/chatter/trade/', { deal_id: dealId });
    expect(again.statusCode).toBe(200);
    expect(json<Ticket>(again).id).toBe(ticketId);
    // Without its ticket (removed here), the call creates it from the deal: 201, then 200.
    await t.database.query(`DELETE FROM tickets WHERE id = $1`, [ticketId]);
    const created = await call(t, 'second', 'POST', '/api/chatter/trade/', { deal_id: dealId });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = json<Ticket>(created);
    expect(ticket).toMatchObject({ deal_id: dealId, state: 'sent', source: 'negotiation' });
    expect((await call(t, 'demo', 'POST', '/api/chatter/trade/', { deal_id: dealId })).statusCode).toBe(200);
    // A third firm does not learn of the deal; view-only users never write; a bad id is a validation error.
    expect((await call(t, 'basic', 'POST', '/api/chatter/trade/', { deal_id: dealId })).statusCode).toBe(404);
    expect((await call(t, 'viewer', 'POST', '/api/chatter/trade/', { deal_id: dealId })).statusCode).toBe(403);
    const bad = await call(t, 'demo', 'POST', '/api/chatter/trade/', { deal_id: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(json<Errors>(bad).errors).toEqual({ deal_id: ['Unknown deal.'] });
  });

  it('computes the consideration to the paisa for a G-sec and a corporate bond, and re-prices on every change', async () => {
    const cases = [
      { isin: GSEC_2033, quantum: 50 * LAKH, couponRate: 7.26, frequency: 2, maturity: '2033-02-06', gsec: true },
      { isin: HDFC_NCD, quantum: 7 * LAKH, couponRate: 7.7, frequency: 1, maturity: '2028-05-16', gsec: false },
    ];
    for (const c of cases) {
      const { ticket } = await makeDeal(t, { isin: c.isin, quantum: c.quantum, yield: c.gsec ? 0.0712 : 0.078 });
      const expected = expectedConsideration(c, { quantum: c.quantum, price: ticket.price, settlement: ticket.settlement_date });
      expect(ticket.consideration, c.isin).toMatchObject({ ...expected, face_value: c.quantum, clean_price: ticket.price });
      expect(Math.abs(ticket.consideration.principal - (ticket.price * c.quantum) / 100)).toBeLessThanOrEqual(0.01);
      expect(ticket.consideration.stamp_duty > 0).toBe(!c.gsec);
      // A new price re-prices it (seller), then a new size (either side): both to the paisa again.
      const priced = json<Ticket>(
        await call(t, 'second', 'PATCH', `/api/chatter/trade/${ticket.id}/price/`, { version: ticket.version, price: ticket.price - 0.25 }),
      );
      expect(priced.consideration).toMatchObject(
        expectedConsideration(c, { quantum: c.quantum, price: priced.price, settlement: ticket.settlement_date }),
      );
      const resized = await call(t, 'demo', 'PATCH', `/api/chatter/trade/${ticket.id}/`, {
        version: priced.version,
        quantum: 2 * c.quantum,
      });
      expect(resized.statusCode, resized.body).toBe(200);
      const after = json<Ticket>(resized);
      expect(after.consideration).toMatchObject(
        expectedConsideration(c, { quantum: 2 * c.quantum, price: priced.price, settlement: ticket.settlement_date }),
      );
      const stored = await t.database.query<{ consideration_paise: string; stamp_duty_paise: string }>(
        `SELECT consideration_paise, stamp_duty_paise FROM tickets WHERE id = $1`,
        [ticket.id],
      );
      expect(Number(stored[0]!.consideration_paise)).toBe(Math.round(after.consideration.consideration * 100));
      expect(Number(stored[0]!.stamp_duty_paise)).toBe(Math.round(after.consideration.stamp_duty * 100));
    }
  });

  it('confirms when the second side accepts: Final stamp, reporting, the order and procurement order booked; the confirmation names both custodians', async () => {
    const { ticketId } = await makeDeal(t);
    const early = await call(t, 'demo', 'GET', `/api/chatter/trade/confirmed-trade/${ticketId}/`);
    expect(early.statusCode).toBe(409);
    expect(json<Errors>(early).message).toBe(TICKET_MESSAGES.notConfirmed);
    const confirmed = await confirmTicket(t, ticketId);
    expect(confirmed.history!.map((h) => h.action)).toEqual([
      'created',
      'price',
      'accept_consideration',
      'accept_consideration',
      'confirmed',
    ]);
    expect(confirmed.history!.at(-1)).toMatchObject({ label: 'Final', from_state: 'priced', to_state: 'reporting' });
    expect(confirmed.order_ids.order).toBeTruthy();
    expect(confirmed.order_ids.procurement).toBeTruthy();
    const orders = await t.database.query<{ kind: string; client_id: string; state: string; custodian_id: string }>(
      `SELECT kind, client_id, state, custodian_id FROM orders WHERE ticket_id = $1 ORDER BY kind`,
      [ticketId],
    );
    const [buyerCustodian, sellerCustodian] = await custodianIds(t, 2);
    expect(orders).toEqual([
      { kind: 'order', client_id: actors.second.clientId, state: 'reporting', custodian_id: sellerCustodian },
      { kind: 'procurement', client_id: actors.demo.clientId, state: 'reporting', custodian_id: buyerCustodian },
    ]);
    const confirmation = await call(t, 'demo', 'GET', `/api/chatter/trade/confirmed-trade/${ticketId}/`);
    expect(confirmation.statusCode, confirmation.body).toBe(200);
    const body = json<{
      ticket: Ticket;
      buyer_custodian: string;
      seller_custodian: string;
      order: { kind: string; number: string; buy_or_sell: string; counterparty_name: string; consideration: { consideration: number } };
      procurement_order: { kind: string; number: string; buy_or_sell: string; counterparty_name: string };
    }>(confirmation);
    expect(body.ticket.state).toBe('reporting');
    expect(body.buyer_custodian).toBe(body.ticket.buyer_acceptance.custodian_name);
    expect(body.seller_custodian).toBe(body.ticket.seller_acceptance.custodian_name);
    expect(body.order).toMatchObject({ kind: 'order', buy_or_sell: 'sell', counterparty_name: 'Demo Capital' });
    expect(body.order.number).toMatch(/^ORD-\d{6}$/);
    expect(body.procurement_order).toMatchObject({ kind: 'procurement', buy_or_sell: 'buy', counterparty_name: 'Second Bank' });
    expect(body.order.consideration.consideration).toBe(body.ticket.consideration.consideration);
    expect((await call(t, 'basic', 'GET', `/api/chatter/trade/confirmed-trade/${ticketId}/`)).statusCode).toBe(404);
  });

  it('answers each action with the ticket exactly as a read after it shows it, the new history entries included', async () => {
    const { ticketId } = await makeDeal(t);
    const sent = await getTicket(t, 'demo', ticketId);
    const { ticket: priced, buyer, seller } = await priceTicket(t, sent, sent.price + 0.25);
    expect(priced.history!.map((h) => h.action)).toEqual(['created', 'price']);
    expect(priced).toEqual(await getTicket(t, seller, ticketId));
    const [buyerCustodian, sellerCustodian] = await custodianIds(t, 2);
    const first = await call(t, buyer, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, {
      version: priced.version,
      custodian_id: buyerCustodian,
    });
    expect(first.statusCode, first.body).toBe(200);
    const accepted = json<Ticket>(first);
    expect(accepted.buyer_acceptance.custodian_name).toBeTruthy();
    expect(accepted.history!.at(-1)).toMatchObject({ action: 'accept_consideration', actor_firm: 'Demo Capital' });
    expect(accepted).toEqual(await getTicket(t, buyer, ticketId));
    // The confirmation books the orders in the same statement: its answer names them and both custodians.
    const second = await call(t, seller, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, {
      version: accepted.version,
      custodian_id: sellerCustodian,
    });
    expect(second.statusCode, second.body).toBe(200);
    const confirmed = json<Ticket>(second);
    expect(confirmed.history!.map((h) => h.action).slice(-2)).toEqual(['accept_consideration', 'confirmed']);
    expect(confirmed).toEqual(await getTicket(t, seller, ticketId));
  });

  it("refuses to accept the consideration for a firm without the clearing corporation's credentials, and changes nothing", async () => {
    const { ticketId } = await makeDeal(t);
    const { ticket, buyer } = await priceTicket(t, await getTicket(t, 'demo', ticketId));
    const corp = ticket.clearing_corporation;
    const [custodian] = await custodianIds(t, 1);
    const accept = () =>
      call(t, buyer, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, { version: ticket.version, custodian_id: custodian });
    await withoutCredentials(ticket.buyer_details.client_id, corp, async () => {
      const refused = await accept();
      expect(refused.statusCode).toBe(403);
      expect(json<Errors>(refused).message).toBe(CREDENTIAL_MESSAGES.reportNeedsCredentials(corp));
      expect(json<Errors>(refused).errors).toEqual({ clearing_corporation: [CREDENTIAL_MESSAGES.reportNeedsCredentials(corp)] });
      const unchanged = await getTicket(t, 'demo', ticketId);
      expect([unchanged.version, unchanged.state, unchanged.buyer_acceptance.accepted_at]).toEqual([ticket.version, 'priced', null]);
    });
    // With the credentials back, the same acceptance goes through.
    expect((await accept()).statusCode).toBe(200);
  });

  it('accepts under a row the node kept only when the write finds it unchanged: a renamed custodian, withdrawn credentials and a version moved elsewhere are seen', async () => {
    // A first confirmation keeps both firms' credentials and both custodians on this node (tickets.cache.ts).
    await confirmTicket(t, (await makeDeal(t)).ticketId);
    const { ticketId } = await makeDeal(t);
    const { ticket: priced, buyer, seller } = await priceTicket(t, await getTicket(t, 'demo', ticketId));
    const [buyerCustodian, sellerCustodian] = (await custodianIds(t, 2)) as [string, string];
    const accept = (who: PostTradeUser, version: number, custodian: string) =>
      call(t, who, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, { version, custodian_id: custodian });

    // Renamed since the node saw it: the history and the view name the custodian as it is now.
    const [{ name }] = (await t.database.query<{ name: string }>(`SELECT name FROM custodians WHERE id = $1`, [buyerCustodian])) as [
      { name: string },
    ];
    await t.database.query(`UPDATE custodians SET name = $2 WHERE id = $1`, [buyerCustodian, `${name} (renamed)`]);
    let accepted: Ticket;
    try {
      const first = await accept(buyer, priced.version, buyerCustodian);
      expect(first.statusCode, first.body).toBe(200);
      accepted = json<Ticket>(first);
      expect(accepted.buyer_acceptance.custodian_name).toBe(`${name} (renamed)`);
      expect(accepted.history!.at(-1)!.changes).toMatchObject({ custodian: `${name} (renamed)` });
    } finally {
      await t.database.query(`UPDATE custodians SET name = $2 WHERE id = $1`, [buyerCustodian, name]);
    }

    // Credentials withdrawn since: 403, and nothing written.
    const corp = accepted.clearing_corporation;
    await withoutCredentials(accepted.seller_details.client_id, corp, async () => {
      const refused = await accept(seller, accepted.version, sellerCustodian);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(json<Errors>(refused).message).toBe(CREDENTIAL_MESSAGES.reportNeedsCredentials(corp));
    });

    // Written elsewhere since (another node's write, as the database sees it): the version the caller sent is stale.
    await t.database.query(`UPDATE tickets SET version = version + 1 WHERE id = $1`, [ticketId]);
    const stale = await accept(seller, accepted.version, sellerCustodian);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(json<Errors>(stale).message).toBe(TICKET_MESSAGES.staleVersion);
    const history = await t.database.query<{ action: string }>(`SELECT action FROM ticket_events WHERE ticket_id = $1 ORDER BY seq`, [
      ticketId,
    ]);
    expect(history.map((h) => h.action)).toEqual(['created', 'price', 'accept_consideration']);
    const confirmed = await accept(seller, accepted.version + 1, sellerCustodian);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(json<Ticket>(confirmed).state).toBe('reporting');
  });

  it('prices under a row the node kept only while its bond row is the one kept: a coupon fixed since is priced with', async () => {
    const { ticketId } = await makeDeal(t);
    // The first price call reads the ticket with its bond (both kept); the second runs under what was kept.
    const { ticket: first, seller } = await priceTicket(t, await getTicket(t, 'demo', ticketId));
    const second = json<Ticket>(
      await call(t, seller, 'PATCH', `/api/chatter/trade/${ticketId}/price/`, { version: first.version, price: first.price + 0.5 }),
    );
    expect(second.consideration.accrued_interest).toBe(first.consideration.accrued_interest);
    expect(first.consideration.accrued_interest).toBeGreaterThan(0);
    const bond = second.finstrument_id;
    const [{ coupon }] = (await t.database.query<{ coupon: number }>(`SELECT coupon_rate AS coupon FROM finstruments WHERE id = $1`, [
      bond,
    ])) as [{ coupon: number }];
    await t.database.query(`UPDATE finstruments SET coupon_rate = $2 WHERE id = $1`, [bond, coupon + 1]);
    try {
      const repriced = await call(t, seller, 'PATCH', `/api/chatter/trade/${ticketId}/price/`, {
        version: second.version,
        price: first.price,
      });
      expect(repriced.statusCode, repriced.body).toBe(200);
      const accrued = json<Ticket>(repriced).consideration.accrued_interest;
      // Accrued interest is proportional to the coupon: priced with the coupon as stored now, not as kept.
      expect(accrued).toBeCloseTo((first.consideration.accrued_interest * (coupon + 1)) / coupon, 0);
    } finally {
      await t.database.query(`UPDATE finstruments SET coupon_rate = $2 WHERE id = $1`, [bond, coupon]);
    }
  });

  it('lists the firm’s tickets needing its action first, with state, open and needs_action filters and pages', async () => {
    const waiting = await makeDeal(t); // sent: Second Bank must price it
    const priced = await makeDeal(t);
    const p = json<Ticket>(
      await call(t, 'second', 'PATCH', `/api/chatter/trade/${priced.ticketId}/price/`, { version: 1, price: priced.ticket.price }),
    );
    expect(p.state).toBe('priced');
    const list = async (who: PostTradeUser, query = '') => {
      const response = await call(t, who, 'GET', `/api/chatter/trade/${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return json<List>(response);
    };
    const second = await list('second', '?page_size=100');
    const needing = second.results.filter(
      (r) => ['sent', 'priced'].includes(r.state) && r.my_actions.includes(r.state === 'sent' ? 'price' : 'accept_consideration'),
    );
    // Every ticket needing Second Bank's action comes before every one that does not.
    const firstIdle = second.results.findIndex((r) => !needing.includes(r));
    expect(second.results.slice(firstIdle).some((r) => needing.includes(r))).toBe(false);
    expect(second.results.map((r) => r.id)).toEqual(expect.arrayContaining([waiting.ticketId, priced.ticketId]));
    expect(second.results[0]!.history).toBeUndefined();
    const secondNeeds = await list('second', '?needs_action=true&page_size=100');
    expect(secondNeeds.results.map((r) => r.id)).toContain(waiting.ticketId);
    const demoNeeds = await list('demo', '?needs_action=true&page_size=100');
    expect(demoNeeds.results.map((r) => r.id)).toContain(priced.ticketId);
    expect(demoNeeds.results.map((r) => r.id)).not.toContain(waiting.ticketId);
    const sentOnly = await list('demo', '?state=sent&page_size=100');
    expect(sentOnly.results.every((r) => r.state === 'sent')).toBe(true);
    const open = await list('demo', '?open=true&page_size=100');
    expect(open.results.every((r) => !['settled', 'cancelled', 'rejected'].includes(r.state))).toBe(true);
    const page = await list('demo', '?page=2&page_size=1');
    expect(page).toMatchObject({ page: 2, page_size: 1 });
    expect(page.results).toHaveLength(1);
    expect(page.count).toBeGreaterThanOrEqual(2);
    // A third firm sees none of them; bad queries are validation errors.
    expect((await list('basic')).results.map((r) => r.id)).not.toContain(waiting.ticketId);
    expect((await call(t, 'demo', 'GET', '/api/chatter/trade/?state=open')).statusCode).toBe(400);
    expect((await call(t, 'demo', 'GET', '/api/chatter/trade/?page_size=101')).statusCode).toBe(400);
  });

  it('keeps tickets to their firms: another firm’s ticket is 404 on every call', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    const [custodian] = await custodianIds(t, 1);
    const v = { version: ticket.version };
    const calls: Array<['GET' | 'PATCH', string, object?]> = [
      ['GET', `/api/chatter/trade/${ticketId}/`],
      ['GET', `/api/chatter/trade/confirmed-trade/${ticketId}/`],
      ['GET', `/api/chatter/search-brokers/${ticketId}`],
      ['PATCH', `/api/chatter/trade/${ticketId}/`, { ...v, quantum: LAKH }],
      ['PATCH', `/api/chatter/trade/${ticketId}/price/`, { ...v, price: 100 }],
      ['PATCH', `/api/chatter/trade/actions/${ticketId}/cancel/`, { ...v, reason: 'not mine' }],
      ['PATCH', `/api/chatter/trade/send-to-broker/${ticketId}/`, { ...v, broker_user_id: actors.broker.userId }],
      ['PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, { ...v, custodian_id: custodian }],
      ['PATCH', `/api/trade/members/${ticketId}/`, { ...v, user_id: actors.basic.userId }],
      ['PATCH', `/api/trade/${ticketId}/brokerage/`, { ...v, brokerage: 100 }],
    ];
    for (const [method, url, body] of calls) {
      const response = await call(t, 'basic', method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(json<Errors>(response).message).toBe(TICKET_MESSAGES.notFound);
    }
    expect((await getTicket(t, 'demo', ticketId)).version).toBe(ticket.version);
  });

  it('lets view-only users read their firm’s tickets but refuses them every write (403)', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    for (const who of ['viewer', 'compliance', 'backoffice'] as const) {
      const seen = await getTicket(t, who, ticketId);
      expect(seen.my_actions).toEqual([]);
      for (const [url, body] of [
        [`/api/chatter/trade/${ticketId}/`, { version: ticket.version, quantum: LAKH }],
        [`/api/chatter/trade/actions/${ticketId}/cancel/`, { version: ticket.version, reason: 'view only' }],
        [`/api/chatter/trade/${ticketId}/price/`, { version: ticket.version, price: 100 }],
      ] as const)
        expect((await call(t, who, 'PATCH', url, body)).statusCode, `${who} ${url}`).toBe(403);
    }
    expect((await getTicket(t, 'demo', ticketId)).version).toBe(ticket.version);
  });

  it('refuses a stale version (409) and replays an idempotent submit once', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    const key = { 'idempotency-key': `price-${ticketId}` };
    const body = { version: ticket.version, price: ticket.price + 0.1 };
    const first = await call(t, 'second', 'PATCH', `/api/chatter/trade/${ticketId}/price/`, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const replay = await call(t, 'second', 'PATCH', `/api/chatter/trade/${ticketId}/price/`, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    const history = await t.database.query<{ action: string }>(`SELECT action FROM ticket_events WHERE ticket_id = $1 ORDER BY seq`, [
      ticketId,
    ]);
    expect(history.map((h) => h.action)).toEqual(['created', 'price']);
    // The same version again without the key: someone else changed it meanwhile.
    const stale = await call(t, 'second', 'PATCH', `/api/chatter/trade/${ticketId}/price/`, body);
    expect(stale.statusCode).toBe(409);
    expect(json<Errors>(stale).message).toBe(TICKET_MESSAGES.staleVersion);
    const staleEdit = await call(t, 'demo', 'PATCH', `/api/chatter/trade/${ticketId}/`, { version: 1, quantum: LAKH });
    expect(staleEdit.statusCode).toBe(409);
  });

  it('accepts and confirms under Idempotency-Keys in a transaction: both orders booked once, replays answer the same', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    const { ticket: priced, buyer, seller } = await priceTicket(t, ticket);
    const [buyerCustodian, sellerCustodian] = await custodianIds(t, 2);
    const accept = async (who: PostTradeUser, version: number, custodian: string) => {
      const url = `/api/chatter/trade/accept-consideration/${ticketId}/`;
      const key = { 'idempotency-key': `accept-${who}-${ticketId}` };
      const first = await call(t, who, 'PATCH', url, { version, custodian_id: custodian }, key);
      expect(first.statusCode, first.body).toBe(200);
      const replay = await call(t, who, 'PATCH', url, { version, custodian_id: custodian }, key);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(json(replay)).toEqual(json(first));
      return json<Ticket>(first);
    };
    const accepted = await accept(buyer, priced.version, buyerCustodian!);
    expect(accepted.state).toBe('priced');
    const confirmed = await accept(seller, accepted.version, sellerCustodian!);
    expect(confirmed.state).toBe('reporting');
    expect(confirmed.order_ids.order).not.toBeNull();
    expect(confirmed.order_ids.procurement).not.toBeNull();
    const history = await t.database.query<{ action: string }>(`SELECT action FROM ticket_events WHERE ticket_id = $1 ORDER BY seq`, [
      ticketId,
    ]);
    expect(history.map((h) => h.action)).toEqual(['created', 'price', 'accept_consideration', 'accept_consideration', 'confirmed']);
    const booked = await t.database.query<{ kind: string }>(`SELECT kind FROM orders WHERE ticket_id = $1 ORDER BY kind`, [ticketId]);
    expect(booked.map((o) => o.kind)).toEqual(['order', 'procurement']);
  });

  it('writes a transition as one statement: a ticket changed after it was read gets 409 and nothing of the write lands', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    const read = (await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;
    const written = async () =>
      (
        await t.database.query<{ history: number; audit: number; events: number }>(
          `SELECT (SELECT count(*)::int FROM ticket_events WHERE ticket_id = $1) AS history,
                  (SELECT count(*)::int FROM audit_log WHERE entity_id = $1::text) AS audit,
                  (SELECT count(*)::int FROM events WHERE payload->>'ticket_id' = $1::text) AS events`,
          [ticketId],
        )
      )[0];
    // Another call changes the ticket between this read and its write (the race the version guard is for).
    const other = await call(t, 'second', 'PATCH', `/api/chatter/trade/${ticketId}/price/`, {
      version: ticket.version,
      price: ticket.price + 0.1,
    });
    expect(other.statusCode, other.body).toBe(200);
    const before = await written();
    const audit = { actorUserId: actors.second.userId, actorClientId: actors.second.clientId };
    const stale = writeTicketTransitions(t.database.db, read, [
      { action: 'price', audit, expectedVersion: read.version, set: { price: 99 } },
    ]);
    await expect(stale).rejects.toMatchObject({ code: 'CONFLICT', message: TICKET_MESSAGES.staleVersion });
    expect(await written()).toEqual(before);
    expect((await getTicket(t, 'demo', ticketId)).price).toBe(ticket.price + 0.1);
    // Read fresh, the same write lands whole: the row, one history row, its audit row and its events.
    const fresh = (await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;
    const { ticket: after, messages } = await writeTicketTransitions(t.database.db, fresh, [
      { action: 'price', audit, expectedVersion: fresh.version, set: { price: 99 } },
    ]);
    const stored = (await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;
    expect(after).toEqual(stored);
    const now = await written();
    expect(now).toEqual({ history: before!.history + 1, audit: before!.audit + 1, events: before!.events + messages.length });
    // The audit rows written through the one statement hash and seal as any others.
    await sealAudit(t.database.db);
    expect(await verifyAuditChain(t.database.db)).toBeNull();
    const positions = messages.map((m) => m.position ?? 0);
    expect(positions).toEqual(messages.map((m) => m.position ?? 0).sort((a, b) => a - b));
  });

  it('creates manual tickets as drafts with the spec’s validation messages', async () => {
    const hdfc = await bondId(t, HDFC_NCD);
    const base = {
      finstrument_id: hdfc,
      buy_or_sell: 'sell',
      counterparty_client_id: actors.second.clientId,
      quantum: 3 * LAKH,
      price: 101.5,
    };
    const bad = async (body: object) => {
      const response = await call(t, 'demo', 'POST', '/api/chatter/trade/manual-ticket/', body);
      expect(response.statusCode, response.body).toBe(400);
      return json<Errors>(response).errors;
    };
    expect(await bad({ ...base, yield: 0.07 })).toEqual({ price: [TICKET_MESSAGES.bothPriceAndYield] });
    expect(await bad({ ...base, price: undefined })).toEqual({ price: [TICKET_MESSAGES.priceOrYieldRequired] });
    expect(await bad({ ...base, trade_time: '25:00' })).toEqual({ trade_time: ['Please enter valid time in HH:MM 24-hour format'] });
    expect(await bad({ ...base, counterparty_client_id: actors.demo.clientId })).toEqual({
      counterparty_client_id: [TICKET_MESSAGES.sameFirm],
    });
    expect(await bad({ ...base, quantum: 150_000 })).toHaveProperty('quantum');
    expect(await bad({ ...base, quantum: -5 })).toHaveProperty('quantum');
    expect(await bad({ ...base, broker_user_id: actors.second.userId })).toEqual({ broker_user_id: [TICKET_MESSAGES.brokerNotBroker] });
    expect(await bad({ ...base, counterparty_user_id: actors.broker.userId })).toEqual({
      counterparty_user_id: [TICKET_MESSAGES.userNotInFirm],
    });
    expect(await bad({ ...base, settlement_date: '2020-01-01' })).toHaveProperty('settlement_date');
    expect(await bad({ ...base, surprise: 1 })).toBeTruthy();
    // A trade time later than now (IST) is refused: the app's clock is set to 12:00 IST today for this check.
    const istNoon = Date.parse(`${new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10)}T12:00:00+05:30`);
    const shift = istNoon - Date.now();
    t.advanceClock(shift);
    try {
      expect(await bad({ ...base, trade_time: '12:05' })).toEqual({ trade_time: [TRADE_TIME_LATER_MESSAGE] });
    } finally {
      t.advanceClock(-shift);
    }
    const created = await call(t, 'demo', 'POST', '/api/chatter/trade/manual-ticket/', {
      ...base,
      counterparty_user_id: actors.second.userId,
      broker_user_id: actors.broker.userId,
      exchange: 'BSE',
      trade_time: '00:00',
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = json<Ticket>(created);
    expect(ticket).toMatchObject({
      source: 'manual',
      state: 'draft',
      state_label: 'Draft',
      price: 101.5,
      quantum: 3 * LAKH,
      exchange: 'BSE',
      clearing_corporation: 'ICCL',
      seller_details: { client_id: actors.demo.clientId, user_id: actors.demo.userId },
      buyer_details: { client_id: actors.second.clientId, user_id: actors.second.userId },
      broker_details: [{ client_id: actors.broker.clientId, name: 'Demo Brokers', buy_or_sell: 'sell', brokerage: null }],
    });
    expect(ticket.traded_at.slice(11, 16)).toBe('18:30'); // 00:00 IST
    expect(ticket.my_actions).toEqual(expect.arrayContaining(['send', 'edit', 'cancel']));
    expect((await getTicket(t, 'second', ticket.id)).my_actions).not.toContain('send');
    expect((await call(t, 'viewer', 'POST', '/api/chatter/trade/manual-ticket/', base)).statusCode).toBe(403);
  });

  it('validates every write’s body with field errors', async () => {
    const { ticketId, ticket } = await makeDeal(t);
    const patch = (url: string, body: object, who: PostTradeUser = 'demo') => call(t, who, 'PATCH', url, body);
    const fields = async (response: Awaited<ReturnType<typeof patch>>) => {
      expect(response.statusCode, response.body).toBe(400);
      return json<Errors>(response).errors;
    };
    const v = ticket.version;
    expect(await fields(await patch(`/api/chatter/trade/actions/${ticketId}/reject/`, { version: v }))).toEqual({
      reason: [TICKET_MESSAGES.reasonRequired],
    });
    expect(await fields(await patch(`/api/chatter/trade/actions/${ticketId}/cancel/`, { version: v, reason: '  ' }))).toEqual({
      reason: [TICKET_MESSAGES.reasonRequired],
    });
    expect((await patch(`/api/chatter/trade/actions/${ticketId}/approve/`, { version: v })).statusCode).toBe(400);
    expect(await fields(await patch(`/api/chatter/trade/accept-consideration/${ticketId}/`, { version: v }))).toEqual({
      custodian_id: [TICKET_MESSAGES.custodianRequired],
    });
    expect(await fields(await patch(`/api/chatter/trade/${ticketId}/price/`, { version: v, price: 100, yield: 0.07 }, 'second'))).toEqual({
      price: [TICKET_MESSAGES.bothPriceAndYield],
    });
    expect(await fields(await patch(`/api/chatter/trade/${ticketId}/price/`, { version: v }, 'second'))).toEqual({
      price: [TICKET_MESSAGES.priceOrYieldRequired],
    });
    expect(await fields(await patch(`/api/chatter/trade/${ticketId}/`, { quantum: LAKH }))).toHaveProperty('version');
    expect(await fields(await patch(`/api/chatter/trade/${ticketId}/`, { version: v }))).toEqual({ version: ['Nothing to change.'] });
    expect(await fields(await patch(`/api/chatter/trade/${ticketId}/`, { version: v, quantum: 150_000 }))).toHaveProperty('quantum');
    expect(await fields(await patch(`/api/trade/${ticketId}/brokerage/`, { version: v, brokerage: 1.234 }))).toEqual({
      brokerage: ['At most 2 decimals (paise).'],
    });
    expect(await fields(await patch(`/api/trade/members/${ticketId}/`, { version: v, user_id: actors.second.userId }))).toEqual({
      user_id: [TICKET_MESSAGES.userNotInFirm],
    });
    expect(
      await fields(await patch(`/api/chatter/trade/send-to-broker/${ticketId}/`, { version: v, broker_user_id: actors.second.userId })),
    ).toEqual({
      broker_user_id: [TICKET_MESSAGES.brokerNotBroker],
    });
    const priced = json<Ticket>(await patch(`/api/chatter/trade/${ticketId}/price/`, { version: v, price: ticket.price }, 'second'));
    expect(
      await fields(
        await patch(`/api/chatter/trade/accept-consideration/${ticketId}/`, {
          version: priced.version,
          custodian_id: '00000000-0000-4000-8000-000000000000',
        }),
      ),
    ).toEqual({ custodian_id: [TICKET_MESSAGES.custodianUnknown] });
    expect((await call(t, 'demo', 'GET', '/api/chatter/trade/not-a-uuid/')).statusCode).toBe(400);
    expect((await call(t, 'demo', 'GET', '/api/chatter/trade/00000000-0000-4000-8000-000000000000/')).statusCode).toBe(404);
  });

  it('searches participants, brokers, custodians and a firm’s dealers', async () => {
    const unified = json<{
      users: Array<{ user_id: string; brand_name: string; is_broker: boolean }>;
      clients: Array<{ name: string; is_broker: boolean }>;
    }>(await call(t, 'demo', 'GET', '/api/chatter/users-clients-unified/?search_param=bank'));
    expect(unified.clients.map((c) => c.name)).toContain('Second Bank');
    expect(unified.clients.map((c) => c.name)).not.toContain('Demo Capital');
    expect(unified.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: actors.second.userId, brand_name: 'Second Bank' })]),
    );
    const brokers = json<typeof unified>(await call(t, 'demo', 'GET', '/api/chatter/users-clients-unified/?search_param=&broker=true'));
    expect(brokers.clients.map((c) => c.name)).toEqual(['Demo Brokers']);
    expect(brokers.users).toEqual([]);
    const { ticketId } = await makeDeal(t);
    const ticketBrokers = json<Array<{ user_id: string; is_broker: boolean }>>(
      await call(t, 'demo', 'GET', `/api/chatter/search-brokers/${ticketId}`),
    );
    expect(ticketBrokers).toEqual([
      expect.objectContaining({ user_id: actors.broker.userId, brand_name: 'Demo Brokers', is_broker: true }),
    ]);
    expect(json<unknown[]>(await call(t, 'demo', 'GET', `/api/chatter/search-brokers/${ticketId}?search_param=zzz`))).toEqual([]);
    const custodians = json<Array<{ client_id: string; name: string }>>(
      await call(t, 'viewer', 'GET', '/api/client/search-custodians/?search_param=hdfc'),
    );
    expect(custodians).toEqual([expect.objectContaining({ name: 'HDFC Bank Ltd.' })]);
    expect(json<unknown[]>(await call(t, 'demo', 'GET', '/api/client/search-custodians/')).length).toBe(17);
    const own = json<Array<{ user_id: string; email: string }>>(
      await call(t, 'demo', 'GET', `/api/trade/client/users/${actors.demo.clientId}/`),
    );
    expect(own).toEqual([{ user_id: actors.demo.userId, user_name: 'Arjun Mehta', email: 'dealer@demo.dart' }]);
    expect((await call(t, 'demo', 'GET', `/api/trade/client/users/${actors.second.clientId}/`)).statusCode).toBe(200);
    expect((await call(t, 'demo', 'GET', `/api/trade/client/users/${actors.broker.clientId}/`)).statusCode).toBe(200);
    expect((await call(t, 'demo', 'GET', `/api/trade/client/users/${actors.basic.clientId}/`)).statusCode).toBe(404);
  });
});
