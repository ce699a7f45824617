/** SQL for Find's category facets, the client's finstrument list, the reference waterfall and the G-sec curve. */
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { FIND_CATEGORIES, NOT_RATED, type CategoryValues, type FindCategory } from '@dart/contracts';
import type { DbOrTx } from '../../db/client';
import { finstruments, finstrumentTrades, referencePrices } from '../../db/schema';
import { compare, maturedOn, yearsToMaturity } from './finstruments.repository';

type Filter =
  | {
      field: 'coupon_rate' | 'face_value' | 'bond_yield' | 'years_to_maturity';
      type: 'equals' | 'lessThan' | 'lessThanOrEqual' | 'greaterThan' | 'greaterThanOrEqual';
      value: number;
    }
  | { field: 'maturity_date' | 'listing_date'; type: 'is' | 'after' | 'before'; value: string };
export interface FindScope {
  categoryValues: CategoryValues;
  filters: Filter[];
  includeMatured: boolean;
  today: string;
}

const COLUMNS = {
  coupon_rate: finstruments.couponRate,
  face_value: finstruments.faceValue,
  bond_yield: finstruments.referenceYield,
  maturity_date: finstruments.maturityDate,
  listing_date: finstruments.listingDate,
  display_name: finstruments.displayName,
  isin: finstruments.isin,
} as const;

/** The SQL expression each category groups by (a bond on both exchanges counts under each). */
const CATEGORY_SQL: Record<FindCategory, SQL> = {
  security_type: sql`${finstruments.securityType}`,
  credit_rating: sql`coalesce(${finstruments.creditRating}, ${NOT_RATED})`,
  exchange: sql`unnest(${finstruments.exchanges})`,
  reference_source: sql`${finstruments.referenceSource}`,
};

function categoryCondition(category: FindCategory, selected: string[]): SQL {
  switch (category) {
    case 'security_type':
      return inArray(finstruments.securityType, selected);
    case 'credit_rating': {
      const named = selected.filter((v) => v !== NOT_RATED);
      const parts: SQL[] = [];
      if (named.length) parts.push(inArray(finstruments.creditRating, named));
      if (selected.includes(NOT_RATED)) parts.push(sql`${finstruments.creditRating} IS NULL`);
      return sql`(${sql.join(parts, sql` OR `)})`;
    }
    case 'exchange':
      return sql`${finstruments.exchanges} && ${`{${selected.join(',')}}`}::text[]`;
    case 'reference_source':
      return inArray(finstruments.referenceSource, selected);
  }
}

/** The scope's conditions; `except` leaves one category's own selection out (a facet counts its siblings). */
export function scopeConditions(scope: FindScope, except?: FindCategory): SQL[] {
  const where: SQL[] = [];
  if (!scope.includeMatured) where.push(sql`NOT ${maturedOn(scope.today)}`);
  for (const category of FIND_CATEGORIES) {
    const selected = scope.categoryValues[category] as string[] | undefined;
    if (category !== except && selected?.length) where.push(categoryCondition(category, selected));
  }
  for (const filter of scope.filters) {
    const column = filter.field === 'years_to_maturity' ? yearsToMaturity(scope.today) : COLUMNS[filter.field];
    where.push(compare(column, filter.type, filter.value));
  }
  return where;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export function createFindCallsRepository(db: DbOrTx) {
  return {
    async facet(category: FindCategory, scope: FindScope): Promise<Array<{ value: string; count: number }>> {
      const where = scopeConditions(scope, category);
      const condition = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
      const result = await db.execute(
        sql`SELECT value, count(*)::int AS count FROM (SELECT ${CATEGORY_SQL[category]} AS value FROM ${finstruments} ${condition}) AS v
             WHERE value IS NOT NULL GROUP BY value ORDER BY count(*) DESC, value ASC`,
      );
      return rowsOf<{ value: string; count: number }>(result).map((r) => ({ value: String(r.value), count: Number(r.count) }));
    },

    async clientList(
      scope: FindScope,
      options: {
        clientId: string;
        mineOnly: boolean;
        searchIds?: number[];
        sort?: { field: keyof typeof COLUMNS; direction: 'asc' | 'desc' };
        page: number;
        pageSize: number;
      },
    ) {
      const where = scopeConditions(scope);
      // The firm's own open quotes only: another firm's interest is never counted or revealed.
      const openQuotes = sql<number>`(SELECT count(*)::int FROM quotes q WHERE q.finstrument_id = "finstruments"."id"
        AND q.client_id = ${options.clientId} AND q.status = 'open')`;
      if (options.mineOnly) where.push(sql`${openQuotes} > 0`);
      if (options.searchIds) {
        if (options.searchIds.length === 0) return { rows: [], count: 0 };
        where.push(sql`${finstruments.id} = ANY(${`{${options.searchIds.join(',')}}`}::int[])`);
      }
      const condition = where.length ? and(...where) : undefined;
      const order: SQL[] = options.sort
        ? [sql`${COLUMNS[options.sort.field]} ${options.sort.direction === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`}`]
        : [
            sql`${maturedOn(scope.today)} ASC`,
            sql`${finstruments.isListed} DESC`,
            sql`(${finstruments.referenceYield} IS NOT NULL) DESC`,
            sql`${finstruments.maturityDate} ASC NULLS LAST`,
          ];
      const bestDate = sql<string | null>`(SELECT rp.price_date::text FROM reference_prices rp WHERE rp.finstrument_id = "finstruments"."id"
        ORDER BY rp.priority ASC, rp.price_date DESC LIMIT 1)`;
      const [rows, [total]] = await Promise.all([
        db
          .select({ ...getTableColumns(finstruments), openQuotes, referenceDate: bestDate })
          .from(finstruments)
          .where(condition)
          .orderBy(...order, asc(finstruments.id))
          .limit(options.pageSize)
          .offset((options.page - 1) * options.pageSize),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(finstruments)
          .where(condition),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },

    async references(finstrumentId: number) {
      return db
        .select()
        .from(referencePrices)
        .where(eq(referencePrices.finstrumentId, finstrumentId))
        .orderBy(asc(referencePrices.priority), desc(referencePrices.priceDate));
    },

    async lastObservation(finstrumentId: number) {
      const [row] = await db
        .select()
        .from(finstrumentTrades)
        .where(and(eq(finstrumentTrades.finstrumentId, finstrumentId), sql`${finstrumentTrades.kind} <> 'MF_VALUATION'`))
        .orderBy(desc(finstrumentTrades.tradeDate), asc(finstrumentTrades.id))
        .limit(1);
      return row;
    },

    /** Dated G-sec closes of the latest close date: the curve's inputs (tenor measured by the caller). */
    async gsecCloses(): Promise<Array<{ date: string; maturityDate: string; yieldFraction: number }>> {
      const result = await db.execute(sql`
        SELECT r.price_date::text AS date, f.maturity_date::text AS "maturityDate", r.yield_fraction AS "yieldFraction"
          FROM ${referencePrices} r JOIN ${finstruments} f ON f.id = r.finstrument_id
         WHERE f.security_type = 'G-Sec' AND r.source = 'NSE_CM_CLOSE' AND f.maturity_date IS NOT NULL
           AND r.price_date = (SELECT max(r2.price_date) FROM ${referencePrices} r2 JOIN ${finstruments} f2 ON f2.id = r2.finstrument_id
                                WHERE f2.security_type = 'G-Sec' AND r2.source = 'NSE_CM_CLOSE')`);
      return rowsOf<{ date: string; maturityDate: string; yieldFraction: number }>(result).map((r) => ({
        date: String(r.date),
        maturityDate: String(r.maturityDate),
        yieldFraction: Number(r.yieldFraction),
      }));
    },
  };
}
