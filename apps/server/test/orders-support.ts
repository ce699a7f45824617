/**
 * Helpers of the orders suites: a confirmed ticket with its order (seller, Second Bank by default) and
 * procurement order (buyer, Demo Capital), the orders' rows and the venue's book, and PDF text for the
 * contract note. Built on post-trade-support.ts (a real deal through the market API, confirmed through the
 * tickets API); apps must be built with `{ BOND_IMPORT: 'slice' }`.
 */
import { inflateSync } from 'node:zlib';
import type { Order, Ticket } from '@dart/contracts';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, exchangeSimReports, exchangeSimSettlements, orders, ticketEvents } from '../src/db/schema';
import { json, type TestApp } from './helpers';
import { call, confirmTicket, makeDeal, type DealOptions, type PostTradeUser } from './post-trade-support';

export interface ConfirmedTrade {
  ticket: Ticket;
  ticketId: string;
  /** The seller's order id and the buyer's procurement order id. */
  orderId: string;
  procurementId: string;
  seller: PostTradeUser;
  buyer: PostTradeUser;
}

/** A deal made and its ticket confirmed: both orders `reporting`, nothing sent to the venue yet. */
export async function confirmedTrade(t: TestApp, options: DealOptions = {}): Promise<ConfirmedTrade> {
  const made = await makeDeal(t, options);
  const ticket = await confirmTicket(t, made.ticketId);
  const buyer: PostTradeUser = (options.buyer ?? 'demo') === 'demo' ? 'demo' : 'second';
  const seller: PostTradeUser = buyer === 'demo' ? 'second' : 'demo';
  const rows = await t.database.db.select().from(orders).where(eq(orders.ticketId, made.ticketId));
  const orderId = rows.find((r) => r.kind === 'order')!.id;
  const procurementId = rows.find((r) => r.kind === 'procurement')!.id;
  expect(rows.map((r) => r.state)).toEqual(['reporting', 'reporting']);
  return { ticket, ticketId: made.ticketId, orderId, procurementId, seller, buyer };
}

/** `api/orders` for an order, `api/procurement-orders` for a procurement order. */
export const pathOf = (kind: 'order' | 'procurement') => (kind === 'order' ? '/api/orders' : '/api/procurement-orders');

/** Reads an order through the API as a demo user (expects 200). */
export async function readOrder(t: TestApp, who: PostTradeUser, kind: 'order' | 'procurement', id: string): Promise<Order> {
  const response = await call(t, who, 'GET', `${pathOf(kind)}/${id}/`);
  expect(response.statusCode, response.body).toBe(200);
  return json<Order>(response);
}

export async function orderRows(t: TestApp, ticketId: string) {
  const rows = await t.database.db.select().from(orders).where(eq(orders.ticketId, ticketId));
  return { order: rows.find((r) => r.kind === 'order')!, procurement: rows.find((r) => r.kind === 'procurement')! };
}

/** The venue's book for a ticket: both sides' reports and the trade at the clearing corporation. */
export async function venueBook(t: TestApp, ticketId: string) {
  const reports = await t.database.db.select().from(exchangeSimReports).where(eq(exchangeSimReports.ticketId, ticketId));
  const trades = await t.database.db.select().from(exchangeSimSettlements).where(eq(exchangeSimSettlements.ticketId, ticketId));
  return { sell: reports.find((r) => r.side === 'sell'), buy: reports.find((r) => r.side === 'buy'), trades };
}

/** The ticket's history entries of one action. */
export async function historyOf(t: TestApp, ticketId: string, action: string) {
  return t.database.db
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.action, action)));
}

/** Audit rows of one action on one entity. */
export async function auditOf(t: TestApp, action: string, entityId: string) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));
}

/** The firms an event of `topic` about `key` = `value` in its payload went to. */
export async function audienceOf(t: TestApp, topic: string, key: string, value: string): Promise<string[]> {
  const rows = await t.database.query<{ client_id: string }>(
    `SELECT DISTINCT client_id FROM events WHERE topic = $1 AND payload->>'${key}' = $2 ORDER BY client_id`,
    [topic, value],
  );
  return rows.map((r) => r.client_id);
}

/** The text a PDF draws (pdfkit: hex strings in TJ arrays of deflated content streams), and its page count. */
export function pdfText(pdf: Buffer): { text: string; pages: number } {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  // Each stream's bytes are cut by its /Length: a pattern up to "endstream" cuts a stream whose compressed bytes
  // end in a carriage return one byte short (about one stream in 256), and the page's text goes missing.
  for (const match of raw.matchAll(/\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, start + Number(match[1]))).toString('latin1');
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g))
      lines.push([...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
  }
  return { text: lines.join('\n'), pages: (raw.match(/\/Type \/Page\b/g) ?? []).length };
}
