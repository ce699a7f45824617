/**
 * Issue 13 ticket state machine through the HTTP API: every user action refused in every state where the
 * machine has no edge (409 naming the state), every edge taken by who may take it and refused to who may not
 * (403), the seller-or-buyer's-broker rule with Demo Brokers on either side, and the live events
 * (`trade.refresh_tickets`, `trade.consideration_update`, `trade.open_orders`) reaching exactly the firms on
 * the trade over real sockets.
 */
import {
  isSellerOrBuyerBroker,
  POST_TRADE_TOPICS,
  TICKET_MESSAGES,
  TICKET_STATES,
  TICKET_TRANSITIONS,
  type Ticket,
  type TicketHistoryAction,
  type TicketState,
} from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import {
  bondId,
  call,
  confirmTicket,
  connectLive,
  custodianIds,
  getTicket,
  HDFC_NCD,
  LAKH,
  makeDeal,
  postTradeActors,
  type Actor,
  type PostTradeUser,
} from './post-trade-support';

type Errors = { code: string; message: string; errors?: Record<string, string[]> };
const USER_ACTIONS = [
  'send',
  'price',
  'edit',
  'members',
  'send_to_broker',
  'brokerage',
  'accept_consideration',
  'reject',
  'cancel',
] as const;

describe.each(DRIVERS)('ticket state machine (%s)', (driver) => {
  let t: TestApp;
  let actors: Record<PostTradeUser, Actor>;
  let custodian: string;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    actors = await postTradeActors(t);
    custodian = (await custodianIds(t, 1))[0]!;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  /** One user action on a ticket, with a valid body for it. */
  async function act(
    who: PostTradeUser,
    ticket: Pick<Ticket, 'id' | 'version' | 'price'>,
    action: TicketHistoryAction,
    extra: object = {},
  ) {
    const v = { version: ticket.version, ...extra };
    const id = ticket.id;
    switch (action) {
      case 'send':
      case 'reject':
      case 'cancel':
        return call(
          t,
          who,
          'PATCH',
          `/api/chatter/trade/actions/${id}/${action}/`,
          action === 'send' ? v : { reason: `${action} test`, ...v },
        );
      case 'price':
        return call(t, who, 'PATCH', `/api/chatter/trade/${id}/price/`, { price: ticket.price, ...v });
      case 'edit':
        return call(t, who, 'PATCH', `/api/chatter/trade/${id}/`, { quantum: 6 * LAKH, ...v });
      case 'members':
        return call(t, who, 'PATCH', `/api/trade/members/${id}/`, { user_id: actors[who].userId, ...v });
      case 'send_to_broker':
        return call(t, who, 'PATCH', `/api/chatter/trade/send-to-broker/${id}/`, { broker_user_id: actors.broker.userId, ...v });
      case 'brokerage':
        return call(t, who, 'PATCH', `/api/trade/${id}/brokerage/`, { brokerage: 2500.5, ...v });
      case 'accept_consideration':
        return call(t, who, 'PATCH', `/api/chatter/trade/accept-consideration/${id}/`, { custodian_id: custodian, ...v });
      default:
        throw new Error(`not a user action: ${action}`);
    }
  }
  /** The action succeeds: the ticket after it. */
  async function ok(who: PostTradeUser, ticket: Ticket, action: TicketHistoryAction, extra: object = {}): Promise<Ticket> {
    const response = await act(who, ticket, action, extra);
    expect(response.statusCode, `${who} ${action}: ${response.body}`).toBe(200);
    return json<Ticket>(response);
  }
  /** The action is refused with `status` and `message`. */
  async function refused(who: PostTradeUser, ticket: Ticket, action: TicketHistoryAction, status: number, message: string) {
    const response = await act(who, ticket, action);
    expect(response.statusCode, `${who} ${action} in ${ticket.state}: ${response.body}`).toBe(status);
    expect(json<Errors>(response).message).toBe(message);
  }
  /** A manual ticket (draft) Demo Capital buys from Second Bank. */
  async function draft(): Promise<Ticket> {
    const response = await call(t, 'demo', 'POST', '/api/chatter/trade/manual-ticket/', {
      finstrument_id: await bondId(t, HDFC_NCD),
      buy_or_sell: 'buy',
      counterparty_client_id: actors.second.clientId,
      quantum: 4 * LAKH,
      yield: 0.0785,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<Ticket>(response);
  }
  const sent = async () => (await makeDeal(t)).ticket;
  const priced = async () => ok('second', await sent(), 'price');

  it('refuses every user action the machine has no edge for, in every state, with 409 naming the state', async () => {
    const confirmed = await confirmTicket(t, (await makeDeal(t)).ticketId);
    const byState: Partial<Record<TicketState, Ticket>> = {
      draft: await draft(),
      sent: await sent(),
      priced: await priced(),
      reporting: confirmed,
      cancelled: await ok('demo', await sent(), 'cancel'),
      rejected: await ok('second', await sent(), 'reject'),
    };
    // The system's own states (orders module: reported, settled, failed) are set directly here.
    for (const state of ['reported', 'settled', 'failed'] as const) {
      const ticket = await confirmTicket(t, (await makeDeal(t)).ticketId);
      await t.database.query(`UPDATE tickets SET state = $1 WHERE id = $2`, [state, ticket.id]);
      byState[state] = await getTicket(t, 'demo', ticket.id);
    }
    let checked = 0;
    for (const state of TICKET_STATES) {
      const ticket = byState[state]!;
      expect(ticket.state).toBe(state);
      for (const action of USER_ACTIONS) {
        if (TICKET_TRANSITIONS[state][action]) continue;
        await refused('demo', ticket, action, 409, TICKET_MESSAGES.notAllowed(state, action.replace(/_/g, ' ')));
        checked++;
      }
      expect((await getTicket(t, 'demo', ticket.id)).version, state).toBe(ticket.version);
    }
    expect(checked).toBeGreaterThanOrEqual(40);
    expect(TICKET_MESSAGES.notAllowed('reporting', 'price')).toBe('This ticket is reporting: price is not allowed.');
  });

  it('draft: the creator edits, sends and cancels; either principal sets members and brokers; the counterparty cannot send', async () => {
    let ticket = await draft();
    await refused('second', ticket, 'send', 403, TICKET_MESSAGES.notYourTurn);
    await refused('second', ticket, 'edit', 403, TICKET_MESSAGES.notYourTurn);
    await refused('second', ticket, 'cancel', 403, TICKET_MESSAGES.notYourTurn);
    ticket = await ok('demo', ticket, 'edit');
    expect(ticket).toMatchObject({ state: 'draft', quantum: 6 * LAKH, version: 2 });
    ticket = await ok('second', ticket, 'members');
    expect(ticket.seller_details.user_id).toBe(actors.second.userId);
    ticket = await ok('demo', ticket, 'send_to_broker');
    expect(ticket.broker_details).toEqual([expect.objectContaining({ client_id: actors.broker.clientId, buy_or_sell: 'buy' })]);
    ticket = await ok('demo', ticket, 'send');
    expect(ticket).toMatchObject({ state: 'sent', state_label: 'Awaiting price' });
    // sent: the counterparty (not the creator) rejects, with its reason.
    await refused('demo', ticket, 'reject', 403, TICKET_MESSAGES.notYourTurn);
    ticket = await ok('second', ticket, 'reject');
    expect(ticket).toMatchObject({ state: 'rejected', reason: 'reject test' });
    expect(ticket.history!.map((h) => [h.action, h.from_state, h.to_state])).toEqual([
      ['created', null, 'draft'],
      ['edit', 'draft', 'draft'],
      ['members', 'draft', 'draft'],
      ['send_to_broker', 'draft', 'draft'],
      ['send', 'draft', 'sent'],
      ['reject', 'sent', 'rejected'],
    ]);
    expect(ticket.history!.at(-1)).toMatchObject({
      label: 'Rejected',
      reason: 'reject test',
      actor_name: 'Neha Kulkarni',
      actor_firm: 'Second Bank',
    });
    const cancelled = await ok('demo', await draft(), 'cancel');
    expect(cancelled).toMatchObject({ state: 'cancelled', state_label: 'Cancelled', reason: 'cancel test', my_actions: [] });
  });

  it('sent: the seller prices; principals edit, set members and brokers, reject and cancel; only a broker sets brokerage', async () => {
    let ticket = await sent();
    await refused('demo', ticket, 'price', 403, TICKET_MESSAGES.priceSetterOnly);
    await refused('demo', ticket, 'brokerage', 403, TICKET_MESSAGES.brokerOnly);
    expect((await act('broker', ticket, 'price')).statusCode).toBe(404);
    ticket = await ok('second', ticket, 'edit');
    expect(ticket).toMatchObject({ state: 'sent', quantum: 6 * LAKH });
    ticket = await ok('demo', ticket, 'members');
    ticket = await ok('second', ticket, 'send_to_broker');
    ticket = await ok('broker', ticket, 'brokerage');
    expect(ticket.broker_details).toEqual([
      expect.objectContaining({ client_id: actors.broker.clientId, buy_or_sell: 'sell', brokerage: 2500.5 }),
    ]);
    await refused('broker', ticket, 'send_to_broker', 403, TICKET_MESSAGES.notYourTurn);
    ticket = await ok('second', ticket, 'price', { price: ticket.price + 0.5 });
    expect(ticket).toMatchObject({ state: 'priced', state_label: 'Priced' });
    expect(ticket.price_confirmed_at).not.toBeNull();
    // A deal's ticket has no creator: either side may reject it, either may cancel it.
    expect((await ok('demo', await sent(), 'reject')).state).toBe('rejected');
    expect((await ok('second', await sent(), 'cancel')).state).toBe('cancelled');
  });

  it('priced: each side accepts once with its custodian; a re-price, edit or member change clears both acceptances; the second accept confirms', async () => {
    let ticket = await priced();
    ticket = await ok('demo', ticket, 'accept_consideration');
    expect(ticket).toMatchObject({ state: 'priced', buyer_acceptance: { accepted_by: 'Arjun Mehta', custodian_id: custodian } });
    expect(ticket.my_actions).not.toContain('accept_consideration');
    await refused('demo', ticket, 'accept_consideration', 409, TICKET_MESSAGES.alreadyAccepted);
    for (const [who, action] of [
      ['second', 'price'],
      ['demo', 'edit'],
      ['second', 'members'],
      ['demo', 'send_to_broker'],
    ] as const) {
      if (!ticket.buyer_acceptance.accepted_at) ticket = await ok('demo', ticket, 'accept_consideration');
      expect(ticket.buyer_acceptance.accepted_at).not.toBeNull();
      ticket = await ok(who, ticket, action, action === 'price' ? { price: ticket.price - 0.1 } : {});
      expect(ticket.state, action).toBe('priced');
      expect(ticket.buyer_acceptance, action).toEqual({ accepted_at: null, accepted_by: null, custodian_id: null, custodian_name: null });
    }
    ticket = await ok('broker', ticket, 'brokerage');
    ticket = await ok('demo', ticket, 'accept_consideration');
    ticket = await ok('second', ticket, 'accept_consideration');
    expect(ticket.state).toBe('reporting');
    expect(ticket.history!.slice(-2).map((h) => h.action)).toEqual(['accept_consideration', 'confirmed']);
    // reporting: a broker may still set its brokerage; nothing else.
    ticket = await ok('broker', ticket, 'brokerage', { brokerage: 10 });
    expect(ticket.state).toBe('reporting');
    expect(ticket.my_actions).toEqual(['brokerage']);
    expect((await getTicket(t, 'demo', ticket.id)).my_actions).toEqual([]);
    expect((await ok('demo', await priced(), 'reject')).state).toBe('rejected');
    expect((await ok('second', await priced(), 'cancel')).state).toBe('cancelled');
  });

  it('applies the seller-or-buyer’s-broker rule with Demo Brokers on the seller’s side and on the buyer’s side', () => {
    const ticket = (seller: string, brokers: Array<{ client_id: string; buy_or_sell: 'buy' | 'sell' }>) => ({
      seller_details: { user_id: null, client_id: seller },
      broker_details: brokers.map((b) => ({ ...b, user_id: null })),
    });
    const broker = { user_id: 'u-broker', client_id: 'brokers' };
    expect(isSellerOrBuyerBroker(ticket('second', []), { user_id: 'u-second', client_id: 'second' })).toBe(true);
    expect(isSellerOrBuyerBroker(ticket('second', []), { user_id: 'u-demo', client_id: 'demo' })).toBe(false);
    expect(isSellerOrBuyerBroker(ticket('second', [{ client_id: 'brokers', buy_or_sell: 'sell' }]), broker)).toBe(false);
    expect(isSellerOrBuyerBroker(ticket('second', [{ client_id: 'brokers', buy_or_sell: 'buy' }]), broker)).toBe(true);
  });

  it('Demo Brokers working the seller’s side sees a purchase and cannot price; working the buyer’s side it sees a sale and prices', async () => {
    let sellerSide = await ok('second', await sent(), 'send_to_broker');
    const asBroker = await getTicket(t, 'broker', sellerSide.id);
    expect(asBroker.buy_or_sell).toBe('buy');
    expect(asBroker.my_actions).not.toContain('price');
    await refused('broker', sellerSide, 'price', 403, TICKET_MESSAGES.priceSetterOnly);
    // It acts for the seller's side: it accepts the consideration for it.
    sellerSide = await ok('second', sellerSide, 'price');
    sellerSide = await ok('broker', sellerSide, 'accept_consideration');
    expect(sellerSide.seller_acceptance.accepted_by).toBe('Farhan Shaikh');
    expect(sellerSide.buyer_acceptance.accepted_at).toBeNull();

    let buyerSide = await ok('demo', await sent(), 'send_to_broker');
    const brokerView = await getTicket(t, 'broker', buyerSide.id);
    expect(brokerView.buy_or_sell).toBe('sell');
    expect(brokerView.my_actions).toContain('price');
    expect((await getTicket(t, 'demo', buyerSide.id)).buy_or_sell).toBe('buy');
    expect((await getTicket(t, 'second', buyerSide.id)).buy_or_sell).toBe('sell');
    buyerSide = await ok('broker', buyerSide, 'price', { price: buyerSide.price + 0.05 });
    expect(buyerSide.state).toBe('priced');
    expect(buyerSide.history!.at(-1)).toMatchObject({ action: 'price', label: 'Quoted', actor_firm: 'Demo Brokers' });
  });

  it('sends live events to exactly the firms on the trade', async () => {
    const demo = await connectLive(t, 'demo');
    const second = await connectLive(t, 'second');
    const broker = await connectLive(t, 'broker');
    const basic = await connectLive(t, 'basic');
    try {
      const { ticket } = await makeDeal(t);
      const about = (topic: string, action?: string) => (e: { topic: string; payload: Record<string, unknown> }) =>
        e.topic === topic && e.payload.ticket_id === ticket.id && (action === undefined || e.payload.action === action);
      // The deal's ticket, created in the deal's transaction, reaches both sides live.
      for (const c of [demo, second]) await c.next(about(POST_TRADE_TOPICS.refreshTickets, 'created'));
      let current = await ok('demo', ticket, 'send_to_broker');
      await broker.next(about(POST_TRADE_TOPICS.refreshTickets, 'send_to_broker'));
      current = await ok('second', current, 'price', { price: current.price + 0.2 });
      for (const c of [demo, second, broker]) {
        const update = await c.next(about(POST_TRADE_TOPICS.considerationUpdate));
        expect(update.payload).toMatchObject({ price: current.price, consideration: current.consideration.consideration });
      }
      await confirmTicket(t, current.id);
      for (const c of [demo, second, broker]) {
        await c.next(about(POST_TRADE_TOPICS.refreshTickets, 'confirmed'));
        await c.next(about(POST_TRADE_TOPICS.openOrders));
      }
      // A manual ticket between Demo Capital and Second Bank only: Demo Brokers hears nothing of it.
      const manual = await draft();
      await second.next((e) => e.topic === POST_TRADE_TOPICS.refreshTickets && e.payload.ticket_id === manual.id);
      await new Promise((r) => setTimeout(r, 300));
      expect(broker.events.some((e) => e.payload.ticket_id === manual.id)).toBe(false);
      expect(basic.events.filter((e) => e.topic.startsWith('trade.'))).toEqual([]);
    } finally {
      for (const c of [demo, second, broker, basic]) c.close();
    }
  });
});
