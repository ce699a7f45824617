/**
 * What every part of the market service shares: the repository, the exchange venue, the public-run read
 * caches (cleared by every change, here and through the bus), `change` (one transaction with its audit rows
 * and outbox events, published after commit), pricing through finstruments, and the quote helpers the parts
 * all use (views, ownership, ending a quote). `createMarketService` builds one context and hands it to the
 * parts (market.quotes.ts, market.runs.ts, market.upload.ts, market.negotiation.ts, market.clusters.ts,
 * market.deals.ts).
 */
import {
  EXCHANGE_MESSAGES,
  MARKET_CLOSED_MESSAGE,
  MARKET_MESSAGES,
  MARKET_TOPIC_PREFIX,
  MARKET_TOPICS,
  TRADE_TIMINGS,
} from '@dart/contracts';
import { INDIA_SETTLEMENT_CALENDAR, parseDate } from '@dart/bond-math';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import type { BusMessage } from '../../lib/bus';
import { AppError } from '../../lib/errors';
import { appendEvents, publishAll, type DomainEvent } from '../../lib/events';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { FinstrumentsService } from '../finstruments';
import { ExchangeUnavailableError, type ExchangeGateway, type ExchangeName } from '../exchange/exchange.gateway';
import { createMarketRepository, type QuoteRow, type QuoteWithBond } from './market.repository';
import { unitsIn } from './market.sizes';
import { emitCluster, emitQuote } from './market.views';

export const isSet = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
/** Public-run pages are shared by every reader; a cached page lives at most this long (see README). */
export const RUNS_CACHE_TTL_MS = 1_000;
export const RUNS_CACHE_LIMIT = 200;

export const hasTradeAccess = (p: Principal) => p.permissions.includes('client.can_trade');
export const notFound = () => new AppError('NOT_FOUND', 'Quote not found.');
export const opposite = (side: string) => (side === 'BID' ? 'ASK' : 'BID');

/**
 * The trading session at an instant: IST wall clock (UTC+05:30, no daylight saving), a weekday that is
 * an NSE business day (bond-math's India settlement calendar), 09:00 ≤ time < 17:00.
 */
export function tradingSession(now: Date) {
  const ist = new Date(now.getTime() + 330 * 60_000);
  const today = ist.toISOString().slice(0, 10);
  const hhmm = ist.toISOString().slice(11, 16);
  const businessDay = INDIA_SETTLEMENT_CALENDAR.isBusinessDay(parseDate(today));
  return { today, hhmm, businessDay, isOpen: businessDay && hhmm >= TRADE_TIMINGS.open && hhmm < TRADE_TIMINGS.close };
}

export interface MarketOptions {
  /** The exchange RFQ venue (SimulatedExchange by default); without it `send_to_rfq` is refused. */
  exchange?: ExchangeGateway;
}

/** A page of public runs as the repository returns it (the rows before the per-reader projection). */
export type RunsPage = Awaited<ReturnType<ReturnType<typeof createMarketRepository>['listMarket']>>;

export function createMarketContext(deps: AppDeps, finstruments: FinstrumentsService, settings: MarketOptions = {}) {
  const { database, bus } = deps;
  const repo = createMarketRepository(database.db);
  const gateway = settings.exchange;
  /** Called after commit with the ids of deals made (the exchange module reports RFQ deals). */
  const dealListeners = new Set<(dealId: string) => void>();

  /** A venue call; a refusal or failure becomes 503 and nothing is stored. */
  async function atExchange<T>(call: (g: ExchangeGateway) => Promise<T>): Promise<T> {
    if (!gateway) throw new AppError('SERVICE_UNAVAILABLE', EXCHANGE_MESSAGES.unavailable);
    try {
      return await call(gateway);
    } catch (error) {
      if (error instanceof ExchangeUnavailableError) throw new AppError('SERVICE_UNAVAILABLE', EXCHANGE_MESSAGES.unavailable);
      throw error;
    }
  }
  /**
   * Undoes what the venue accepted for a request that then failed to store (a refused transaction, a
   * lost idempotency claim): the RFQ is cancelled / the response withdrawn. A venue that does not answer
   * three times is named in the audit trail (`exchange.cancel_failed`) for operations to clear by hand.
   */
  async function compensateAtExchange(exchange: ExchangeName, ref: string, reason: unknown): Promise<void> {
    let last: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await gateway!.cancel({ exchange, ref });
        return;
      } catch (error) {
        last = error;
      }
    }
    await database.db
      .transaction((tx) =>
        writeAudit(
          tx,
          { actorEmail: 'system:exchange' },
          {
            action: 'exchange.cancel_failed',
            entity: 'exchange_ref',
            entityId: ref,
            after: { exchange, reason: String((reason as Error)?.message ?? reason), error: String((last as Error)?.message ?? last) },
          },
        ),
      )
      .catch(() => undefined);
  }
  const rfqExchangesOf = async (clientId: string) => (await repo.clientRfqExchanges([clientId])).get(clientId) ?? [];
  /** An exchange RFQ is visible only to firms enabled for RFQs on its exchange (and its own firm). */
  async function mayAccessExchange(q: QuoteRow, p: Principal): Promise<boolean> {
    if (!q.exchange || q.clientId === p.clientId) return true;
    return (await rfqExchangesOf(p.clientId)).includes(q.exchange);
  }

  /** Outside the trading session (when `TRADING_HOURS=enforce`) new interest and deals are refused. */
  function assertTradingOpen() {
    if (deps.config.tradingHours === 'enforce' && !tradingSession(deps.now()).isOpen)
      throw new AppError('BAD_REQUEST', MARKET_CLOSED_MESSAGE);
  }

  /**
   * Read cache of public-run pages (the rows before the per-reader projection). Any market change
   * clears it: on this node right after commit, on the others through the bus. Redis pub/sub has no
   * replay, so when this node's bus subscription comes back after a connection loss (`bus.onResync`)
   * the whole cache is dropped: whatever changed meanwhile is read fresh. An entry also ends at the
   * first expiry among its quotes and after RUNS_CACHE_TTL_MS (1 s: the most a missed message can cost
   * while the subscription is still down).
   * The generation keeps a read that raced a change from storing what it saw.
   */
  const runsCache = new Map<string, { page: RunsPage; validUntil: number }>();
  let runsGeneration = 0;
  /** Depth and instrument lists are the same for every reader too: cached with the same rules. */
  const aggregateCache = new Map<string, { value: unknown; validUntil: number }>();
  const invalidateRuns = () => {
    runsGeneration++;
    runsCache.clear();
    aggregateCache.clear();
  };
  async function cachedAggregate<T>(key: string, nowMs: number, load: () => Promise<T & { soonest: Date | null }>): Promise<T> {
    const hit = aggregateCache.get(key);
    if (hit && nowMs < hit.validUntil) return hit.value as T;
    const generation = runsGeneration;
    const value = await load();
    if (generation === runsGeneration) {
      if (aggregateCache.size >= RUNS_CACHE_LIMIT) aggregateCache.clear();
      aggregateCache.set(key, {
        value,
        validUntil: Math.min(nowMs + RUNS_CACHE_TTL_MS, value.soonest?.getTime() ?? Number.POSITIVE_INFINITY),
      });
    }
    return value;
  }
  /**
   * A market list's `search` (runs, private runs, RFQ quotes, instruments, own quotes): the ids of every bond
   * the header search and the Find grid match (one bond index, `FinstrumentsService.searchIds`), or undefined
   * without a search. The lists keep their own order (newest or most quoted first); the ids only filter.
   */
  const bondsMatching = (search: string | undefined): number[] | undefined => (search ? finstruments.searchIds(search) : undefined);
  /** The search as the index reads it (case and spacing do not change its matches): the read caches' key. */
  const searchKeyOf = (search: string | undefined) => (search ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  const unsubscribeRuns = bus.subscribe((message) => {
    if (message.topic.startsWith(MARKET_TOPIC_PREFIX)) invalidateRuns();
  });
  const unsubscribeResync = bus.onResync(invalidateRuns);

  /** One transaction: the change, its audit rows and its outbox events; events go out after commit. */
  async function change<T>(fn: (tx: Tx, emit: (event: DomainEvent) => void) => Promise<T>): Promise<T> {
    const pending: DomainEvent[] = [];
    let messages: BusMessage[] = [];
    const result = await database.db.transaction(async (tx) => {
      const value = await fn(tx, (event) => pending.push(event));
      // Under an Idempotency-Key: the key is marked applied in this transaction (never run twice).
      await fenceIdempotency(tx);
      messages = await appendEvents(tx, pending);
      return value;
    });
    invalidateRuns();
    await publishAll(bus, messages);
    const dealIds = new Set(
      messages.filter((m) => m.topic === MARKET_TOPICS.considerationUpdate).map((m) => (m.payload as { deal_id: string }).deal_id),
    );
    for (const id of dealIds) for (const listener of dealListeners) listener(id);
    return result;
  }

  /** The live events of a quote change; a public exchange RFQ goes to every firm enabled on its exchange. */
  async function announce(tx: Tx, emit: (event: DomainEvent) => void, view: QuoteWithBond, action: string) {
    const firms =
      view.quote.exchange && view.quote.recipients === null ? await createMarketRepository(tx).rfqFirms(view.quote.exchange) : undefined;
    emitQuote(emit, view, action, firms);
  }

  async function viewOf(tx: Tx, id: string): Promise<QuoteWithBond> {
    const row = await createMarketRepository(tx).findQuoteView(id);
    if (!row) throw notFound();
    return row;
  }

  /** Price or yield from the other through bond-math, with the resolved settlement date. */
  async function priceQuote(
    finstrumentId: number,
    input: { price?: number | null; yield?: number | null; settlement?: string | null; settlementDelta?: number | null; quantum?: number },
  ) {
    // Bond-math prices units (bonds); the market's quantum is face value in rupees (market.sizes.ts).
    const bond = input.quantum ? await repo.bond(finstrumentId) : undefined;
    const quantity = input.quantum && bond ? unitsIn(input.quantum, bond) : undefined;
    const info = await finstruments.price(String(finstrumentId), {
      ...(isSet(input.price) ? { price: input.price } : { yield: input.yield ?? undefined }),
      ...(input.settlement
        ? { settlement_date: input.settlement }
        : { settlement_delta: (input.settlementDelta ?? undefined) as 0 | 1 | 2 | undefined }),
      ...(quantity ? { quantity } : {}),
    });
    if (info.price.unit_clean_price === null || info.price.bond_yield === null || info.price.settlement_date === null)
      throw new AppError('BAD_REQUEST', `This bond cannot be priced. ${info.not_priceable_reason ?? ''}`.trim());
    return {
      price: info.price.unit_clean_price,
      yield: info.price.bond_yield,
      settlementDate: info.price.settlement_date,
      settlementDelta: info.settlement_delta,
      consideration: info.consideration_details,
    };
  }

  const mayAccess = (q: QuoteRow, p: Principal) => q.clientId === p.clientId || q.recipients === null || q.recipients.includes(p.clientId);

  /** Loads a quote the caller owns, locked; another firm's quote is "not found" (no existence leak). */
  async function ownQuote(tx: Tx, p: Principal, id: string): Promise<QuoteRow> {
    const q = await createMarketRepository(tx).findQuote(id, true);
    if (!q || q.clientId !== p.clientId) throw notFound();
    return q;
  }

  /** Closes the proposed clusters of a quote and gives their quantum back to the other legs. */
  async function releaseClusters(tx: Tx, quoteId: string, emit: (event: DomainEvent) => void) {
    const r = createMarketRepository(tx);
    for (const cluster of await r.proposedClustersOf(quoteId)) {
      await r.updateCluster(cluster.id, { status: 'closed' });
      const other = cluster.bidQuoteId === quoteId ? cluster.askQuoteId : cluster.bidQuoteId;
      await r.addRemaining(other, cluster.quantum);
      await r.addRemaining(quoteId, cluster.quantum);
      emitCluster(emit, { ...cluster, status: 'closed' });
    }
  }

  /** Ends a quote (closed / expired / replaced) with audit and events. */
  async function endQuote(
    tx: Tx,
    q: QuoteRow,
    status: 'closed' | 'expired' | 'replaced',
    audit: AuditContext,
    emit: (event: DomainEvent) => void,
    replacedBy?: string,
  ) {
    if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
    await releaseClusters(tx, q.id, emit);
    const r = createMarketRepository(tx);
    const row = await r.updateQuote(q.id, { status, ...(replacedBy ? { replacedBy } : {}) });
    await writeAudit(tx, audit, {
      action: `quote.${status}`,
      entity: 'quote',
      entityId: q.id,
      before: { status: q.status },
      after: { status, replaced_by: replacedBy ?? null },
    });
    const view = await viewOf(tx, row.id);
    await announce(tx, emit, view, status);
    return view;
  }

  return {
    deps,
    database,
    repo,
    dealListeners,
    atExchange,
    compensateAtExchange,
    rfqExchangesOf,
    mayAccessExchange,
    assertTradingOpen,
    runsCache,
    /** The cache generation now (a read compares it before storing what it saw). */
    runsGeneration: () => runsGeneration,
    cachedAggregate,
    bondsMatching,
    searchKeyOf,
    change,
    announce,
    viewOf,
    priceQuote,
    mayAccess,
    ownQuote,
    releaseClusters,
    endQuote,
    /** Ends the cache's bus subscriptions (the service's `stop`). */
    unsubscribe(): void {
      unsubscribeRuns();
      unsubscribeResync();
    },
  };
}
export type MarketContext = ReturnType<typeof createMarketContext>;
/** What `priceQuote` answers: price, yield, settlement and the consideration. */
export type PricedQuote = Awaited<ReturnType<MarketContext['priceQuote']>>;
