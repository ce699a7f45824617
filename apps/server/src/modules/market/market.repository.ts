/** SQL of the market module: quotes, clusters, negotiations, deals, idempotency keys. */
import { and, asc, count, desc, eq, exists, gt, ilike, inArray, isNull, lte, min, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { clients, clusters, deals, finstruments, negotiations, quotes, userAccountPermissions, userAccounts, users } from '../../db/schema';

export type QuoteRow = typeof quotes.$inferSelect;
export type ClusterRow = typeof clusters.$inferSelect;
export type NegotiationRow = typeof negotiations.$inferSelect;
export type DealRow = typeof deals.$inferSelect;
/** One row of the participant search: a firm (no user columns) or one active member of it. */
export interface ParticipantRow {
  clientId: string;
  clientName: string;
  nscclName: string | null;
  icclName: string | null;
  userId: string | null;
  firstName: string | null;
  lastName: string | null;
}
export interface QuoteWithBond {
  quote: QuoteRow;
  isin: string;
  displayName: string;
  clientName: string;
  /** Decide the face value per bond (market.sizes.ts); a list that leaves them out sends no `face_value_per_bond`. */
  securityType?: string;
  faceValue?: number | null;
}
/** A bond as the market needs it: names, and the terms that decide its face value per bond. */
export interface MarketBond {
  id: number;
  isin: string;
  displayName: string;
  securityType: string;
  faceValue: number | null;
}
const marketBondColumns = {
  id: finstruments.id,
  isin: finstruments.isin,
  displayName: finstruments.displayName,
  securityType: finstruments.securityType,
  faceValue: finstruments.faceValue,
};

/** Serialises matching on one bond across connections and nodes (PostgreSQL advisory lock, two-key form). */
const BOOK_LOCK = 727_005;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/**
 * A market list's `search`: the quote's bond is one of `ids`, the bond index's matches of the query (the
 * header search and the Find grid's, `FinstrumentsService.searchIds`), sent as one `int[]` parameter (a
 * broad query matches thousands of bonds). An empty list matches nothing; callers skip the query.
 */
export const onBonds = (ids: readonly number[]): SQL => sql`${quotes.finstrumentId} = ANY(${`{${ids.join(',')}}`}::int[])`;
const visibleTo = (clientId: string): SQL =>
  or(isNull(quotes.recipients), eq(quotes.clientId, clientId), sql`${clientId}::uuid = ANY(${quotes.recipients})`)!;

/** An active membership of an active user (a disabled person or a revoked account is not a member). */
const activeMember = (): SQL => and(eq(userAccounts.status, 'active'), eq(users.isActive, true))!;

/** Interest that public runs show: open, public, not an exchange RFQ, not expired, something left. */
const publicInterest = (now: Date): SQL[] => [
  eq(quotes.status, 'open'),
  gt(quotes.expiresAt, now),
  isNull(quotes.recipients),
  isNull(quotes.exchange),
  gt(quotes.remainingQuantum, 0),
];

/** A quote with what every list shows of its bond and firm (join finstruments and clients). */
export const QUOTE_WITH_BOND = {
  quote: quotes,
  isin: finstruments.isin,
  displayName: finstruments.displayName,
  clientName: clients.name,
  securityType: finstruments.securityType,
  faceValue: finstruments.faceValue,
};

export function createMarketRepository(db: DbOrTx) {
  const withBond = () =>
    db
      .select(QUOTE_WITH_BOND)
      .from(quotes)
      .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
      .innerJoin(clients, eq(clients.id, quotes.clientId));

  return {
    async lockBook(finstrumentId: number) {
      await db.execute(sql`SELECT pg_advisory_xact_lock(${BOOK_LOCK}, ${finstrumentId})`);
    },
    async insertQuote(values: typeof quotes.$inferInsert): Promise<QuoteRow> {
      const [row] = await db.insert(quotes).values(values).returning();
      return row!;
    },
    async updateQuote(id: string, values: Partial<typeof quotes.$inferInsert>): Promise<QuoteRow> {
      const [row] = await db
        .update(quotes)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(quotes.id, id))
        .returning();
      return row!;
    },
    async addRemaining(id: string, delta: number): Promise<QuoteRow> {
      const [row] = await db
        .update(quotes)
        .set({ remainingQuantum: sql`${quotes.remainingQuantum} + ${delta}`, updatedAt: new Date() })
        .where(eq(quotes.id, id))
        .returning();
      return row!;
    },
    async findQuote(id: string, forUpdate = false): Promise<QuoteRow | undefined> {
      const query = db.select().from(quotes).where(eq(quotes.id, id)).limit(1);
      const [row] = forUpdate ? await query.for('update') : await query;
      return row;
    },
    async findQuoteView(id: string): Promise<QuoteWithBond | undefined> {
      const [row] = await withBond().where(eq(quotes.id, id)).limit(1);
      return row;
    },
    /** Open resting interest on the other side of one bond and settlement date, oldest first. */
    async restingQuotes(finstrumentId: number, side: string, settlementDate: string, now: Date): Promise<QuoteRow[]> {
      return db
        .select()
        .from(quotes)
        .where(
          and(
            eq(quotes.finstrumentId, finstrumentId),
            eq(quotes.quoteType, side),
            eq(quotes.status, 'open'),
            eq(quotes.settlementDate, settlementDate),
            gt(quotes.remainingQuantum, 0),
            gt(quotes.expiresAt, now),
            // Exchange RFQs trade on their venue, never in Dart's own book.
            isNull(quotes.exchange),
          ),
        )
        .orderBy(asc(quotes.createdAt));
    },
    async listMarket(options: {
      clientId: string;
      now: Date;
      /** The bond index's matches of the list's `search` (undefined: no search; empty: nothing matched). */
      finstrumentIds?: readonly number[] | undefined;
      mine: boolean;
      privateRuns: boolean;
      finstrumentId?: number | undefined;
      /** Exchange RFQs on these exchanges (the caller's `rfq_exchanges`) instead of Dart's runs. */
      rfqExchanges?: readonly string[] | undefined;
      limit: number;
      offset: number;
    }) {
      if (options.finstrumentIds?.length === 0) return { rows: [], count: 0, soonest: null };
      const conditions: SQL[] = [eq(quotes.status, 'open'), gt(quotes.expiresAt, options.now)];
      if (options.rfqExchanges) {
        // Own RFQs and responses on any exchange; others' only on the caller's RFQ exchanges and if addressed to it.
        conditions.push(sql`${quotes.exchange} IS NOT NULL`, visibleTo(options.clientId));
        conditions.push(
          options.mine
            ? eq(quotes.clientId, options.clientId)
            : or(
                eq(quotes.clientId, options.clientId),
                and(inArray(quotes.exchange, [...options.rfqExchanges, '']), gt(quotes.remainingQuantum, 0)),
              )!,
        );
      } else if (options.privateRuns) {
        conditions.push(sql`${quotes.recipients} IS NOT NULL`, visibleTo(options.clientId));
      } else if (options.mine) {
        conditions.push(eq(quotes.clientId, options.clientId));
      } else {
        conditions.push(isNull(quotes.recipients), gt(quotes.remainingQuantum, 0), isNull(quotes.exchange));
      }
      if (options.privateRuns && !options.mine) conditions.push(isNull(quotes.exchange));
      if (options.privateRuns && options.mine) conditions.push(eq(quotes.clientId, options.clientId));
      if (options.finstrumentId) conditions.push(eq(quotes.finstrumentId, options.finstrumentId));
      if (options.finstrumentIds) conditions.push(onBonds(options.finstrumentIds));
      const where = and(...conditions);
      // The search filters on the quote's bond id, so the count needs no join; `soonest` is when the result
      // can next change by time alone (a quote in it reaching its expiry), for the service's read cache.
      const [rows, [total]] = await Promise.all([
        withBond().where(where).orderBy(desc(quotes.createdAt), desc(quotes.id)).limit(options.limit).offset(options.offset),
        db
          .select({ n: count(), soonest: min(quotes.expiresAt) })
          .from(quotes)
          .where(where),
      ]);
      return { rows, count: Number(total?.n ?? 0), soonest: total?.soonest ? new Date(total.soonest) : null };
    },
    /**
     * Market depth of one bond: open public interest (as in public runs: no private runs, no exchange
     * RFQs, not expired, something left) summed per side, price and yield, best first. No firm columns.
     */
    async depth(finstrumentId: number, now: Date, settlementDate: string | undefined, levels: number) {
      const conditions: SQL[] = [eq(quotes.finstrumentId, finstrumentId), ...publicInterest(now)];
      if (settlementDate) conditions.push(eq(quotes.settlementDate, settlementDate));
      // One grouped query for both sides (a bond has few levels); ordering, totals and the cut happen here.
      const rows = await db
        .select({
          side: quotes.quoteType,
          price: quotes.price,
          yield: quotes.yieldFraction,
          quantum: sql<string>`sum(${quotes.remainingQuantum})`,
          count: count(),
          soonest: min(quotes.expiresAt),
        })
        .from(quotes)
        .where(and(...conditions))
        .groupBy(quotes.quoteType, quotes.price, quotes.yieldFraction);
      const levelsOf = (side: 'BID' | 'ASK') =>
        rows
          .filter((r) => r.side === side)
          .map((r) => ({ price: r.price, yield: r.yield, quantum: Number(r.quantum), count: Number(r.count) }))
          // Best first: the highest bid, the lowest ask; at one price, the better yield for the taker first.
          .sort((a, b) => (side === 'BID' ? b.price - a.price || a.yield - b.yield : a.price - b.price || b.yield - a.yield));
      const bids = levelsOf('BID');
      const asks = levelsOf('ASK');
      const sum = (list: Array<{ quantum: number; count: number }>, key: 'quantum' | 'count') => list.reduce((t, l) => t + l[key], 0);
      const soonest = rows.reduce<Date | null>((m, r) => (r.soonest && (!m || new Date(r.soonest) < m) ? new Date(r.soonest) : m), null);
      return {
        bids: bids.slice(0, levels),
        asks: asks.slice(0, levels),
        bidQuantum: sum(bids, 'quantum'),
        askQuantum: sum(asks, 'quantum'),
        bidCount: sum(bids, 'count'),
        askCount: sum(asks, 'count'),
        soonest,
      };
    },
    /**
     * Bonds with open public interest (`GET api/trade/finstrument/`): counts and quantum per side, the
     * best bid and ask of each bond on the page; most quoted first, then by name.
     */
    async marketInstruments(options: { now: Date; finstrumentIds?: readonly number[] | undefined; limit: number; offset: number }) {
      if (options.finstrumentIds?.length === 0) return { count: 0, soonest: null, rows: [] };
      const conditions: SQL[] = publicInterest(options.now);
      if (options.finstrumentIds) conditions.push(onBonds(options.finstrumentIds));
      const where = and(...conditions);
      const bidCount = sql<number>`count(*) FILTER (WHERE ${quotes.quoteType} = 'BID')`;
      const askCount = sql<number>`count(*) FILTER (WHERE ${quotes.quoteType} = 'ASK')`;
      const [rows, [total]] = await Promise.all([
        db
          .select({
            finstrumentId: quotes.finstrumentId,
            isin: finstruments.isin,
            displayName: finstruments.displayName,
            securityType: finstruments.securityType,
            faceValue: finstruments.faceValue,
            bidCount,
            askCount,
            bidQuantum: sql<string>`coalesce(sum(${quotes.remainingQuantum}) FILTER (WHERE ${quotes.quoteType} = 'BID'), 0)`,
            askQuantum: sql<string>`coalesce(sum(${quotes.remainingQuantum}) FILTER (WHERE ${quotes.quoteType} = 'ASK'), 0)`,
          })
          .from(quotes)
          .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
          .where(where)
          .groupBy(quotes.finstrumentId, finstruments.isin, finstruments.displayName, finstruments.securityType, finstruments.faceValue)
          .orderBy(desc(count()), asc(finstruments.displayName), asc(quotes.finstrumentId))
          .limit(options.limit)
          .offset(options.offset),
        db
          .select({ n: sql<number>`count(DISTINCT ${quotes.finstrumentId})`, soonest: min(quotes.expiresAt) })
          .from(quotes)
          .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
          .where(where),
      ]);
      const ids = rows.map((r) => r.finstrumentId);
      // The best quote of each side per bond: highest bid, lowest ask, the oldest among equals.
      const best =
        ids.length === 0
          ? []
          : await db
              .selectDistinctOn([quotes.finstrumentId, quotes.quoteType], {
                finstrumentId: quotes.finstrumentId,
                side: quotes.quoteType,
                price: quotes.price,
                yield: quotes.yieldFraction,
                quantum: quotes.remainingQuantum,
              })
              .from(quotes)
              .where(and(inArray(quotes.finstrumentId, ids), ...publicInterest(options.now)))
              .orderBy(
                quotes.finstrumentId,
                quotes.quoteType,
                sql`CASE WHEN ${quotes.quoteType} = 'BID' THEN -${quotes.price} ELSE ${quotes.price} END`,
                asc(quotes.createdAt),
              );
      const bestOf = (id: number, side: string) => {
        const b = best.find((r) => r.finstrumentId === id && r.side === side);
        return b ? { price: b.price, yield: b.yield, quantum: b.quantum } : null;
      };
      return {
        count: Number(total?.n ?? 0),
        soonest: total?.soonest ? new Date(total.soonest) : null,
        rows: rows.map((r) => ({
          finstrumentId: r.finstrumentId,
          isin: r.isin,
          displayName: r.displayName,
          securityType: r.securityType,
          faceValue: r.faceValue,
          bidCount: Number(r.bidCount),
          askCount: Number(r.askCount),
          bidQuantum: Number(r.bidQuantum),
          askQuantum: Number(r.askQuantum),
          bestBid: bestOf(r.finstrumentId, 'BID'),
          bestAsk: bestOf(r.finstrumentId, 'ASK'),
        })),
      };
    },
    async dueForExpiry(now: Date, limit: number): Promise<QuoteRow[]> {
      return db
        .select()
        .from(quotes)
        .where(and(eq(quotes.status, 'open'), lte(quotes.expiresAt, now)))
        .orderBy(asc(quotes.expiresAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },
    async clientsExist(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: clients.id })
        .from(clients)
        .where(inArray(clients.id, [...ids]));
      return new Set(rows.map((r) => r.id));
    },
    /** The exchanges each firm may use for RFQs (`clients.rfq_exchanges`). */
    async clientRfqExchanges(ids: readonly string[]): Promise<Map<string, string[]>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: clients.id, rfqExchanges: clients.rfqExchanges })
        .from(clients)
        .where(inArray(clients.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.rfqExchanges]));
    },
    /**
     * Ticketing participant search: firms other than `excludeClientId` with trade access (an active member
     * holds `client.can_trade`), and, for an RFQ, enabled for RFQs on `rfq.exchange` (on any exchange
     * without one). Firm rows match the firm's name;
     * member rows (active users) match the person's first, last or full name, or the firm's name. Never
     * e-mail, PAN or credentials. An empty search gives the first firms by name and no members.
     * Firms first, then members, both by name; `limit` rows in all.
     */
    async searchTradeParticipants(options: {
      excludeClientId: string;
      search: string;
      rfq?: { exchange: string | undefined } | undefined;
      limit: number;
    }): Promise<ParticipantRow[]> {
      const trader = db
        .select({ one: sql`1` })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(userAccountPermissions, eq(userAccountPermissions.userAccountId, userAccounts.id))
        .where(and(eq(userAccounts.clientId, clients.id), activeMember(), eq(userAccountPermissions.permission, 'client.can_trade')));
      const firmConditions: SQL[] = [ne(clients.id, options.excludeClientId), exists(trader)];
      if (options.rfq?.exchange) firmConditions.push(sql`${options.rfq.exchange} = ANY(${clients.rfqExchanges})`);
      else if (options.rfq) firmConditions.push(sql`cardinality(${clients.rfqExchanges}) > 0`);
      const pattern = options.search ? `%${escapeLike(options.search)}%` : null;
      const firmColumns = { clientId: clients.id, clientName: clients.name, nscclName: clients.nsccl_name, icclName: clients.iccl_name };
      const firms = await db
        .select(firmColumns)
        .from(clients)
        .where(and(...firmConditions, pattern ? ilike(clients.name, pattern) : undefined))
        .orderBy(sql`lower(${clients.name})`, asc(clients.id))
        .limit(options.limit);
      const rows: ParticipantRow[] = firms.map((f) => ({ ...f, userId: null, firstName: null, lastName: null }));
      if (!pattern || rows.length >= options.limit) return rows;
      const fullName = sql`${users.firstName} || ' ' || ${users.lastName}`;
      const members = await db
        .select({ ...firmColumns, userId: users.id, firstName: users.firstName, lastName: users.lastName })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .where(
          and(
            ...firmConditions,
            activeMember(),
            or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(fullName, pattern), ilike(clients.name, pattern)),
          ),
        )
        .orderBy(sql`lower(${fullName})`, sql`lower(${clients.name})`, asc(userAccounts.id))
        .limit(options.limit - rows.length);
      return [...rows, ...members];
    },
    /** Firms enabled for RFQs on an exchange (they receive its public RFQs). */
    async rfqFirms(exchange: string): Promise<string[]> {
      const rows = await db
        .select({ id: clients.id })
        .from(clients)
        .where(sql`${exchange} = ANY(${clients.rfqExchanges})`);
      return rows.map((r) => r.id);
    },
    async quotesByIds(ids: readonly string[]): Promise<QuoteRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(quotes)
        .where(inArray(quotes.id, [...ids]));
    },
    async clientNames(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(inArray(clients.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    async bonds(ids: readonly number[]) {
      if (ids.length === 0) return new Map<number, MarketBond>();
      const rows = await db
        .select(marketBondColumns)
        .from(finstruments)
        .where(inArray(finstruments.id, [...new Set(ids)]));
      return new Map(rows.map((r) => [r.id, r]));
    },
    /** Bonds by ISIN (upper case), for bulk upload. */
    async bondsByIsin(isins: readonly string[]) {
      if (isins.length === 0) return new Map<string, MarketBond>();
      const rows = await db
        .select(marketBondColumns)
        .from(finstruments)
        .where(inArray(finstruments.isin, [...new Set(isins)]));
      return new Map(rows.map((r) => [r.isin, r]));
    },
    async bond(finstrumentId: number): Promise<MarketBond | undefined> {
      const [row] = await db.select(marketBondColumns).from(finstruments).where(eq(finstruments.id, finstrumentId)).limit(1);
      return row;
    },

    /* clusters */
    async insertCluster(values: typeof clusters.$inferInsert): Promise<ClusterRow> {
      const [row] = await db.insert(clusters).values(values).returning();
      return row!;
    },
    async updateCluster(id: string, values: Partial<typeof clusters.$inferInsert>): Promise<ClusterRow> {
      const [row] = await db
        .update(clusters)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(clusters.id, id))
        .returning();
      return row!;
    },
    async findCluster(id: string, forUpdate = false): Promise<ClusterRow | undefined> {
      const query = db.select().from(clusters).where(eq(clusters.id, id)).limit(1);
      const [row] = forUpdate ? await query.for('update') : await query;
      return row;
    },
    async proposedClustersOf(quoteId: string): Promise<ClusterRow[]> {
      return db
        .select()
        .from(clusters)
        .where(and(eq(clusters.status, 'proposed'), or(eq(clusters.bidQuoteId, quoteId), eq(clusters.askQuoteId, quoteId))))
        .for('update');
    },
    async listClusters(clientId: string, status: string | undefined, limit: number, offset: number) {
      const conditions: SQL[] = [or(eq(clusters.bidClientId, clientId), eq(clusters.askClientId, clientId))!];
      if (status) conditions.push(eq(clusters.status, status));
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db.select().from(clusters).where(where).orderBy(desc(clusters.createdAt), desc(clusters.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(clusters).where(where),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },

    /* negotiations */
    async insertNegotiation(values: typeof negotiations.$inferInsert): Promise<NegotiationRow> {
      const [row] = await db.insert(negotiations).values(values).returning();
      return row!;
    },
    async updateNegotiation(id: string, values: Partial<typeof negotiations.$inferInsert>): Promise<NegotiationRow> {
      const [row] = await db
        .update(negotiations)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(negotiations.id, id))
        .returning();
      return row!;
    },
    async findNegotiation(id: string): Promise<NegotiationRow | undefined> {
      const [row] = await db.select().from(negotiations).where(eq(negotiations.id, id)).limit(1).for('update');
      return row;
    },
    async openNegotiation(quoteId: string, responderClientId: string): Promise<NegotiationRow | undefined> {
      const [row] = await db
        .select()
        .from(negotiations)
        .where(
          and(eq(negotiations.quoteId, quoteId), eq(negotiations.responderClientId, responderClientId), eq(negotiations.status, 'open')),
        )
        .limit(1)
        .for('update');
      return row;
    },

    /** Negotiations the firm is part of (quoter or responder), newest first, with their quote's bond and venue. */
    async listNegotiations(clientId: string, status: string | undefined, limit: number, offset: number) {
      const conditions: SQL[] = [or(eq(negotiations.quoterClientId, clientId), eq(negotiations.responderClientId, clientId))!];
      if (status) conditions.push(eq(negotiations.status, status));
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            negotiation: negotiations,
            finstrumentId: quotes.finstrumentId,
            exchange: quotes.exchange,
            rfqAnonymous: quotes.rfqAnonymous,
            securityType: finstruments.securityType,
            faceValue: finstruments.faceValue,
          })
          .from(negotiations)
          .innerJoin(quotes, eq(quotes.id, negotiations.quoteId))
          .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
          .where(where)
          .orderBy(desc(negotiations.createdAt), desc(negotiations.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(negotiations).where(where),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },

    /* deals */
    /** Deals where the firm is buyer or seller, newest first. */
    async listDeals(clientId: string, limit: number, offset: number) {
      const where = or(eq(deals.buyerClientId, clientId), eq(deals.sellerClientId, clientId));
      const [rows, [total]] = await Promise.all([
        db.select().from(deals).where(where).orderBy(desc(deals.createdAt), desc(deals.id)).limit(limit).offset(offset),
        db.select({ n: count() }).from(deals).where(where),
      ]);
      return { rows, count: Number(total?.n ?? 0) };
    },
    async dealsByNegotiations(ids: readonly string[]): Promise<DealRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(deals)
        .where(inArray(deals.negotiationId, [...ids]));
    },
    async insertDeal(values: typeof deals.$inferInsert): Promise<DealRow> {
      const [row] = await db.insert(deals).values(values).returning();
      return row!;
    },
    async dealBy(column: 'clusterId' | 'negotiationId', id: string): Promise<DealRow | undefined> {
      const [row] = await db.select().from(deals).where(eq(deals[column], id)).limit(1);
      return row;
    },

    /* idempotency */
  };
}
export type MarketRepository = ReturnType<typeof createMarketRepository>;
