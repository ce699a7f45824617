/**
 * `GET api/trade/eoi/` (spec §7): the caller's firm's own quotes — a blotter of every status, newest first,
 * with the market list's paging and filters (`page`, `page_size`, `search` — the bond search of the header,
 * Find and every market list, resolved by the caller to `finstrumentIds` —, `finstrument_id`) and `status`. Tenants are isolated by the firm id in the query itself; view-only users
 * (viewer, compliance) read it too (it changes nothing), and there is no trade-access restriction: a firm
 * without trade access simply has no quotes.
 *
 * Kept apart from market.service.ts (its read caches): own quotes always read the database.
 */
import type { MyQuotesQuery, Quote } from '@dart/contracts';
import { and, count, desc, eq, gt, lte, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { clients, finstruments, quotes } from '../../db/schema';
import { onBonds, QUOTE_WITH_BOND, type QuoteWithBond } from './market.repository';

/**
 * One page of the firm's quotes; `view` is the service's quote projection (the reader's own firm: full detail).
 * `finstrumentIds`: the bond index's matches of `query.search` (undefined without a search).
 */
export async function listMyQuotes(
  db: DbOrTx,
  clientId: string,
  query: MyQuotesQuery,
  finstrumentIds: readonly number[] | undefined,
  now: Date,
  view: (row: QuoteWithBond) => Quote,
): Promise<{ count: number; page: number; page_size: number; results: Quote[]; restriction_text: null }> {
  if (finstrumentIds?.length === 0) return { count: 0, page: query.page, page_size: query.page_size, results: [], restriction_text: null };
  const conditions: SQL[] = [eq(quotes.clientId, clientId)];
  if (query.finstrument_id) conditions.push(eq(quotes.finstrumentId, query.finstrument_id));
  if (finstrumentIds) conditions.push(onBonds(finstrumentIds));
  // A quote past its expiry is expired even before the sweep marks it (as the runs hide it).
  if (query.status === 'open') conditions.push(eq(quotes.status, 'open'), gt(quotes.expiresAt, now));
  else if (query.status === 'expired')
    conditions.push(or(eq(quotes.status, 'expired'), and(eq(quotes.status, 'open'), lte(quotes.expiresAt, now)))!);
  else if (query.status) conditions.push(eq(quotes.status, query.status));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select(QUOTE_WITH_BOND)
      .from(quotes)
      .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
      .innerJoin(clients, eq(clients.id, quotes.clientId))
      .where(where)
      .orderBy(desc(quotes.createdAt), desc(quotes.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ n: count() }).from(quotes).where(where),
  ]);
  return {
    count: Number(total?.n ?? 0),
    page: query.page,
    page_size: query.page_size,
    results: rows.map((row) => {
      const quote = view(row);
      const due = quote.status === 'open' && row.quote.expiresAt.getTime() <= now.getTime();
      return due ? { ...quote, status: 'expired' as const } : quote;
    }),
    restriction_text: null,
  };
}
