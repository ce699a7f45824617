/**
 * Shared helpers of the post-trade suites (tickets, orders, settlement): signed-in demo users, a real deal
 * between Demo Capital and Second Bank made through the market API on a seeded bond, and a ticket taken
 * through pricing and both acceptances to confirmation. Apps must be built with `{ BOND_IMPORT: 'slice' }`.
 */
import type { AddressInfo } from 'node:net';
import { TicketSchema, type Ticket } from '@dart/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, json, login, type TestApp } from './helpers';

/** Sizes are face value in rupees: ₹1 L is one HDFC NCD or 1,000 G-sec bonds. */
export const LAKH = 100_000;
/** 7.26 % GS 2033 (a G-sec: no stamp duty) and an HDFC Bank NCD (a corporate bond: stamp duty on the buyer). */
export const GSEC_2033 = 'IN0020220151';
export const HDFC_NCD = 'INE040A08955';

export const POST_TRADE_USERS = {
  demo: 'dealer@demo.dart',
  second: 'dealer@second.dart',
  broker: 'broker@brokers.dart',
  basic: 'basic@small.dart',
  viewer: 'viewer@demo.dart',
  compliance: 'compliance@demo.dart',
  backoffice: 'backoffice@demo.dart',
} as const;
export type PostTradeUser = keyof typeof POST_TRADE_USERS;

export interface Actor {
  token: string;
  userId: string;
  clientId: string;
}

const actorsByApp = new WeakMap<TestApp, Promise<Record<PostTradeUser, Actor>>>();

/** Every demo user of the post-trade suites, signed in once per app (token, user id, firm id). */
export function postTradeActors(t: TestApp): Promise<Record<PostTradeUser, Actor>> {
  let actors = actorsByApp.get(t);
  if (!actors) {
    actors = (async () => {
      const out = {} as Record<PostTradeUser, Actor>;
      for (const [who, email] of Object.entries(POST_TRADE_USERS) as Array<[PostTradeUser, string]>) {
        const token = (await login(t.app, email)).access;
        const session = json<{ user_info: { id: string }; client_id: string }>(
          await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(token) }),
        );
        out[who] = { token, userId: session.user_info.id, clientId: session.client_id };
      }
      return out;
    })();
    actorsByApp.set(t, actors);
  }
  return actors;
}

/** One HTTP call as a demo user (JSON body when given). */
export async function call(
  t: TestApp,
  who: PostTradeUser,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const actor = (await postTradeActors(t))[who];
  const response = await t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...bearer(actor.token), ...headers } });
  holdToTicketSchema(method, url, response);
  return response;
}

/**
 * The routes that answer one ticket write it without the zod serializer (tickets.routes.ts, `typedJsonSerializer`):
 * every such answer a test gets must be exactly TicketSchema's shape — parsing strips keys the schema does not
 * name, so a field the view sends beyond it, or a value the schema would change, fails here.
 */
function holdToTicketSchema(method: string, url: string, response: LightMyRequestResponse): void {
  if (response.statusCode >= 300) return;
  const path = url.split('?')[0]!;
  const oneTicket =
    method === 'GET'
      ? /^\/api\/chatter\/trade\/[0-9a-f-]{36}\/$/.test(path)
      : path.startsWith('/api/chatter/trade/') || /^\/api\/trade\/(members\/[^/]+|[^/]+\/brokerage)\/$/.test(path);
  if (!oneTicket) return;
  const body: unknown = response.json();
  expect(TicketSchema.parse(body), `${method} ${path}: the answer is TicketSchema's shape`).toEqual(body);
}

/** The finstrument id of an ISIN. */
export async function bondId(t: TestApp, isin: string): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: `/api/finstrument/${isin}/` });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ id: number }>(response).id;
}

export interface MadeDeal {
  dealId: string;
  /** The deal's ticket (created with the deal; read back through `POST api/chatter/trade/`). */
  ticketId: string;
  ticket: Ticket;
  finstrumentId: number;
  deal: { id: string; price: number; yield: number; quantum: number; settlement_date: string; consideration: number };
}

export interface DealOptions {
  /** ISIN of a seeded bond (default the HDFC NCD). */
  isin?: string;
  /** Face value in rupees (default ₹5 L). */
  quantum?: number;
  /** The agreed yield, fraction (default 0.078). */
  yield?: number;
  /** Who buys: Demo Capital (default) or Second Bank; the other firm sells. */
  buyer?: 'demo' | 'second';
}

/**
 * A deal between Demo Capital and Second Bank through the market API: the buyer's dealer posts a bid, the
 * seller's dealer counters it in a negotiation, and the buyer accepts the counter. Returns the deal and its
 * ticket (POST api/chatter/trade/ answers the existing one).
 */
export async function makeDeal(t: TestApp, options: DealOptions = {}): Promise<MadeDeal> {
  const buyer = options.buyer ?? 'demo';
  const seller = buyer === 'demo' ? 'second' : 'demo';
  const finstrumentId = await bondId(t, options.isin ?? HDFC_NCD);
  const quantum = options.quantum ?? 5 * LAKH;
  const agreed = options.yield ?? 0.078;
  const bid = await call(t, buyer, 'POST', '/api/trade/eoi/', {
    quote_type: 'BID',
    quantum,
    finstrument_id: finstrumentId,
    yield_stored: Number((agreed + 0.0005).toFixed(6)),
    validity: 60,
  });
  expect(bid.statusCode, bid.body).toBe(201);
  const quoteId = json<{ id: string }>(bid).id;
  const counter = await call(t, seller, 'POST', '/api/eoi/add-negotiation/', { quote_id: quoteId, yield_stored: agreed });
  expect(counter.statusCode, counter.body).toBe(200);
  const negotiationId = json<{ id: string }>(counter).id;
  const accepted = await call(t, buyer, 'POST', '/api/eoi/add-negotiation/', {
    quote_id: quoteId,
    negotiation_id: negotiationId,
    action: 'accept',
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const deal = json<{ deal: MadeDeal['deal'] }>(accepted).deal;
  expect(deal?.id).toBeTruthy();
  const ticketResponse = await call(t, buyer, 'POST', '/api/chatter/trade/', { deal_id: deal.id });
  expect([200, 201], ticketResponse.body).toContain(ticketResponse.statusCode);
  const ticket = json<Ticket>(ticketResponse);
  return { dealId: deal.id, ticketId: ticket.id, ticket, finstrumentId, deal };
}

/** The custodians table (seeded by migration 0018), first `count` of them. */
export async function custodianIds(t: TestApp, count = 2): Promise<string[]> {
  const response = await call(t, 'demo', 'GET', '/api/client/search-custodians/');
  expect(response.statusCode, response.body).toBe(200);
  const list = json<Array<{ client_id: string }>>(response);
  expect(list.length).toBeGreaterThanOrEqual(count);
  return list.slice(0, count).map((c) => c.client_id);
}

/** Reads a ticket as a demo user. */
export async function getTicket(t: TestApp, who: PostTradeUser, ticketId: string): Promise<Ticket> {
  const response = await call(t, who, 'GET', `/api/chatter/trade/${ticketId}/`);
  expect(response.statusCode, response.body).toBe(200);
  return json<Ticket>(response);
}

/** The demo user acting for a firm of the Demo Capital ↔ Second Bank trades. */
async function dealerOf(t: TestApp, clientId: string): Promise<PostTradeUser> {
  const actors = await postTradeActors(t);
  const who = (['demo', 'second', 'basic'] as const).find((w) => actors[w].clientId === clientId);
  if (!who) throw new Error(`no demo dealer for firm ${clientId}`);
  return who;
}

/**
 * The seller confirms a ticket's price (unchanged unless `price` is given). Returns the priced ticket and which
 * demo dealer acts for each side.
 */
export async function priceTicket(
  t: TestApp,
  ticket: Ticket,
  price?: number,
): Promise<{ ticket: Ticket; buyer: PostTradeUser; seller: PostTradeUser }> {
  const buyer = await dealerOf(t, ticket.buyer_details.client_id);
  const seller = await dealerOf(t, ticket.seller_details.client_id);
  const priced = await call(t, seller, 'PATCH', `/api/chatter/trade/${ticket.id}/price/`, {
    version: ticket.version,
    price: price ?? ticket.price,
  });
  expect(priced.statusCode, priced.body).toBe(200);
  return { ticket: json<Ticket>(priced), buyer, seller };
}

/**
 * Takes a ticket in `sent` (or `priced`) to confirmation: the seller confirms the price (unchanged unless
 * `price` is given), then the buyer and the seller accept the consideration, each with a custodian. Returns
 * the confirmed ticket (state `reporting`, with its order and procurement order).
 */
export async function confirmTicket(t: TestApp, ticketId: string, options: { price?: number } = {}): Promise<Ticket> {
  let ticket = await getTicket(t, 'demo', ticketId);
  const buyer = await dealerOf(t, ticket.buyer_details.client_id);
  const seller = await dealerOf(t, ticket.seller_details.client_id);
  const [buyerCustodian, sellerCustodian] = await custodianIds(t, 2);
  if (ticket.state === 'sent' || options.price !== undefined) ticket = (await priceTicket(t, ticket, options.price)).ticket;
  const first = await call(t, buyer, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, {
    version: ticket.version,
    custodian_id: buyerCustodian,
  });
  expect(first.statusCode, first.body).toBe(200);
  ticket = json<Ticket>(first);
  const second = await call(t, seller, 'PATCH', `/api/chatter/trade/accept-consideration/${ticketId}/`, {
    version: ticket.version,
    custodian_id: sellerCustodian,
  });
  expect(second.statusCode, second.body).toBe(200);
  ticket = json<Ticket>(second);
  expect(ticket.state).toBe('reporting');
  return ticket;
}

export interface LiveClient {
  /** Every `event` frame received, in order. */
  events: Array<{ topic: string; position: number; payload: Record<string, unknown> }>;
  next(predicate: (e: LiveClient['events'][number]) => boolean, timeoutMs?: number): Promise<LiveClient['events'][number]>;
  close(): void;
}

/**
 * A signed-in `ws/trade/d/` socket of a demo user on a listening app (`await t.app.listen({ port: 0, host:
 * '127.0.0.1' })` first): resolves once `auth_ok` arrived, then collects the events it is sent.
 */
export async function connectLive(t: TestApp, who: PostTradeUser): Promise<LiveClient> {
  const address = t.app.server.address() as AddressInfo;
  const token = (await postTradeActors(t))[who].token;
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}/ws/trade/d/`);
  const events: LiveClient['events'] = [];
  const waiters: Array<{ predicate: (e: LiveClient['events'][number]) => boolean; resolve: (e: LiveClient['events'][number]) => void }> =
    [];
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (raw: Buffer) => {
      const frame = JSON.parse(raw.toString()) as { type: string; topic: string; position: number; payload: Record<string, unknown> };
      if (frame.type === 'auth_ok') resolve();
      if (frame.type !== 'event') return;
      const event = { topic: frame.topic, position: frame.position, payload: frame.payload };
      events.push(event);
      for (const w of waiters.slice())
        if (w.predicate(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
  });
  return {
    events,
    next(predicate, timeoutMs = 5000) {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${who}: no such live event; got ${JSON.stringify(events.slice(-5))}`)), timeoutMs);
        waiters.push({
          predicate,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close: () => socket.close(),
  };
}
