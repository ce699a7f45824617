/** SQL for finstruments: lookups, filtered/sorted/paginated lists, trades, ratings, reference prices. */
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { FinstrumentListRequestSchema, TradesRequestSchema } from '@dart/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { finstrumentRatings, finstruments, finstrumentTrades, referencePrices } from '../../db/schema';
import type { IndexedBond } from './search-index';

export type FinstrumentRow = typeof finstruments.$inferSelect;
type ListInput = z.output<typeof FinstrumentListRequestSchema>;
type TradesInput = z.output<typeof TradesRequestSchema>;
type NumericOp = 'equals' | 'lessThan' | 'lessThanOrEqual' | 'greaterThan' | 'greaterThanOrEqual';

export function compare(column: SQL | AnyPgColumn, op: NumericOp | 'is' | 'after' | 'before', value: number | string): SQL {
  switch (op) {
    case 'equals':
    case 'is':
      return sql`${column} = ${value}`;
    case 'lessThan':
    case 'before':
      return sql`${column} < ${value}`;
    case 'lessThanOrEqual':
      return sql`${column} <= ${value}`;
    case 'greaterThan':
    case 'after':
      return sql`${column} > ${value}`;
    case 'greaterThanOrEqual':
      return sql`${column} >= ${value}`;
  }
}

/** Years to maturity as of `today` (IST, the same day the maturity rule uses; not the database's UTC date). */
export const yearsToMaturity = (today: string) => sql`((${finstruments.maturityDate} - ${today}::date) / 365.25)`;
/** The maturity rule of `isMaturedOn` (search-index.ts) in SQL: a known date before today. */
export const maturedOn = (today: string) => sql`(${finstruments.maturityDate} IS NOT NULL AND ${finstruments.maturityDate} < ${today})`;
/**
 * The Find grid's order without a search or a sort: the search index's static ranking keys, in the same
 * order (live; listed; with a reference price; liquid; live by nearer maturity, matured by the most recent,
 * unknown last; ISIN). So the default list starts with live listed bonds that have a price.
 */
const findDefaultOrder = (today: string): SQL[] => [
  sql`${maturedOn(today)} ASC`,
  sql`${finstruments.isListed} DESC`,
  sql`(${finstruments.referenceYield} IS NOT NULL) DESC`,
  sql`(${finstruments.liquidity} > 0) DESC`,
  sql`(CASE WHEN ${maturedOn(today)} THEN NULL ELSE ${finstruments.maturityDate} END) ASC NULLS LAST`,
  sql`${finstruments.maturityDate} DESC NULLS LAST`,
  asc(finstruments.isin),
];
const FINSTRUMENT_COLUMNS = {
  coupon_rate: finstruments.couponRate,
  face_value: finstruments.faceValue,
  bond_yield: finstruments.referenceYield,
  maturity_date: finstruments.maturityDate,
  listing_date: finstruments.listingDate,
  display_name: finstruments.displayName,
  isin: finstruments.isin,
} as const;

export function createFinstrumentsRepository(db: DbOrTx) {
  return {
    async findByIdOrIsin(idOrIsin: string): Promise<FinstrumentRow | undefined> {
      const where = /^\d+$/.test(idOrIsin) ? eq(finstruments.id, Number(idOrIsin)) : eq(finstruments.isin, idOrIsin.toUpperCase());
      const [row] = await db.select().from(finstruments).where(where).limit(1);
      return row;
    },

    async bestReference(finstrumentId: number) {
      const [row] = await db
        .select()
        .from(referencePrices)
        .where(eq(referencePrices.finstrumentId, finstrumentId))
        .orderBy(asc(referencePrices.priority), desc(referencePrices.priceDate))
        .limit(1);
      return row;
    },

    async ratings(finstrumentId: number) {
      return db
        .select()
        .from(finstrumentRatings)
        .where(eq(finstrumentRatings.finstrumentId, finstrumentId))
        .orderBy(asc(finstrumentRatings.agency), desc(finstrumentRatings.asOf), asc(finstrumentRatings.rating));
    },

    /**
     * Bonds matching the Find/issuer filters; `issuerKey` narrows to one issuer. `searchIds`: the search
     * index's matches of `input.search`, best first (the header search's ranking); they are the only
     * candidates and, without an explicit sort, the order.
     */
    async list(input: ListInput, options: { issuerKey?: string | null; excludeId?: number; today: string; searchIds?: number[] }) {
      const where: SQL[] = [];
      if (options.issuerKey !== undefined)
        where.push(options.issuerKey === null ? sql`false` : eq(finstruments.issuerKey, options.issuerKey));
      if (options.excludeId !== undefined) where.push(sql`${finstruments.id} <> ${options.excludeId}`);
      if (!input.include_matured) where.push(sql`NOT ${maturedOn(options.today)}`);
      const { searchIds } = options;
      if (searchIds && searchIds.length === 0) return { rows: [], count: 0 };
      // The ids go as one int[] parameter (a search may match thousands of bonds).
      const idArray = searchIds ? sql`${`{${searchIds.join(',')}}`}::int[]` : null;
      if (idArray) where.push(sql`${finstruments.id} = ANY(${idArray})`);
      if (input.security_types?.length) where.push(inArray(finstruments.securityType, input.security_types));
      if (input.ratings?.length) where.push(inArray(finstruments.creditRating, input.ratings));
      if (input.listed !== undefined) where.push(eq(finstruments.isListed, input.listed));
      if (input.exchange) where.push(sql`${input.exchange} = ANY(${finstruments.exchanges})`);
      for (const filter of input.filters) {
        const column = filter.field === 'years_to_maturity' ? yearsToMaturity(options.today) : FINSTRUMENT_COLUMNS[filter.field];
        where.push(compare(column, filter.type, filter.value));
      }
      const condition = where.length ? and(...where) : undefined;
      // An explicit sort wins; then the search rank (with a search) or the default order; the id last.
      const order: SQL[] = input.sort
        ? [sql`${FINSTRUMENT_COLUMNS[input.sort.field]} ${input.sort.direction === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`}`]
        : [];
      if (idArray) order.push(sql`search_rank.position ASC`);
      else if (!input.sort) order.push(...findDefaultOrder(options.today));
      order.push(asc(finstruments.id));
      const { page, page_size } = input.pagination;
      const selected = db.select(getTableColumns(finstruments)).from(finstruments);
      const [rows, [total]] = await Promise.all([
        (idArray
          ? selected.innerJoin(
              sql`unnest(${idArray}) WITH ORDINALITY AS search_rank(id, position)`,
              sql`search_rank.id = ${finstruments.id}`,
            )
          : selected
        )
          .where(condition)
          .orderBy(...order)
          .limit(page_size)
          .offset((page - 1) * page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(finstruments)
          .where(condition),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },

    async trades(finstrumentId: number, input: TradesInput) {
      const columns = {
        price: finstrumentTrades.pricePer100,
        bond_yield: finstrumentTrades.yieldFraction,
        value_inr: finstrumentTrades.valueInr,
        num_trades: finstrumentTrades.numTrades,
        trade_date: finstrumentTrades.tradeDate,
      } as const;
      const where: SQL[] = [eq(finstrumentTrades.finstrumentId, finstrumentId)];
      for (const filter of input.filters) where.push(compare(columns[filter.field], filter.type, filter.value));
      const condition = and(...where);
      const sortColumn = columns[input.sort?.field ?? 'trade_date'];
      const direction = (input.sort?.direction ?? (input.sort ? 'asc' : 'desc')) === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
      const { page, page_size } = input.pagination;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(finstrumentTrades)
          .where(condition)
          .orderBy(sql`${sortColumn} ${direction}`, asc(finstrumentTrades.id))
          .limit(page_size)
          .offset((page - 1) * page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(finstrumentTrades)
          .where(condition),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(finstruments);
      return Number(row?.n ?? 0);
    },

    /** Changes whenever the importer inserts or updates a finstrument: the search index's freshness key. */
    async signature(): Promise<string> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int`, at: sql<string>`coalesce(max(${finstruments.updatedAt})::text, '')` })
        .from(finstruments);
      return `${row?.n ?? 0}|${row?.at ?? ''}`;
    },

    async loadIndex(): Promise<IndexedBond[]> {
      const rows = await db
        .select({
          id: finstruments.id,
          isin: finstruments.isin,
          displayName: finstruments.displayName,
          securityType: finstruments.securityType,
          issuerName: finstruments.issuerName,
          couponRate: finstruments.couponRate,
          maturityDate: finstruments.maturityDate,
          maturityYear: finstruments.maturityYear,
          isListed: finstruments.isListed,
          creditRating: finstruments.creditRating,
          liquidity: finstruments.liquidity,
          nseSymbol: finstruments.nseSymbol,
          bseSymbol: finstruments.bseSymbol,
          bseScripCode: finstruments.bseScripCode,
          longName: finstruments.longName,
          perpetual: finstruments.perpetual,
          referenceYield: finstruments.referenceYield,
        })
        .from(finstruments);
      return rows.map(({ referenceYield, ...row }) => ({ ...row, hasPrice: referenceYield !== null }));
    },

    /** The SQL-only search (trigram index), kept as the benchmark's baseline and a fallback. */
    async searchSql(query: string, limit: number, today: string) {
      const q = query.toLowerCase();
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return db
        .select({ id: finstruments.id, isin: finstruments.isin, displayName: finstruments.displayName })
        .from(finstruments)
        .where(sql`${finstruments.searchText} LIKE ${like}`)
        .orderBy(
          sql`(${finstruments.isin} = ${query.toUpperCase()}) DESC`,
          sql`${maturedOn(today)} ASC`,
          desc(finstruments.liquidity),
          asc(finstruments.maturityDate),
        )
        .limit(limit);
    },
  };
}
export type FinstrumentsRepository = ReturnType<typeof createFinstrumentsRepository>;
