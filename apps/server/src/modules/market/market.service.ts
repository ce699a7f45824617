/**
 * The market: quotes (EOI) with their lifecycle, public and private runs, negotiation, the matching
 * engine's clusters and the deals they lead to. Every change is one transaction with its audit row
 * and outbox events; events are published after commit. Prices/yields/considerations come from the
 * finstruments service (bond-math); nothing is priced here.
 */
import {
  anonymousParticipant,
  canOverridePrice,
  EXCHANGE_MESSAGES,
  EXCHANGE_OF_CLEARING_CORPORATION,
  CLEARING_CORPORATION_OF_EXCHANGE,
  MARKET_MESSAGES,
  MARKET_TOPIC_PREFIX,
  MARKET_TOPICS,
  TRADE_TIMING_RESTRICTION_TEXT,
  TRADE_TIMINGS,
  MARKET_CLOSED_MESSAGE,
  QUOTE_UPLOAD_MESSAGES,
  formatFaceValue,
  type Cluster,
  type Depth,
  type DepthQuery,
  type MarketInstrumentList,
  type MarketInstrumentQuery,
  type QuoteCreate,
  type QuoteUploadResult,
  type UploadRowError,
  type Deal,
  type DealListItem,
  type DealListQuery,
  type MarketQuery,
  type MyQuotesQuery,
  type Negotiation,
  type NegotiationListQuery,
  type NegotiationRequest,
  type Quote,
  type QuoteAdd,
  type QuoteUpdate,
  type RfqQuoteQuery,
  RFQ_UNPAGINATED_MAX,
  TRADE_PARTICIPANTS_MAX,
  type TradeParticipantList,
  type TradeParticipantSearchQuery,
} from '@dart/contracts';
import { formatDate, INDIA_SETTLEMENT_CALENDAR, parseDate } from '@dart/bond-math';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import type { BusMessage } from '../../lib/bus';
import { AppError, fieldError } from '../../lib/errors';
import { appendEvent, publishAll, type DomainEvent } from '../../lib/events';
import type { QuotaCharge } from '../../lib/quotas';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { FinstrumentsService } from '../finstruments';
import { ExchangeUnavailableError, type ExchangeGateway, type ExchangeName } from '../exchange/exchange.gateway';
import {
  createMarketRepository,
  type ClusterRow,
  type DealRow,
  type NegotiationRow,
  type QuoteRow,
  type QuoteWithBond,
} from './market.repository';
import { OrderBook, type BookQuote } from './matching-engine';
import { columnOfField, parseUploadRow, readUploadTable } from './quote-upload';
import { listMyQuotes } from './market.my-quotes';
import { assertSize, perBondOf, unitsIn, type BondSizeTerms } from './market.sizes';
import { assertRfqTermsStand, fillRfqResponses, listMyRfqs, normaliseRfqRaise, recordRfqResponse } from './market.rfq';

const isSet = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const EXPIRY_SWEEP_MS = 5_000;
const EXPIRY_BATCH = 500;
/** Public-run pages are shared by every reader; a cached page lives at most this long (see README). */
const RUNS_CACHE_TTL_MS = 1_000;
const RUNS_CACHE_LIMIT = 200;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const hasTradeAccess = (p: Principal) => p.permissions.includes('client.can_trade');
const notFound = () => new AppError('NOT_FOUND', 'Quote not found.');
const opposite = (side: string) => (side === 'BID' ? 'ASK' : 'BID');

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

/** A row the upload refused, carried to the HTTP edge (which answers 400 with every row error). */
export class UploadRowsError extends Error {
  constructor(readonly rowErrors: UploadRowError[]) {
    super(QUOTE_UPLOAD_MESSAGES.rowsInvalid(new Set(rowErrors.map((e) => e.row)).size));
    this.name = 'UploadRowsError';
  }
}

export interface MarketOptions {
  /** The exchange RFQ venue (SimulatedExchange by default); without it `send_to_rfq` is refused. */
  exchange?: ExchangeGateway;
}

export function createMarketService(deps: AppDeps, finstruments: FinstrumentsService, settings: MarketOptions = {}) {
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
  let timer: NodeJS.Timeout | null = null;

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
  type RunsPage = Awaited<ReturnType<typeof repo.listMarket>>;
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
      messages = [];
      for (const event of pending) messages.push(await appendEvent(tx, event));
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

  function quoteView(row: QuoteWithBond, reader: Principal | null): Quote {
    const q = row.quote;
    const mine = reader !== null && q.clientId === reader.clientId;
    const privateToReader = reader !== null && q.recipients !== null && q.recipients.includes(reader.clientId);
    // Exchange RFQs: a disclosed RFQ names its firm to every participant who sees it; an anonymous one to nobody.
    const named = mine || (q.exchange ? !q.rfqAnonymous && reader !== null : privateToReader);
    return {
      id: q.id,
      finstrument_id: q.finstrumentId,
      isin: row.isin,
      display_name: row.displayName,
      quote_type: q.quoteType as 'BID' | 'ASK',
      quantum: q.quantum,
      remaining_quantum: q.remainingQuantum,
      ...(row.securityType === undefined
        ? {}
        : { face_value_per_bond: perBondOf({ securityType: row.securityType, faceValue: row.faceValue ?? null }) }),
      unit_price_stored: q.price,
      yield_stored: q.yieldFraction,
      fixed_field: q.fixedField as 'yield' | 'price',
      yield_type: q.yieldType,
      price_overridden: q.priceOverridden,
      settlement_date: q.settlementDate,
      settlement_delta: q.settlementDelta,
      validity: q.validityMinutes,
      expiry_date_stored: q.expiresAt.toISOString(),
      mandate_expires_at: iso(q.mandateExpiresAt),
      source: q.source,
      state: q.state,
      status: q.status as Quote['status'],
      is_best: q.isBest,
      send_to_rfq: q.sendToRfq,
      whatsapp_consent: q.whatsappConsent,
      replaces: q.replaces,
      replaced_by: q.replacedBy,
      respond_to: q.respondTo,
      private: q.recipients !== null,
      counterparties: mine ? (q.recipients ?? []) : null,
      is_mine: mine,
      client_name: named ? row.clientName : null,
      broker_id: mine ? q.brokerId : null,
      clearing_corporation: q.clearingCorporation,
      rfq_mode: q.rfqMode,
      end_client_id: mine ? q.endClientId : null,
      origin_trade: mine ? q.originTrade : null,
      exchange: q.exchange,
      exchange_ref: q.exchangeRef,
      rfq_anonymous: q.rfqAnonymous,
      created_at: q.createdAt.toISOString(),
      updated_at: q.updatedAt.toISOString(),
    };
  }

  /** Live events of a quote change: public runs to every trading user, private runs to owner + recipients only. */
  function emitQuote(emit: (event: DomainEvent) => void, view: QuoteWithBond, action: string, rfqFirms?: readonly string[]) {
    const { is_mine: _m, client_name: _c, counterparties: _p, ...quote } = quoteView(view, null);
    const payload = { action, quote_id: view.quote.id, finstrument_id: view.quote.finstrumentId, quote };
    const recipients = view.quote.recipients;
    if (view.quote.exchange) {
      // Exchange RFQs travel as inquiries to the firms enabled on the exchange (or the addressed ones), anonymously.
      const to = recipients === null ? (rfqFirms ?? []) : recipients;
      for (const clientId of new Set([view.quote.clientId, ...to]))
        emit({ topic: MARKET_TOPICS.inquiries, clientId, payload: { ...payload, exchange: view.quote.exchange } });
    } else if (recipients === null) emit({ topic: MARKET_TOPICS.publicRun, clientId: null, payload });
    else for (const clientId of new Set([view.quote.clientId, ...recipients])) emit({ topic: MARKET_TOPICS.privateRun, clientId, payload });
    emit({ topic: MARKET_TOPICS.openOrders, clientId: view.quote.clientId, payload: { action, quote_id: view.quote.id } });
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

  function emitCluster(emit: (event: DomainEvent) => void, c: ClusterRow) {
    const payload = {
      cluster_id: c.id,
      status: c.status,
      bid_quote_id: c.bidQuoteId,
      ask_quote_id: c.askQuoteId,
      finstrument_id: c.finstrumentId,
      price: c.price,
      quantum: c.quantum,
    };
    for (const clientId of new Set([c.bidClientId, c.askClientId])) emit({ topic: MARKET_TOPICS.cluster, clientId, payload });
  }

  function emitDeal(emit: (event: DomainEvent) => void, d: DealRow) {
    const payload = {
      deal_id: d.id,
      finstrument_id: d.finstrumentId,
      price: d.price,
      yield: d.yieldFraction,
      quantum: d.quantum,
      settlement_date: d.settlementDate,
      consideration: d.consideration,
    };
    for (const clientId of new Set([d.buyerClientId, d.sellerClientId]))
      emit({ topic: MARKET_TOPICS.considerationUpdate, clientId, payload });
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

  /** Records a deal. The consideration is priced before the transaction (PGlite has one connection). */
  async function makeDeal(
    tx: Tx,
    input: {
      bid: QuoteRow;
      ask: QuoteRow | null;
      buyerClientId: string;
      sellerClientId: string;
      buyerUserId: string | null;
      sellerUserId: string | null;
      price: number;
      yieldFraction: number;
      quantum: number;
      settlementDate: string;
      clusterId?: string;
      negotiationId?: string;
      finstrumentId: number;
      consideration: Awaited<ReturnType<typeof priceQuote>>['consideration'];
    },
    audit: AuditContext,
    emit: (event: DomainEvent) => void,
  ) {
    const consideration = input.consideration;
    const deal = await createMarketRepository(tx).insertDeal({
      finstrumentId: input.finstrumentId,
      buyerClientId: input.buyerClientId,
      sellerClientId: input.sellerClientId,
      buyerUserId: input.buyerUserId,
      sellerUserId: input.sellerUserId,
      bidQuoteId: input.bid.quoteType === 'BID' ? input.bid.id : (input.ask?.id ?? null),
      askQuoteId: input.bid.quoteType === 'ASK' ? input.bid.id : (input.ask?.id ?? null),
      clusterId: input.clusterId ?? null,
      negotiationId: input.negotiationId ?? null,
      price: input.price,
      yieldFraction: input.yieldFraction,
      quantum: input.quantum,
      settlementDate: input.settlementDate,
      consideration: consideration?.consideration ?? 0,
      considerationDetails: consideration,
    });
    await writeAudit(tx, audit, {
      action: 'deal.created',
      entity: 'deal',
      entityId: deal.id,
      after: {
        price: deal.price,
        yield: deal.yieldFraction,
        quantum: deal.quantum,
        settlement_date: deal.settlementDate,
        consideration: deal.consideration,
        buyer: deal.buyerClientId,
        seller: deal.sellerClientId,
      },
    });
    emitDeal(emit, deal);
    return deal;
  }

  /** Deals as one party sees them (batched: one query each for bonds, names and legs). */
  async function dealViews(rows: readonly DealRow[], reader: Principal): Promise<Deal[]> {
    if (rows.length === 0) return [];
    const [bonds, names, legs] = await Promise.all([
      repo.bonds(rows.map((d) => d.finstrumentId)),
      repo.clientNames([...new Set(rows.flatMap((d) => [d.buyerClientId, d.sellerClientId]))]),
      repo.quotesByIds([...new Set(rows.flatMap((d) => [d.bidQuoteId, d.askQuoteId].filter(isSet)))]),
    ]);
    const legById = new Map(legs.map((q) => [q.id, q]));
    return rows.map((d) => {
      const bond = bonds.get(d.finstrumentId);
      // A deal on an anonymous exchange RFQ never names (or identifies) the other firm.
      const anonymousRfq = [d.bidQuoteId, d.askQuoteId]
        .map((id) => (id ? legById.get(id) : undefined))
        .find((q) => q?.exchange && q.rfqAnonymous);
      const hidden = (clientId: string) => anonymousRfq !== undefined && clientId !== reader.clientId;
      const who = (clientId: string) => ({
        id: hidden(clientId) ? '' : clientId,
        name: hidden(clientId) ? anonymousParticipant(anonymousRfq!.exchange!) : (names.get(clientId) ?? ''),
      });
      const buyer = who(d.buyerClientId);
      const seller = who(d.sellerClientId);
      return {
        id: d.id,
        finstrument_id: d.finstrumentId,
        isin: bond?.isin ?? '',
        display_name: bond?.displayName ?? '',
        side: d.buyerClientId === reader.clientId ? 'buy' : 'sell',
        buyer_client_id: buyer.id,
        seller_client_id: seller.id,
        buyer_name: buyer.name,
        seller_name: seller.name,
        bid_quote_id: d.bidQuoteId,
        ask_quote_id: d.askQuoteId,
        cluster_id: d.clusterId,
        negotiation_id: d.negotiationId,
        price: d.price,
        yield: d.yieldFraction,
        quantum: d.quantum,
        ...(bond ? { face_value_per_bond: perBondOf(bond) } : {}),
        settlement_date: d.settlementDate,
        consideration: d.consideration,
        consideration_details: (d.considerationDetails ?? null) as Record<string, unknown> | null,
        created_at: d.createdAt.toISOString(),
      };
    });
  }

  async function dealView(d: DealRow | undefined, reader: Principal): Promise<Deal | null> {
    return d ? (await dealViews([d], reader))[0]! : null;
  }

  /** A negotiation as one party sees it: on an anonymous exchange RFQ the other firm's users stay hidden. */
  function negotiationView(
    n: NegotiationRow,
    quote: Pick<QuoteRow, 'finstrumentId' | 'exchange' | 'rfqAnonymous'> & Partial<BondSizeTerms>,
    deal: Deal | null,
    reader: Principal,
  ): Negotiation {
    const role = n.quoterClientId === reader.clientId ? ('quoter' as const) : ('responder' as const);
    return {
      id: n.id,
      quote_id: n.quoteId,
      finstrument_id: quote.finstrumentId,
      status: n.status as Negotiation['status'],
      role,
      history: (n.history as Negotiation['history']).map((h) =>
        quote.exchange && quote.rfqAnonymous && h.by_client !== role ? { ...h, by_user_id: '' } : h,
      ),
      ...(quote.securityType === undefined
        ? {}
        : { face_value_per_bond: perBondOf({ securityType: quote.securityType, faceValue: quote.faceValue ?? null }) }),
      deal,
      created_at: n.createdAt.toISOString(),
      updated_at: n.updatedAt.toISOString(),
    };
  }

  async function clusterView(c: ClusterRow, reader: Principal): Promise<Cluster> {
    const bond = await repo.bond(c.finstrumentId);
    const mySide = c.bidClientId === reader.clientId ? 'BID' : 'ASK';
    return {
      id: c.id,
      finstrument_id: c.finstrumentId,
      isin: bond?.isin ?? '',
      display_name: bond?.displayName ?? '',
      status: c.status as Cluster['status'],
      bid_quote_id: c.bidQuoteId,
      ask_quote_id: c.askQuoteId,
      my_leg_id: mySide === 'BID' ? c.bidQuoteId : c.askQuoteId,
      my_side: mySide,
      price: c.price,
      yield: c.yieldFraction,
      quantum: c.quantum,
      ...(bond ? { face_value_per_bond: perBondOf(bond) } : {}),
      settlement_date: c.settlementDate,
      bid_accepted: c.bidAcceptedAt !== null,
      ask_accepted: c.askAcceptedAt !== null,
      deal: c.status === 'accepted' ? await dealView(await repo.dealBy('clusterId', c.id), reader) : null,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
    };
  }

  const toBook = (q: QuoteRow, sequence: number): BookQuote => ({
    id: q.id,
    clientId: q.clientId,
    side: q.quoteType as 'BID' | 'ASK',
    price: q.price,
    remaining: q.remainingQuantum,
    sequence,
    settlementDate: q.settlementDate,
    recipients: q.recipients,
  });

  /** Runs the engine for a new or changed quote: resting interest loaded under the bond's lock, fills → clusters. */
  async function match(tx: Tx, incoming: QuoteRow, audit: AuditContext, emit: (event: DomainEvent) => void): Promise<QuoteRow> {
    // Exchange RFQs and their responses trade on the venue, not in Dart's book.
    if (incoming.exchange) return incoming;
    const r = createMarketRepository(tx);
    const resting = await r.restingQuotes(incoming.finstrumentId, opposite(incoming.quoteType), incoming.settlementDate, deps.now());
    const book = new OrderBook();
    resting.forEach((q, i) => book.rest(toBook(q, i)));
    const fills = book.add(toBook(incoming, Number.MAX_SAFE_INTEGER));
    const byId = new Map(resting.map((q) => [q.id, q]));
    let current = incoming;
    for (const fill of fills) {
      const other = byId.get(fill.restingId)!;
      const [bid, ask] = incoming.quoteType === 'BID' ? [incoming, other] : [other, incoming];
      const cluster = await r.insertCluster({
        finstrumentId: incoming.finstrumentId,
        bidQuoteId: bid.id,
        askQuoteId: ask.id,
        bidClientId: bid.clientId,
        askClientId: ask.clientId,
        price: other.price,
        yieldFraction: other.yieldFraction,
        quantum: fill.quantum,
        settlementDate: incoming.settlementDate,
      });
      await r.addRemaining(other.id, -fill.quantum);
      current = await r.addRemaining(incoming.id, -fill.quantum);
      await writeAudit(tx, audit, {
        action: 'cluster.created',
        entity: 'cluster',
        entityId: cluster.id,
        after: { bid: bid.id, ask: ask.id, price: cluster.price, quantum: cluster.quantum },
      });
      emitCluster(emit, cluster);
    }
    return current;
  }

  /**
   * Creates a quote, a private run, an exchange RFQ (`send_to_rfq`) or a response (`respond_to`).
   * Everything that can refuse the request is checked before the venue hears of an RFQ or response;
   * if the store still fails after the venue accepted, the venue call is undone (compensateAtExchange).
   */
  async function createQuote(p: Principal, raw: QuoteAdd, audit: AuditContext): Promise<Quote> {
    assertTradingOpen();
    // A one-to-one RFQ's `oto_participant_details` names its one counterparty (market.rfq.ts).
    const input = normaliseRfqRaise(raw);
    if (input.user_account_id && input.user_account_id !== p.userAccountId)
      throw new AppError('FORBIDDEN', 'You can only quote for your own account.');
    if (input.price_overridden && !canOverridePrice(p)) throw new AppError('FORBIDDEN', MARKET_MESSAGES.priceOverrideNotAllowed);

    // A response takes the bond, the other side and the settlement of the quote it answers, privately to its owner.
    let target: QuoteRow | undefined;
    if (input.respond_to) {
      target = await repo.findQuote(input.respond_to);
      if (!target || !mayAccess(target, p) || !(await mayAccessExchange(target, p))) throw notFound();
      if (target.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
      if (target.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
    }
    const finstrumentId = target?.finstrumentId ?? input.finstrument_id!;
    const quoteType = target ? opposite(target.quoteType) : (input.quote_type ?? 'BID');
    const fixedField = target ? (isSet(input.unit_price_stored) ? 'price' : 'yield') : input.fixed_field;
    const counterparties = target ? [target.clientId] : [...new Set(input.counterparties)];
    if (counterparties.includes(p.clientId)) throw fieldError('counterparties', 'You cannot send a private run to your own firm.');
    const known = await repo.clientsExist(counterparties);
    if (counterparties.some((id) => !known.has(id))) throw fieldError('counterparties', 'Unknown counterparty.');
    const bond = await repo.bond(finstrumentId);
    if (!bond) throw fieldError('finstrument_id', 'Bond not found.');
    assertSize(input.quantum, bond);
    if (input.replaces) {
      // Checked again, locked, in the transaction; checked here so a doomed RFQ never reaches the venue.
      const old = await repo.findQuote(input.replaces);
      if (!old || old.clientId !== p.clientId) throw fieldError('replaces', 'Quote to replace not found.');
      if (old.status !== 'open') throw fieldError('replaces', MARKET_MESSAGES.quoteNotOpen);
    }

    // Exchange RFQs (send_to_rfq) and responses to them go through the ExchangeGateway before they are stored.
    let exchange: ExchangeName | null = null;
    let rfqAnonymous = false;
    let clearingCorporation: string | null = input.clearing_corporation ?? null;
    let rfqMode: string | null = input.rfq_mode ?? null;
    if (target?.exchange) {
      exchange = target.exchange as ExchangeName;
      rfqAnonymous = target.rfqAnonymous;
      clearingCorporation = target.clearingCorporation;
      rfqMode = target.rfqMode;
    } else if (input.send_to_rfq && !target) {
      const enabled = (await rfqExchangesOf(p.clientId)) as ExchangeName[];
      if (enabled.length === 0) throw new AppError('FORBIDDEN', EXCHANGE_MESSAGES.noRfqExchange);
      exchange = input.clearing_corporation ? EXCHANGE_OF_CLEARING_CORPORATION[input.clearing_corporation] : enabled[0]!;
      if (!enabled.includes(exchange)) throw fieldError('clearing_corporation', EXCHANGE_MESSAGES.notEnabled);
      clearingCorporation = CLEARING_CORPORATION_OF_EXCHANGE[exchange];
      rfqMode = input.rfq_mode ?? 'ONE_TO_MANY';
      if (rfqMode === 'ONE_TO_ONE' && counterparties.length !== 1) throw fieldError('counterparties', EXCHANGE_MESSAGES.oneToOneNeedsOne);
      const theirs = await repo.clientRfqExchanges(counterparties);
      if (counterparties.some((id) => !(theirs.get(id) ?? []).includes(exchange!)))
        throw fieldError('counterparties', 'Every counterparty must be enabled for RFQs on this exchange.');
      rfqAnonymous = input.rfq_anonymous ?? true;
    }

    let price: number;
    let yieldFraction: number;
    let settlementDate: string;
    let settlementDelta: number | null;
    const settlement = input.settlement ?? (target && !isSet(input.settlement_delta) ? target.settlementDate : null);
    if (input.price_overridden) {
      // Price override: the price is stored as entered, next to the yield the user gave.
      if (!isSet(input.unit_price_stored)) throw fieldError('unit_price_stored', 'This field is required');
      if (!isSet(input.yield_stored)) throw fieldError('yield_stored', 'This field is required');
      const priced = await priceQuote(finstrumentId, { yield: input.yield_stored, settlement, settlementDelta: input.settlement_delta });
      price = input.unit_price_stored;
      yieldFraction = input.yield_stored;
      settlementDate = priced.settlementDate;
      settlementDelta = priced.settlementDelta;
    } else {
      const priced = await priceQuote(
        finstrumentId,
        fixedField === 'price'
          ? { price: input.unit_price_stored, settlement, settlementDelta: input.settlement_delta }
          : { yield: input.yield_stored, settlement, settlementDelta: input.settlement_delta },
      );
      price = priced.price;
      yieldFraction = priced.yield;
      settlementDate = priced.settlementDate;
      settlementDelta = priced.settlementDelta;
    }
    const now = deps.now();
    const expiresAt = input.expiry_date_stored ? new Date(input.expiry_date_stored) : new Date(now.getTime() + input.validity * 60_000);
    if (expiresAt <= now) throw fieldError('expiry_date_stored', 'Expiry should be in the future.');
    // Daily quotas: checked before the venue hears of an RFQ, charged in the transaction that stores the quote.
    const quotaCharges: QuotaCharge[] = [
      { action: 'quote.create', scope: 'user', subjectId: p.userId },
      { action: 'quote.create', scope: 'client', subjectId: p.clientId },
      ...(exchange && !target
        ? ([
            { action: 'rfq.raise', scope: 'user', subjectId: p.userId },
            { action: 'rfq.raise', scope: 'client', subjectId: p.clientId },
          ] as const)
        : []),
    ];
    await deps.quotas.check(database.db, quotaCharges);
    let exchangeRef: string | null = null;
    const venueExchange = exchange;
    if (exchange) {
      const venue = exchange;
      const submitted = target?.exchange
        ? await atExchange((g) =>
            g.respond({ exchange: venue, rfqRef: target.exchangeRef ?? '', price, yieldFraction, quantum: input.quantum }),
          )
        : await atExchange((g) =>
            g.publishRfq({
              exchange: venue,
              mode: rfqMode as 'ONE_TO_ONE' | 'ONE_TO_MANY',
              anonymous: rfqAnonymous,
              isin: bond.isin,
              side: quoteType as 'BID' | 'ASK',
              quantum: input.quantum,
              price,
              yieldFraction,
              settlementDate,
              validUntil: expiresAt,
              counterparty: counterparties[0],
            }),
          );
      exchangeRef = submitted.ref;
    }

    try {
      return await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        await deps.quotas.charge(tx, quotaCharges);
        await r.lockBook(finstrumentId);
        const inserted = await r.insertQuote({
          clientId: p.clientId,
          userId: p.userId,
          userAccountId: p.userAccountId,
          finstrumentId,
          quoteType,
          quantum: input.quantum,
          remainingQuantum: input.quantum,
          price,
          yieldFraction,
          fixedField,
          yieldType: input.yield_type,
          priceOverridden: input.price_overridden,
          settlementDate,
          settlementDelta,
          validityMinutes: input.validity,
          expiresAt,
          mandateExpiresAt: input.mandate_expires_at ? new Date(input.mandate_expires_at) : null,
          source: input.source,
          state: input.state,
          isBest: input.is_best,
          sendToRfq: input.send_to_rfq || exchange !== null,
          whatsappConsent: input.whatsapp_consent,
          replaces: input.replaces ?? null,
          respondTo: target?.id ?? null,
          recipients: counterparties.length > 0 ? counterparties : null,
          brokerId: input.broker_id ?? null,
          clearingCorporation,
          rfqMode,
          exchange,
          exchangeRef,
          rfqAnonymous,
          otoParticipantDetails: input.oto_participant_details ?? null,
          originTrade: input.origin_trade ?? null,
          endClientId: input.end_client_id ?? null,
        });
        await writeAudit(tx, audit, {
          action: 'quote.created',
          entity: 'quote',
          entityId: inserted.id,
          after: {
            finstrument_id: finstrumentId,
            quote_type: quoteType,
            quantum: input.quantum,
            price,
            yield: yieldFraction,
            settlement_date: settlementDate,
            private: counterparties.length > 0,
            respond_to: target?.id ?? null,
            price_overridden: input.price_overridden,
          },
        });
        if (input.replaces) {
          const old = await r.findQuote(input.replaces, true);
          if (!old || old.clientId !== p.clientId) throw fieldError('replaces', 'Quote to replace not found.');
          if (old.status !== 'open') throw fieldError('replaces', MARKET_MESSAGES.quoteNotOpen);
          await endQuote(tx, old, 'replaced', audit, emit, inserted.id);
        }
        await match(tx, inserted, audit, emit);
        // A response to an exchange RFQ is its participant's latest terms in the negotiation the raiser accepts.
        if (target?.exchange) await recordRfqResponse(tx, target, inserted, p, now, audit, emit);
        const view = await viewOf(tx, inserted.id);
        await announce(tx, emit, view, 'created');
        return quoteView(view, p);
      });
    } catch (error) {
      if (venueExchange && exchangeRef) await compensateAtExchange(venueExchange, exchangeRef, error);
      throw error;
    }
  }

  async function expireDue(): Promise<number> {
    return change(async (tx, emit) => {
      // FOR UPDATE SKIP LOCKED: several nodes sweeping at once never expire one quote twice.
      const due = await createMarketRepository(tx).dueForExpiry(deps.now(), EXPIRY_BATCH);
      for (const q of due) await endQuote(tx, q, 'expired', { actorEmail: 'system:expiry' }, emit);
      if (due.length > 0) emit({ topic: MARKET_TOPICS.refreshRuns, clientId: null, payload: { reason: 'expired', count: due.length } });
      return due.length;
    });
  }

  return {
    createQuote,
    expireDue,

    startJobs(): void {
      timer = setInterval(() => void expireDue().catch(() => undefined), EXPIRY_SWEEP_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      unsubscribeRuns();
      unsubscribeResync();
    },

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
        const generation = runsGeneration;
        page = await repo.listMarket({ ...options, finstrumentIds: bondsMatching(query.search) });
        if (shared && generation === runsGeneration) {
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

    /** `GET api/trade/eoi/`: the caller's firm's own quotes (market.my-quotes.ts). */
    listMyQuotes(p: Principal, query: MyQuotesQuery) {
      return listMyQuotes(database.db, p.clientId, query, bondsMatching(query.search), deps.now(), (row) => quoteView(row, p));
    },

    /** Subscribes to deals made (after commit); returns the unsubscribe. */
    onDeal(listener: (dealId: string) => void): () => void {
      dealListeners.add(listener);
      return () => dealListeners.delete(listener);
    },

    async getQuote(p: Principal, id: string): Promise<Quote> {
      const row = await repo.findQuoteView(id);
      if (!row || !mayAccess(row.quote, p) || !hasTradeAccess(p) || !(await mayAccessExchange(row.quote, p))) throw notFound();
      return quoteView(row, p);
    },

    async closeQuotes(p: Principal, ids: readonly string[], status: 'closed' | 'expired', audit: AuditContext): Promise<Quote[]> {
      return change(async (tx, emit) => {
        const views: Quote[] = [];
        // All or nothing: one foreign or unknown id refuses the whole request.
        for (const id of new Set(ids)) {
          const q = await ownQuote(tx, p, id);
          views.push(quoteView(await endQuote(tx, q, status, audit, emit), p));
        }
        return views;
      });
    },

    async updateQuote(p: Principal, id: string, input: QuoteUpdate, audit: AuditContext): Promise<Quote> {
      assertTradingOpen();
      if (input.price_overridden && !canOverridePrice(p)) throw new AppError('FORBIDDEN', MARKET_MESSAGES.priceOverrideNotAllowed);
      const current = await repo.findQuote(id);
      if (!current || current.clientId !== p.clientId) throw notFound();
      if (input.quantum !== undefined) {
        const bond = await repo.bond(current.finstrumentId);
        if (bond) assertSize(input.quantum, bond);
      }
      const fixedField =
        input.fixed_field ?? (isSet(input.unit_price_stored) ? 'price' : isSet(input.yield_stored) ? 'yield' : current.fixedField);
      let price = current.price;
      let yieldFraction = current.yieldFraction;
      const overridden = input.price_overridden ?? false;
      if (overridden) {
        price = input.unit_price_stored ?? current.price;
        yieldFraction = input.yield_stored ?? current.yieldFraction;
      } else if (isSet(input.unit_price_stored) || isSet(input.yield_stored) || input.fixed_field) {
        const priced = await priceQuote(
          current.finstrumentId,
          fixedField === 'price'
            ? { price: input.unit_price_stored ?? current.price, settlement: current.settlementDate }
            : { yield: input.yield_stored ?? current.yieldFraction, settlement: current.settlementDate },
        );
        price = priced.price;
        yieldFraction = priced.yield;
      }
      const now = deps.now();
      const expiresAt = input.expiry_date_stored
        ? new Date(input.expiry_date_stored)
        : input.validity
          ? new Date(now.getTime() + input.validity * 60_000)
          : current.expiresAt;
      if (expiresAt <= now) throw fieldError('expiry_date_stored', 'Expiry should be in the future.');
      return change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        // Cancel/replace loops: every change of a quote counts against the user's daily updates.
        await deps.quotas.charge(tx, [{ action: 'quote.update', scope: 'user', subjectId: p.userId }]);
        await r.lockBook(current.finstrumentId);
        const q = await ownQuote(tx, p, id);
        if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
        // A changed quote gives up its proposed clusters and is matched afresh.
        await releaseClusters(tx, q.id, emit);
        const fresh = (await r.findQuote(q.id))!;
        const quantum = input.quantum ?? fresh.quantum;
        const filled = fresh.quantum - fresh.remainingQuantum;
        if (quantum < filled) throw fieldError('quantum', `Cannot be below the ${formatFaceValue(filled)} already dealt.`);
        const updated = await r.updateQuote(q.id, {
          quantum,
          remainingQuantum: quantum - filled,
          price,
          yieldFraction,
          fixedField,
          priceOverridden: overridden,
          expiresAt,
          ...(input.validity ? { validityMinutes: input.validity } : {}),
          ...(input.is_best !== undefined ? { isBest: input.is_best } : {}),
          ...(input.whatsapp_consent !== undefined ? { whatsappConsent: input.whatsapp_consent } : {}),
        });
        await writeAudit(tx, audit, {
          action: 'quote.updated',
          entity: 'quote',
          entityId: q.id,
          before: { quantum: q.quantum, price: q.price, yield: q.yieldFraction, expires_at: q.expiresAt },
          after: { quantum, price, yield: yieldFraction, expires_at: expiresAt },
        });
        await match(tx, updated, audit, emit);
        const view = await viewOf(tx, q.id);
        await announce(tx, emit, view, 'updated');
        return quoteView(view, p);
      });
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

    /* ---------- depth, instruments in the market, bulk upload ---------- */

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

    /**
     * `POST api/eoi/upload/`: every row is checked like a single create (schema, bond, pricing) before
     * anything is stored; one bad row → UploadRowsError with every row error and nothing imported.
     * The quotes are then stored, matched and announced in one transaction (public runs, source UPLOAD).
     */
    async uploadQuotes(p: Principal, file: Buffer, audit: AuditContext): Promise<QuoteUploadResult> {
      assertTradingOpen();
      const rows = await readUploadTable(file);
      const isins = rows
        .map((r) =>
          String(r.cells.isin ?? '')
            .trim()
            .toUpperCase(),
        )
        .filter(Boolean);
      const bonds = await repo.bondsByIsin(isins);
      const errors: UploadRowError[] = [];
      const ready: Array<{ input: QuoteCreate; priced: Awaited<ReturnType<typeof priceQuote>>; expiresAt: Date }> = [];
      const now = deps.now();
      for (const row of rows) {
        const bond = bonds.get(
          String(row.cells.isin ?? '')
            .trim()
            .toUpperCase(),
        );
        const parsed = parseUploadRow(row, bond?.id, bond ? perBondOf(bond) : undefined);
        if (!parsed.ok) {
          errors.push(...parsed.errors);
          continue;
        }
        const input = parsed.input;
        const fixed = input.fixed_field === 'price' ? 'price' : 'yield';
        try {
          const priced = await priceQuote(
            input.finstrument_id,
            fixed === 'price'
              ? { price: input.unit_price_stored, settlement: input.settlement, settlementDelta: input.settlement_delta }
              : { yield: input.yield_stored, settlement: input.settlement, settlementDelta: input.settlement_delta },
          );
          ready.push({ input, priced, expiresAt: new Date(now.getTime() + input.validity * 60_000) });
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          const fields = Object.entries(error.fieldErrors ?? {});
          if (fields.length === 0) errors.push({ row: row.row, field: fixed, message: error.message });
          for (const [field, messages] of fields)
            for (const message of messages) {
              const column = columnOfField(field);
              errors.push({ row: row.row, field: column === 'row' ? fixed : column, message });
            }
        }
      }
      if (errors.length > 0) throw new UploadRowsError(errors);

      const quotes = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        // The whole file counts against the daily quote quotas at once: it fits, or nothing is imported.
        await deps.quotas.charge(tx, [
          { action: 'quote.create', scope: 'user', subjectId: p.userId, amount: ready.length },
          { action: 'quote.create', scope: 'client', subjectId: p.clientId, amount: ready.length },
        ]);
        // Books locked in one order, so two uploads on overlapping bonds never deadlock.
        for (const id of [...new Set(ready.map((q) => q.input.finstrument_id))].sort((a, b) => a - b)) await r.lockBook(id);
        const views: Quote[] = [];
        for (const { input, priced, expiresAt } of ready) {
          const inserted = await r.insertQuote({
            clientId: p.clientId,
            userId: p.userId,
            userAccountId: p.userAccountId,
            finstrumentId: input.finstrument_id,
            quoteType: input.quote_type,
            quantum: input.quantum,
            remainingQuantum: input.quantum,
            price: priced.price,
            yieldFraction: priced.yield,
            fixedField: input.fixed_field,
            yieldType: input.yield_type,
            priceOverridden: false,
            settlementDate: priced.settlementDate,
            settlementDelta: priced.settlementDelta,
            validityMinutes: input.validity,
            expiresAt,
            mandateExpiresAt: null,
            source: 'UPLOAD',
            state: input.state,
            isBest: false,
            sendToRfq: false,
            whatsappConsent: false,
            replaces: null,
            respondTo: null,
            recipients: null,
            brokerId: null,
            clearingCorporation: null,
            rfqMode: null,
            exchange: null,
            exchangeRef: null,
            rfqAnonymous: false,
            otoParticipantDetails: null,
            originTrade: null,
            endClientId: input.end_client_id ?? null,
          });
          await writeAudit(tx, audit, {
            action: 'quote.created',
            entity: 'quote',
            entityId: inserted.id,
            after: {
              finstrument_id: input.finstrument_id,
              quote_type: input.quote_type,
              quantum: input.quantum,
              price: priced.price,
              yield: priced.yield,
              settlement_date: priced.settlementDate,
              private: false,
              source: 'UPLOAD',
            },
          });
          await match(tx, inserted, audit, emit);
          const view = await viewOf(tx, inserted.id);
          await announce(tx, emit, view, 'created');
          views.push(quoteView(view, p));
        }
        await writeAudit(tx, audit, { action: 'quote.uploaded', entity: 'quote', entityId: null, after: { count: views.length } });
        return views;
      });
      return {
        created: quotes.length,
        bid_count: quotes.filter((q) => q.quote_type === 'BID').length,
        ask_count: quotes.filter((q) => q.quote_type === 'ASK').length,
        quotes,
      };
    },

    /* ---------- negotiation ---------- */

    async negotiate(p: Principal, input: NegotiationRequest, audit: AuditContext) {
      // Rejecting ends interest, so it stays possible after hours; countering and accepting trade.
      if (input.action !== 'reject') assertTradingOpen();
      const quote = await repo.findQuote(input.quote_id);
      if (!quote || !mayAccess(quote, p) || !(await mayAccessExchange(quote, p))) throw notFound();
      if (input.quantum !== undefined) {
        const bond = await repo.bond(quote.finstrumentId);
        if (bond) assertSize(input.quantum, bond);
      }
      const counter =
        input.action === 'counter'
          ? await priceQuote(quote.finstrumentId, {
              ...(input.unit_price_stored !== undefined ? { price: input.unit_price_stored } : { yield: input.yield_stored ?? null }),
              settlement: quote.settlementDate,
            })
          : null;
      // A counter on an exchange RFQ goes to the venue first (a refusal stores nothing); what the
      // transaction would refuse is checked before, and a store that still fails withdraws the counter.
      let venueRef: { exchange: ExchangeName; ref: string } | null = null;
      if (counter && quote.exchange) {
        if (quote.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
        if (input.negotiation_id) {
          const current = await repo.findNegotiation(input.negotiation_id);
          if (
            !current ||
            current.quoteId !== quote.id ||
            (current.quoterClientId !== p.clientId && current.responderClientId !== p.clientId)
          )
            throw new AppError('NOT_FOUND', 'Negotiation not found.');
          if (current.status !== 'open') throw new AppError('CONFLICT', 'This negotiation has ended.');
        } else if (quote.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
        const venue = quote.exchange as ExchangeName;
        const answered = await atExchange((g) =>
          g.respond({
            exchange: venue,
            rfqRef: quote.exchangeRef ?? '',
            price: counter.price,
            yieldFraction: counter.yield,
            quantum: input.quantum ?? quote.remainingQuantum,
          }),
        );
        venueRef = { exchange: venue, ref: answered.ref };
      }
      // An acceptance is priced up front; the transaction then checks nothing changed meanwhile.
      let acceptance: { length: number; quantum: number; consideration: Awaited<ReturnType<typeof priceQuote>>['consideration'] } | null =
        null;
      if (input.action === 'accept' && input.negotiation_id) {
        const current = await repo.findNegotiation(input.negotiation_id);
        const last = current?.history.at(-1);
        if (
          current &&
          last &&
          current.quoteId === quote.id &&
          (current.quoterClientId === p.clientId || current.responderClientId === p.clientId)
        ) {
          if (quote.exchange) await assertRfqTermsStand(database.db, last, deps.now());
          const quantum = Math.min(last.quantum, quote.remainingQuantum);
          const priced =
            quantum > 0
              ? await priceQuote(quote.finstrumentId, {
                  price: last.unit_price_stored,
                  settlement: quote.settlementDate,
                  quantum,
                })
              : null;
          acceptance = { length: current.history.length, quantum, consideration: priced?.consideration ?? null };
        }
      }
      const result = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        await r.lockBook(quote.finstrumentId);
        const q = (await r.findQuote(quote.id, true))!;
        let negotiation: NegotiationRow | undefined;
        if (input.negotiation_id) {
          negotiation = await r.findNegotiation(input.negotiation_id);
          if (
            !negotiation ||
            negotiation.quoteId !== q.id ||
            (negotiation.quoterClientId !== p.clientId && negotiation.responderClientId !== p.clientId)
          )
            throw new AppError('NOT_FOUND', 'Negotiation not found.');
        } else {
          if (q.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
          negotiation = await r.openNegotiation(q.id, p.clientId);
        }
        if (negotiation && negotiation.status !== 'open') throw new AppError('CONFLICT', 'This negotiation has ended.');
        const by: 'quoter' | 'responder' = q.clientId === p.clientId ? 'quoter' : 'responder';
        const history = [...(negotiation?.history ?? [])];
        const last = history.at(-1);
        let deal: DealRow | null = null;
        let status = 'open';
        if (input.action === 'counter') {
          if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
          const quantum = input.quantum ?? last?.quantum ?? q.remainingQuantum;
          history.push({
            action: 'counter',
            by_client: by,
            by_user_id: p.userId,
            at: deps.now().toISOString(),
            unit_price_stored: counter!.price,
            yield_stored: counter!.yield,
            quantum,
          });
        } else {
          if (!negotiation || !last) throw new AppError('BAD_REQUEST', 'There is no counter to answer.');
          if (last.by_client === by) throw new AppError('BAD_REQUEST', 'Wait for the other side to answer your counter.');
          history.push({
            action: input.action,
            by_client: by,
            by_user_id: p.userId,
            at: deps.now().toISOString(),
            unit_price_stored: last.unit_price_stored,
            yield_stored: last.yield_stored,
            quantum: last.quantum,
          });
          status = input.action === 'accept' ? 'accepted' : 'rejected';
          if (input.action === 'accept') {
            if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
            const quantum = Math.min(last.quantum, q.remainingQuantum);
            if (quantum <= 0) throw new AppError('CONFLICT', 'The quote has no quantum left to deal.');
            if (!acceptance || acceptance.length !== history.length - 1 || acceptance.quantum !== quantum)
              throw new AppError('CONFLICT', 'The negotiation changed meanwhile; please try again.');
            const quoterBuys = q.quoteType === 'BID';
            const responderUser = history.find((h) => h.by_client === 'responder')?.by_user_id ?? null;
            deal = await makeDeal(
              tx,
              {
                bid: q,
                ask: null,
                finstrumentId: q.finstrumentId,
                buyerClientId: quoterBuys ? q.clientId : negotiation.responderClientId,
                sellerClientId: quoterBuys ? negotiation.responderClientId : q.clientId,
                buyerUserId: quoterBuys ? q.userId : responderUser,
                sellerUserId: quoterBuys ? responderUser : q.userId,
                price: last.unit_price_stored,
                yieldFraction: last.yield_stored,
                quantum,
                settlementDate: q.settlementDate,
                negotiationId: negotiation.id,
                consideration: acceptance.consideration,
              },
              audit,
              emit,
            );
            const after = await r.addRemaining(q.id, -quantum);
            if (q.exchange)
              await fillRfqResponses(tx, q.id, negotiation.responderClientId, async (id) =>
                announce(tx, emit, await viewOf(tx, id), 'filled'),
              );
            if (after.remainingQuantum === 0 && (await r.proposedClustersOf(q.id)).length === 0)
              await r.updateQuote(q.id, { status: 'filled' });
            await announce(tx, emit, await viewOf(tx, q.id), after.remainingQuantum === 0 ? 'filled' : 'updated');
          }
        }
        const saved = negotiation
          ? await r.updateNegotiation(negotiation.id, { history, status })
          : await r.insertNegotiation({ quoteId: q.id, quoterClientId: q.clientId, responderClientId: p.clientId, history, status });
        await writeAudit(tx, audit, {
          action: `negotiation.${input.action}`,
          entity: 'negotiation',
          entityId: saved.id,
          after: history.at(-1),
        });
        // On an anonymous exchange RFQ the counters carry no user of either firm.
        const lastCounter = history.at(-1)!;
        const payload = {
          negotiation_id: saved.id,
          quote_id: q.id,
          status: saved.status,
          last: q.exchange && q.rfqAnonymous ? { ...lastCounter, by_user_id: '' } : lastCounter,
        };
        for (const clientId of new Set([saved.quoterClientId, saved.responderClientId]))
          emit({ topic: MARKET_TOPICS.rfqNegotiation, clientId, payload });
        return { saved, deal };
      }).catch(async (error: unknown) => {
        if (venueRef) await compensateAtExchange(venueRef.exchange, venueRef.ref, error);
        throw error;
      });
      const bond = await repo.bond(quote.finstrumentId);
      return negotiationView(
        result.saved,
        { ...quote, ...(bond ? { securityType: bond.securityType, faceValue: bond.faceValue } : {}) },
        await dealView(result.deal ?? undefined, p),
        p,
      );
    },

    /** `GET api/eoi/negotiations/`: the firm's negotiations (quoter or responder), newest first, with full history. */
    async listNegotiations(p: Principal, query: NegotiationListQuery) {
      const { rows, count } = await repo.listNegotiations(p.clientId, query.status, query.page_size, (query.page - 1) * query.page_size);
      const dealRows = await repo.dealsByNegotiations(rows.filter((r) => r.negotiation.status === 'accepted').map((r) => r.negotiation.id));
      const views = await dealViews(dealRows, p);
      const dealOf = new Map(views.map((d) => [d.negotiation_id, d]));
      return {
        count,
        page: query.page,
        page_size: query.page_size,
        results: rows.map((r) => negotiationView(r.negotiation, r, dealOf.get(r.negotiation.id) ?? null, p)),
      };
    },

    /** `GET api/trade/deals/`: deals where the firm is buyer or seller, newest first, seen from its side. */
    async listDeals(
      p: Principal,
      query: DealListQuery,
    ): Promise<{ count: number; page: number; page_size: number; results: DealListItem[] }> {
      const { rows, count } = await repo.listDeals(p.clientId, query.page_size, (query.page - 1) * query.page_size);
      const views = await dealViews(rows, p);
      return {
        count,
        page: query.page,
        page_size: query.page_size,
        results: views.map((d) => ({ ...d, counterparty_name: d.side === 'buy' ? d.seller_name : d.buyer_name })),
      };
    },

    /* ---------- clusters ---------- */

    async listClusters(p: Principal, query: { status?: string | undefined; page: number; page_size: number }) {
      const { rows, count } = await repo.listClusters(p.clientId, query.status, query.page_size, (query.page - 1) * query.page_size);
      return { count, page: query.page, page_size: query.page_size, results: await Promise.all(rows.map((c) => clusterView(c, p))) };
    },

    async getCluster(p: Principal, id: string): Promise<Cluster> {
      const c = await repo.findCluster(id);
      if (!c || (c.bidClientId !== p.clientId && c.askClientId !== p.clientId)) throw new AppError('NOT_FOUND', 'Cluster not found.');
      return clusterView(c, p);
    },

    async closeCluster(p: Principal, id: string, audit: AuditContext): Promise<Cluster> {
      const row = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        const c = await r.findCluster(id, true);
        if (!c || (c.bidClientId !== p.clientId && c.askClientId !== p.clientId)) throw new AppError('NOT_FOUND', 'Cluster not found.');
        if (c.status !== 'proposed') throw new AppError('CONFLICT', 'Only a proposed cluster can be closed.');
        const closed = await r.updateCluster(c.id, { status: 'closed' });
        await r.addRemaining(c.bidQuoteId, c.quantum);
        await r.addRemaining(c.askQuoteId, c.quantum);
        await writeAudit(tx, audit, {
          action: 'cluster.closed',
          entity: 'cluster',
          entityId: c.id,
          before: { status: c.status },
          after: { status: 'closed' },
        });
        emitCluster(emit, closed);
        return closed;
      });
      return clusterView(row, p);
    },

    async acceptCluster(p: Principal, id: string, legId: string | undefined, audit: AuditContext): Promise<Cluster> {
      assertTradingOpen();
      const before = await repo.findCluster(id);
      if (!before || (before.bidClientId !== p.clientId && before.askClientId !== p.clientId))
        throw new AppError('NOT_FOUND', 'Cluster not found.');
      // A cluster's price, quantum and settlement never change: its consideration is priced up front.
      const priced =
        before.status === 'proposed'
          ? await priceQuote(before.finstrumentId, { price: before.price, settlement: before.settlementDate, quantum: before.quantum })
          : null;
      const row = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        const c = await r.findCluster(id, true);
        if (!c || (c.bidClientId !== p.clientId && c.askClientId !== p.clientId)) throw new AppError('NOT_FOUND', 'Cluster not found.');
        if (c.status !== 'proposed') throw new AppError('CONFLICT', 'This cluster is no longer open.');
        const side = legId
          ? legId === c.bidQuoteId && c.bidClientId === p.clientId
            ? 'BID'
            : legId === c.askQuoteId && c.askClientId === p.clientId
              ? 'ASK'
              : null
          : c.bidClientId === p.clientId
            ? 'BID'
            : 'ASK';
        if (!side) throw fieldError('lsId', 'lsId should be your quote id in the cluster.');
        const now = deps.now();
        let updated = await r.updateCluster(
          c.id,
          side === 'BID' ? { bidAcceptedAt: c.bidAcceptedAt ?? now } : { askAcceptedAt: c.askAcceptedAt ?? now },
        );
        await writeAudit(tx, audit, { action: 'cluster.leg_accepted', entity: 'cluster', entityId: c.id, after: { side } });
        if (updated.bidAcceptedAt && updated.askAcceptedAt) {
          const [bid, ask] = await Promise.all([r.findQuote(c.bidQuoteId, true), r.findQuote(c.askQuoteId, true)]);
          updated = await r.updateCluster(c.id, { status: 'accepted' });
          await makeDeal(
            tx,
            {
              bid: bid!,
              ask: ask!,
              finstrumentId: c.finstrumentId,
              buyerClientId: c.bidClientId,
              sellerClientId: c.askClientId,
              buyerUserId: bid!.userId,
              sellerUserId: ask!.userId,
              price: c.price,
              yieldFraction: c.yieldFraction,
              quantum: c.quantum,
              settlementDate: c.settlementDate,
              clusterId: c.id,
              consideration: priced?.consideration ?? null,
            },
            audit,
            emit,
          );
          for (const q of [bid!, ask!]) {
            if (q.remainingQuantum === 0 && q.status === 'open' && (await r.proposedClustersOf(q.id)).length === 0) {
              await r.updateQuote(q.id, { status: 'filled' });
              await announce(tx, emit, await viewOf(tx, q.id), 'filled');
            }
          }
        }
        emitCluster(emit, updated);
        return updated;
      });
      return clusterView(row, p);
    },

    async priceCluster(p: Principal, id: string, price: number | undefined) {
      const c = await repo.findCluster(id);
      if (!c || (c.bidClientId !== p.clientId && c.askClientId !== p.clientId)) throw new AppError('NOT_FOUND', 'Cluster not found.');
      const priced = await priceQuote(c.finstrumentId, { price: price ?? c.price, settlement: c.settlementDate, quantum: c.quantum });
      return {
        cluster_id: c.id,
        price: priced.price,
        yield: priced.yield,
        quantum: c.quantum,
        settlement_date: priced.settlementDate,
        consideration: priced.consideration?.consideration ?? 0,
        consideration_details: priced.consideration as Record<string, unknown> | null,
      };
    },
  };
}
export type MarketService = ReturnType<typeof createMarketService>;
