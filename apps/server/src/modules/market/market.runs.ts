/**
 * The market's reads that are the same shape for every reader: public and private runs (public pages through
 * the context's read cache), exchange RFQ lists, depth, the instruments in the market, the trading timings,
 * and the trade-participant search. A user without trade access sees empty lists with the restriction text.
 */
import { formatDate, parseDate } from '@dart/bond-math';
import {
  RFQ_UNPAGINATED_MAX,
  TRADE_PARTICIPANTS_MAX,
  TRADE_TIMING_RESTRICTION_TEXT,
  TRADE_TIMINGS,
  type Depth,
  type DepthQuery,
  type MarketInstrumentList,
  type MarketInstrumentQuery,
  type MarketQuery,
  type RfqQuoteQuery,
  type TradeParticipantList,
  type TradeParticipantSearchQuery,
} from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { Principal } from '../auth/principal';
import { hasTradeAccess, RUNS_CACHE_LIMIT, RUNS_CACHE_TTL_MS, tradingSession, type MarketContext, type RunsPage } from './market.context';
import { listMyRfqs } from './market.rfq';
import { perBondOf } from './market.sizes';
import { quoteView } from './market.views';

export function createMarketRuns(ctx: MarketContext) {
  const { deps, database, repo, rfqExchangesOf, runsCache, runsGeneration, cachedAggregate, bondsMatching, searchKeyOf } = ctx;

  return {
    async listRuns(p: Principal, query: MarketQuery, privateRuns: boolean) {
      const base = { page: query.page, page_size: query.page_size };
      if (!hasTradeAccess(p)) return { ...base, count: 0, results: [], restriction_text: TRADE_TIMING_RESTRICTION_TEXT };
      const mine = query.my_quotes ?? false;
      const options = {
        clientId: p.clientId,
        now: deps.now(),
        mine,
        privateRuns,
        finstrumentId: query.finstrument_id,
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      };
      // Only the public, not-mine list is the same for every reader and so shared. The key holds the search
      // as the index reads it (not its ids: thousands for a broad query); ids are looked up on a miss only.
      const shared = !privateRuns && !mine;
      const key = shared ? JSON.stringify([searchKeyOf(query.search), options.finstrumentId ?? 0, options.limit, options.offset]) : '';
      const nowMs = options.now.getTime();
      const hit = shared ? runsCache.get(key) : undefined;
      let page: RunsPage;
      if (hit && nowMs < hit.validUntil) page = hit.page;
      else {
        const generation = runsGeneration();
        page = await repo.listMarket({ ...options, finstrumentIds: bondsMatching(query.search) });
        if (shared && generation === runsGeneration()) {
          if (runsCache.size >= RUNS_CACHE_LIMIT) runsCache.clear();
          const validUntil = Math.min(nowMs + RUNS_CACHE_TTL_MS, page.soonest?.getTime() ?? Number.POSITIVE_INFINITY);
          runsCache.set(key, { page, validUntil });
        }
      }
      return { ...base, count: page.count, results: page.rows.map((row) => quoteView(row, p)), restriction_text: null };
    },

    /** `GET api/eoi/rfq-quote/`: open exchange RFQs on the caller's RFQ exchanges, and the caller's own. */
    async listRfqQuotes(p: Principal, query: RfqQuoteQuery) {
      const paginate = query.paginate ?? true;
      const page = paginate ? query.page : 1;
      const pageSize = paginate ? query.page_size : RFQ_UNPAGINATED_MAX;
      const base = { page, page_size: pageSize };
      if (!hasTradeAccess(p)) return { ...base, count: 0, results: [], restriction_text: TRADE_TIMING_RESTRICTION_TEXT };
      const enabled = await rfqExchangesOf(p.clientId);
      const { rows, count } = await repo.listMarket({
        clientId: p.clientId,
        now: deps.now(),
        finstrumentIds: bondsMatching(query.search),
        mine: query.my_quotes ?? false,
        privateRuns: false,
        rfqExchanges: query.exchange ? enabled.filter((e) => e === query.exchange) : enabled,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { ...base, count, results: rows.map((row) => quoteView(row, p)), restriction_text: null };
    },

    /** `GET api/eoi/my-rfqs/`: the firm's exchange RFQs with every participant's latest terms (market.rfq.ts). */
    async listMyRfqs(p: Principal) {
      if (!hasTradeAccess(p)) return { results: [], restriction_text: TRADE_TIMING_RESTRICTION_TEXT };
      return { results: await listMyRfqs(database.db, p, deps.now(), (row) => quoteView(row, p)), restriction_text: null };
    },

    timings() {
      const { today, businessDay, isOpen } = tradingSession(deps.now());
      return {
        timezone: TRADE_TIMINGS.timezone,
        sessions: TRADE_TIMINGS.days.map((day) => ({ day, open: TRADE_TIMINGS.open, close: TRADE_TIMINGS.close })),
        t0_cutoff: process.env.T0_CUTOFF && /^\d\d:\d\d$/.test(process.env.T0_CUTOFF) ? process.env.T0_CUTOFF : TRADE_TIMINGS.t0_cutoff,
        is_open: isOpen,
        is_business_day: businessDay,
        trade_date: formatDate(parseDate(today)),
        restriction_text: TRADE_TIMING_RESTRICTION_TEXT,
      };
    },

    /**
     * `GET api/chatter/search-trade-participants`: firms the caller may send a private run or RFQ to, and
     * their members, as the spec's Counterparty rows. Any signed-in user may search (a viewer looks
     * counterparties up too); the caller's own firm is never offered.
     */
    async searchTradeParticipants(p: Principal, query: TradeParticipantSearchQuery): Promise<TradeParticipantList> {
      const rows = await repo.searchTradeParticipants({
        excludeClientId: p.clientId,
        search: query.search_param,
        rfq: query.for_rfq ? { exchange: query.exchange } : undefined,
        limit: TRADE_PARTICIPANTS_MAX,
      });
      return {
        results: rows.map((r) => ({
          user_id: r.userId,
          client_id: r.clientId,
          user_name: r.userId ? `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() : null,
          brand_name: null,
          nsccl_code: r.nscclName,
          iccl_code: r.icclName,
          name: r.clientName,
        })),
      };
    },

    /** `GET api/quote/depth/` (Premium): public interest in one bond by price level; never a firm. */
    async depth(p: Principal, query: DepthQuery): Promise<Depth> {
      const bond = await repo.bond(query.finstrument_id);
      if (!bond) throw new AppError('NOT_FOUND', 'Bond not found.');
      const base = { finstrument_id: bond.id, isin: bond.isin, display_name: bond.displayName, face_value_per_bond: perBondOf(bond) };
      if (!hasTradeAccess(p))
        return {
          ...base,
          bids: [],
          asks: [],
          bid_quantum: 0,
          ask_quantum: 0,
          bid_count: 0,
          ask_count: 0,
          restriction_text: TRADE_TIMING_RESTRICTION_TEXT,
        };
      const now = deps.now();
      const d = await cachedAggregate(JSON.stringify(['depth', bond.id, query.settlement_date ?? '', query.levels]), now.getTime(), () =>
        repo.depth(bond.id, now, query.settlement_date, query.levels),
      );
      return {
        ...base,
        bids: d.bids,
        asks: d.asks,
        bid_quantum: d.bidQuantum,
        ask_quantum: d.askQuantum,
        bid_count: d.bidCount,
        ask_count: d.askCount,
        restriction_text: null,
      };
    },

    /** `GET api/trade/finstrument/`: bonds with open public quotes, most quoted first. */
    async listInstruments(p: Principal, query: MarketInstrumentQuery): Promise<MarketInstrumentList> {
      const base = { page: query.page, page_size: query.page_size };
      if (!hasTradeAccess(p)) return { ...base, count: 0, results: [], restriction_text: TRADE_TIMING_RESTRICTION_TEXT };
      const now = deps.now();
      const { rows, count } = await cachedAggregate(
        JSON.stringify(['instruments', searchKeyOf(query.search), query.page, query.page_size]),
        now.getTime(),
        () =>
          repo.marketInstruments({
            now,
            finstrumentIds: bondsMatching(query.search),
            limit: query.page_size,
            offset: (query.page - 1) * query.page_size,
          }),
      );
      return {
        ...base,
        count,
        restriction_text: null,
        results: rows.map((r) => ({
          finstrument_id: r.finstrumentId,
          isin: r.isin,
          display_name: r.displayName,
          best_bid: r.bestBid,
          best_ask: r.bestAsk,
          bid_count: r.bidCount,
          ask_count: r.askCount,
          bid_quantum: r.bidQuantum,
          ask_quantum: r.askQuantum,
          face_value_per_bond: perBondOf(r),
        })),
      };
    },
  };
}
