/**
 * The bench's HTTP client of the post-trade path: the demo dealers of Demo Capital and Second Bank signed in,
 * a deal made through the market API (the buyer bids, the seller counters in a negotiation, the buyer accepts
 * it: the deal and its ticket commit together), and a ticket taken to confirmation (the seller confirms the
 * price, then the buyer and the seller accept the consideration, each with a custodian).
 */
import type { Ticket } from '@dart/contracts';
import { httpClient } from '../lib/http';

export type Dealer = 'demo' | 'second';
const EMAILS: Record<Dealer, string> = { demo: 'dealer@demo.dart', second: 'dealer@second.dart' };
/** ₹5 L face value: 5 HDFC Bank NCDs or 5,000 G-sec bonds. */
const QUANTUM = 500_000;
/** Bonds of the slice import: an HDFC Bank NCD and 7.26 % GS 2033. */
const ISINS = ['INE040A08955', 'IN0020220151'];

export interface PostTradeClient {
  base: string;
  clientIds: Record<Dealer, string>;
  /** The Authorization header of a demo dealer (for autocannon). */
  headers(who: Dealer): Record<string, string>;
  /** One call as a demo dealer; a non-2xx answer throws with its body. */
  call<T>(who: Dealer, method: 'GET' | 'POST' | 'PATCH', url: string, body?: object): Promise<T>;
  /** A deal (buyer `demo` for even `i`, `second` for odd ones) and its ticket, as the buyer reads it. */
  makeDeal(i: number): Promise<Ticket>;
  /** Price, then both acceptances: the ticket is `reporting` when this resolves. */
  confirm(ticket: Ticket): Promise<Ticket>;
  /** Tickets of the given state the Demo Capital dealer sees (both firms are on every bench ticket). */
  countTickets(state: Ticket['state']): Promise<number>;
}

export async function connectClient(port: number): Promise<PostTradeClient> {
  const base = `http://127.0.0.1:${port}`;
  const tokens = {} as Record<Dealer, string>;
  const clientIds = {} as Record<Dealer, string>;
  const refreshing: Partial<Record<Dealer, Promise<void>>> = {};
  // The load's own calls through node:http (bench/lib/http.ts): fetch's CPU would be taken from the server's cores.
  const http = httpClient(base);

  async function signIn(who: Dealer): Promise<void> {
    const response = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAILS[who], password: 'Demo@12345' }),
    });
    if (!response.ok) throw new Error(`sign-in of ${EMAILS[who]}: ${response.status}`);
    tokens[who] = ((await response.json()) as { access: string }).access;
  }

  async function call<T>(who: Dealer, method: 'GET' | 'POST' | 'PATCH', url: string, body?: object): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = tokens[who];
      const { status, text } = await http.request(
        method,
        url,
        { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body ? JSON.stringify(body) : undefined,
      );
      // Access tokens live minutes: a long run signs in again, once per expiry (the first call that sees it).
      if (status === 401 && attempt === 0 && text.includes('TOKEN_EXPIRED')) {
        if (tokens[who] === token) await (refreshing[who] ??= signIn(who).finally(() => delete refreshing[who]));
        else await refreshing[who];
        continue;
      }
      if (status < 200 || status >= 300) throw new Error(`${method} ${url} as ${who}: ${status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    }
  }

  for (const who of Object.keys(EMAILS) as Dealer[]) {
    await signIn(who);
    clientIds[who] = (await call<{ client_id: string }>(who, 'GET', '/api/session/')).client_id;
  }
  const bondIds: number[] = [];
  for (const isin of ISINS) bondIds.push((await call<{ id: number }>('demo', 'GET', `/api/finstrument/${isin}/`)).id);
  const custodians = await call<Array<{ client_id: string }>>('demo', 'GET', '/api/client/search-custodians/');
  if (custodians.length < 2) throw new Error('fewer than two custodians');
  const dealerOf = (clientId: string): Dealer => (clientId === clientIds.demo ? 'demo' : 'second');

  async function makeDeal(i: number): Promise<Ticket> {
    const buyer: Dealer = i % 2 === 0 ? 'demo' : 'second';
    const seller: Dealer = buyer === 'demo' ? 'second' : 'demo';
    const agreed = 0.078 + (i % 20) / 10_000;
    const bid = await call<{ id: string }>(buyer, 'POST', '/api/trade/eoi/', {
      quote_type: 'BID',
      quantum: QUANTUM,
      finstrument_id: bondIds[i % bondIds.length],
      yield_stored: Number((agreed + 0.0005).toFixed(6)),
      validity: 60,
    });
    const counter = await call<{ id: string }>(seller, 'POST', '/api/eoi/add-negotiation/', { quote_id: bid.id, yield_stored: agreed });
    const accepted = await call<{ deal?: { id: string } }>(buyer, 'POST', '/api/eoi/add-negotiation/', {
      quote_id: bid.id,
      negotiation_id: counter.id,
      action: 'accept',
    });
    if (!accepted.deal?.id) throw new Error(`negotiation accept made no deal: ${JSON.stringify(accepted).slice(0, 300)}`);
    // The ticket was written in the deal's transaction: this answers it (200), never creates one.
    return call<Ticket>(buyer, 'POST', '/api/chatter/trade/', { deal_id: accepted.deal.id });
  }

  async function confirm(ticket: Ticket): Promise<Ticket> {
    const buyer = dealerOf(ticket.buyer_details.client_id);
    const seller = dealerOf(ticket.seller_details.client_id);
    const priced = await call<Ticket>(seller, 'PATCH', `/api/chatter/trade/${ticket.id}/price/`, {
      version: ticket.version,
      price: ticket.price,
    });
    const first = await call<Ticket>(buyer, 'PATCH', `/api/chatter/trade/accept-consideration/${ticket.id}/`, {
      version: priced.version,
      custodian_id: custodians[0]!.client_id,
    });
    const second = await call<Ticket>(seller, 'PATCH', `/api/chatter/trade/accept-consideration/${ticket.id}/`, {
      version: first.version,
      custodian_id: custodians[1]!.client_id,
    });
    if (second.state !== 'reporting' && second.state !== 'reported')
      throw new Error(`ticket ${ticket.number} is ${second.state} after both acceptances`);
    return second;
  }

  async function countTickets(state: Ticket['state']): Promise<number> {
    return (await call<{ count: number }>('demo', 'GET', `/api/chatter/trade/?state=${state}&page=1&page_size=1`)).count;
  }

  const headers = (who: Dealer) => ({ authorization: `Bearer ${tokens[who]}` });
  return { base, clientIds, headers, call, makeDeal, confirm, countTickets };
}

/** Runs `work` over `items` with at most `width` in flight. */
export async function inPool<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}

/** Polls until no bench ticket is `reporting` any more (or throws after `timeoutMs`). */
export async function waitUntilReported(client: PostTradeClient, expected: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reporting = await client.countTickets('reporting');
    if (reporting === 0) {
      const reported = (await client.countTickets('reported')) + (await client.countTickets('settled'));
      if (reported < expected) throw new Error(`only ${reported} of ${expected} tickets reported (the others left reporting)`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`${reporting} tickets still reporting after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface TicketTimes {
  /** When the deal was struck (the ticket's traded_at), ms since the epoch. */
  deal: number;
  /** The second acceptance (history `confirmed`). */
  confirmed: number;
  /** The match at the venue stored (history `reported`). */
  reported: number;
}

/**
 * The server's own timestamps of each ticket, read back after the run from its history (`GET
 * api/chatter/trade/{id}/`): the deal, the confirmation, the report. Nothing observed by the client is needed,
 * so a live event dropped or late changes nothing.
 */
export async function ticketTimes(client: PostTradeClient, ids: readonly string[]): Promise<TicketTimes[]> {
  const out: TicketTimes[] = [];
  await inPool(ids, 8, async (id) => {
    const ticket = await client.call<Ticket>('demo', 'GET', `/api/chatter/trade/${id}/`);
    const at = (action: string) => ticket.history?.find((h) => h.action === action)?.at;
    const confirmed = at('confirmed');
    const reported = at('reported');
    if (!confirmed || !reported) throw new Error(`ticket ${ticket.number} (${ticket.state}) has no confirmed/reported history entry`);
    out.push({ deal: Date.parse(ticket.traded_at), confirmed: Date.parse(confirmed), reported: Date.parse(reported) });
  });
  return out;
}

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
