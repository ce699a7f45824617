/**
 * SimulatedExchange — a SIMULATOR of the NSE / BSE RFQ venues, not a connection to a real exchange.
 * A real venue is one system that every Dart node talks to, so the simulator keeps its book of RFQs,
 * responses and reported trades in the shared database (tables `exchange_sim_*`, migration 0012): an
 * RFQ raised through one node can be answered or cancelled through another, and a trade reported by one
 * leader settles on schedule when another leader polls it. Venue numbers (`NSE-RFQ-000001`,
 * `BSE-TRD-000002`) come from one database sequence, so no two nodes hand out the same number.
 * Each node's instance answers after a configurable latency, fails a configurable share of calls
 * (`EXCHANGE_SIM_FAILURE_RATE`), and hands each reported deal to the simulated clearing corporation (NSCCL
 * for NSE, ICCL for BSE) under its trade number, where it settles `EXCHANGE_SIM_SETTLE_MS` after the report.
 * The post-trade calls (issue 13: OTC trade reporting and DVP-I settlement) are the simulated trade reporting
 * platform (`simulated-reporting.ts`) and clearing corporation (`simulated-clearing.ts`), reached through this
 * class with the same latency, failures and settlement delay.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { exchangeSimResponses, exchangeSimRfqs, exchangeSimTrades } from '../../db/schema';
import type {
  DealReport,
  ExchangeGateway,
  ExchangeName,
  RfqResponseSubmission,
  RfqSubmission,
  SettlementStatus,
  TradeReportAnswer,
  TradeSettlement,
  TradeSideReport,
} from './exchange.gateway';
import { ExchangeUnavailableError } from './exchange.gateway';
import { SimulatedClearing } from './simulated-clearing';
import { SimulatedReportingPlatform } from './simulated-reporting';
import { lostAnswer, venueNumber, type SimulatedPostTradeOptions, type VenueLink } from './simulated-venue-link';

export interface SimulatedExchangeOptions extends SimulatedPostTradeOptions {
  latencyMs: number;
  /** 0..1: the share of calls that fail with ExchangeUnavailableError. */
  failureRate: number;
  /** A reported trade settles this long after the report (an OTC trade: after the two reports matched). */
  settleMs: number;
  random?: () => number;
  now?: () => number;
}

export interface VenueRfq extends RfqSubmission {
  ref: string;
  /** Open responses and counters (withdrawn ones are gone). */
  responses: Array<RfqResponseSubmission & { ref: string; at: number }>;
}

export interface VenueTrade extends DealReport {
  tradeId: string;
  reportedAt: number;
}

type RfqRow = typeof exchangeSimRfqs.$inferSelect;

export class SimulatedExchange implements ExchangeGateway {
  readonly name = 'SimulatedExchange (NSE RFQ / BSE RFQ simulator)';
  private readonly random: () => number;
  private readonly now: () => number;
  /** The simulated NSE / BSE trade reporting platform (OTC trades of confirmed tickets). */
  readonly reporting: SimulatedReportingPlatform;
  /** The simulated clearing corporations (NSCCL / ICCL): DVP-I settlement of matched trades. */
  readonly clearing: SimulatedClearing;

  /** `db`: the shared database every node of the deployment uses (the venue's book lives there). */
  constructor(
    private options: SimulatedExchangeOptions,
    private readonly db: Db,
  ) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    const link: VenueLink = {
      db,
      now: () => this.now(),
      random: () => this.random(),
      settleMs: () => this.options.settleMs,
      postTrade: () => this.options,
      call: (exchange, what) => this.venue(exchange, what),
      answer: (exchange, what, value) => {
        lostAnswer(link, exchange, what);
        return value;
      },
      number: (executor, exchange, kind) => venueNumber(executor, exchange, kind),
    };
    this.reporting = new SimulatedReportingPlatform(link);
    this.clearing = new SimulatedClearing(link, this.reporting);
  }

  /** Tests turn latency and failures on and off at run time (for this node's connection to the venue). */
  configure(options: Partial<SimulatedExchangeOptions>): void {
    this.options = { ...this.options, ...options };
  }

  private async venue(exchange: ExchangeName, what: string): Promise<void> {
    if (this.options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs * (0.5 + this.random())));
    if (this.options.failureRate > 0 && this.random() < this.options.failureRate)
      throw new ExchangeUnavailableError(`${exchange} (simulated) refused ${what}: injected failure`);
  }

  /** The venue's next number: one sequence for RFQs, responses, reports and trades, shared by every node. */
  private async number(exchange: ExchangeName, kind: 'RFQ' | 'RSP' | 'TRD'): Promise<string> {
    return venueNumber(this.db, exchange, kind);
  }

  reportTrade(report: TradeSideReport): Promise<TradeReportAnswer> {
    return this.reporting.report(report);
  }

  reportTrades(exchange: ExchangeName, reports: readonly TradeSideReport[]): Promise<TradeReportAnswer[]> {
    return this.reporting.reportMany(exchange, reports);
  }

  settlementsOf(exchange: ExchangeName, tradeIds: readonly string[]): Promise<Array<TradeSettlement | null>> {
    return this.clearing.settlementsOf(exchange, tradeIds);
  }

  retrySettlement(exchange: ExchangeName, tradeId: string): Promise<TradeSettlement> {
    return this.clearing.retry(exchange, tradeId);
  }

  cancelTrade(request: { exchange: ExchangeName; ticketId: string; reason: string }): Promise<{ status: 'cancelled' | 'settled' }> {
    return this.clearing.cancel(request);
  }

  async publishRfq(rfq: RfqSubmission): Promise<{ ref: string }> {
    await this.venue(rfq.exchange, 'the RFQ');
    if (rfq.mode === 'ONE_TO_ONE' && !rfq.counterparty) throw new ExchangeUnavailableError('A one-to-one RFQ needs a counterparty.');
    if (rfq.validUntil.getTime() <= this.now()) throw new ExchangeUnavailableError('The RFQ is already past its validity.');
    const ref = await this.number(rfq.exchange, 'RFQ');
    await this.db.insert(exchangeSimRfqs).values({
      ref,
      exchange: rfq.exchange,
      mode: rfq.mode,
      anonymous: rfq.anonymous,
      isin: rfq.isin,
      side: rfq.side,
      quantum: rfq.quantum,
      price: rfq.price,
      yieldFraction: rfq.yieldFraction,
      settlementDate: rfq.settlementDate,
      validUntil: rfq.validUntil,
      counterparty: rfq.counterparty ?? null,
      createdAt: new Date(this.now()),
    });
    return { ref };
  }

  async respond(response: RfqResponseSubmission): Promise<{ ref: string }> {
    await this.venue(response.exchange, 'the response');
    const [rfq] = await this.db.select().from(exchangeSimRfqs).where(eq(exchangeSimRfqs.ref, response.rfqRef));
    // An RFQ the book does not list (raised before the book was kept in the database) is taken as open.
    if (rfq && (rfq.status !== 'open' || rfq.validUntil.getTime() <= this.now()))
      throw new ExchangeUnavailableError('The RFQ is no longer open on the exchange.');
    const ref = await this.number(response.exchange, 'RSP');
    await this.db.insert(exchangeSimResponses).values({
      ref,
      rfqRef: response.rfqRef,
      exchange: response.exchange,
      price: response.price,
      yieldFraction: response.yieldFraction,
      quantum: response.quantum,
      at: new Date(this.now()),
    });
    return { ref };
  }

  async cancel(request: { exchange: ExchangeName; ref: string }): Promise<void> {
    await this.venue(request.exchange, 'the cancellation');
    // Whichever node raised it: the book is shared. Unknown refs are a no-op.
    const cancelled = await this.db
      .update(exchangeSimRfqs)
      .set({ status: 'cancelled' })
      .where(and(eq(exchangeSimRfqs.ref, request.ref), eq(exchangeSimRfqs.status, 'open')))
      .returning({ ref: exchangeSimRfqs.ref });
    if (cancelled.length > 0) return;
    await this.db
      .update(exchangeSimResponses)
      .set({ status: 'withdrawn' })
      .where(and(eq(exchangeSimResponses.ref, request.ref), eq(exchangeSimResponses.status, 'open')));
  }

  async reportDeal(report: DealReport): Promise<{ tradeId: string }> {
    await this.venue(report.exchange, 'the deal report');
    // The venue knows each deal once: a repeated report (another node at the same time, a retry after an
    // answer lost with its node) gets the trade number of the first.
    const reported = async () =>
      (
        await this.db
          .select({ tradeId: exchangeSimTrades.tradeId })
          .from(exchangeSimTrades)
          .where(eq(exchangeSimTrades.dealId, report.dealId))
      )[0];
    const known = await reported();
    if (known) return known;
    // The trade and its handover to the clearing corporation commit together.
    const inserted = await this.db.transaction(async (tx) => {
      const tradeId = await venueNumber(tx, report.exchange, 'TRD');
      const now = new Date(this.now());
      const [trade] = await tx
        .insert(exchangeSimTrades)
        .values({
          tradeId,
          exchange: report.exchange,
          dealId: report.dealId,
          rfqRef: report.rfqRef,
          isin: report.isin,
          price: report.price,
          yieldFraction: report.yieldFraction,
          quantum: report.quantum,
          settlementDate: report.settlementDate,
          consideration: report.consideration,
          reportedAt: now,
        })
        .onConflictDoNothing({ target: exchangeSimTrades.dealId })
        .returning({ tradeId: exchangeSimTrades.tradeId });
      if (trade && report.clearing)
        await this.clearing.registerRfqTrade(
          tx,
          {
            tradeId,
            exchange: report.exchange,
            isin: report.isin,
            quantum: report.quantum,
            price: report.price,
            settlementDate: report.settlementDate,
          },
          report.clearing,
          now,
        );
      return trade;
    });
    return inserted ?? (await reported())!;
  }

  async settlementStatus(exchange: ExchangeName, tradeId: string): Promise<SettlementStatus> {
    await this.venue(exchange, 'the settlement status query');
    // A trade handed to the clearing corporation settles there only: the record its orders follow too.
    const cleared = await this.clearing.current(tradeId);
    if (cleared) return cleared.status as SettlementStatus;
    const trade = await this.trade(tradeId);
    // Only a trade reported before migration 0012 (when the simulator kept its book in memory) can be
    // missing: the clearing corporation settled it long ago. One reported without its clearing details
    // settles on the delay alone.
    if (!trade) return 'settled';
    return this.now() - trade.reportedAt >= this.options.settleMs ? 'settled' : 'pending';
  }

  private async withResponses(rows: RfqRow[]): Promise<VenueRfq[]> {
    const out: VenueRfq[] = [];
    for (const row of rows) {
      const responses = await this.db
        .select()
        .from(exchangeSimResponses)
        .where(and(eq(exchangeSimResponses.rfqRef, row.ref), eq(exchangeSimResponses.status, 'open')))
        .orderBy(asc(exchangeSimResponses.at), asc(exchangeSimResponses.ref));
      out.push({
        ref: row.ref,
        exchange: row.exchange as ExchangeName,
        mode: row.mode as VenueRfq['mode'],
        anonymous: row.anonymous,
        isin: row.isin,
        side: row.side as VenueRfq['side'],
        quantum: row.quantum,
        price: row.price,
        yieldFraction: row.yieldFraction,
        settlementDate: row.settlementDate,
        validUntil: row.validUntil,
        counterparty: row.counterparty ?? undefined,
        responses: responses.map((r) => ({
          ref: r.ref,
          exchange: r.exchange as ExchangeName,
          rfqRef: r.rfqRef,
          price: r.price,
          yieldFraction: r.yieldFraction,
          quantum: r.quantum,
          at: r.at.getTime(),
        })),
      });
    }
    return out;
  }

  /** A live RFQ on the venue with its open responses (tests and the participants' view); cancelled ones are gone. */
  async rfq(ref: string): Promise<VenueRfq | undefined> {
    const rows = await this.db
      .select()
      .from(exchangeSimRfqs)
      .where(and(eq(exchangeSimRfqs.ref, ref), eq(exchangeSimRfqs.status, 'open')));
    return (await this.withResponses(rows))[0];
  }
  /** Every live RFQ on the venue (cancelled ones are gone), oldest first. */
  async liveRfqs(): Promise<VenueRfq[]> {
    const rows = await this.db
      .select()
      .from(exchangeSimRfqs)
      .where(eq(exchangeSimRfqs.status, 'open'))
      .orderBy(asc(exchangeSimRfqs.createdAt), asc(exchangeSimRfqs.ref));
    return this.withResponses(rows);
  }
  /** Refs cancelled or withdrawn by Dart (compensations), from any node. */
  async cancelledRefs(): Promise<string[]> {
    const rfqs = await this.db.select({ ref: exchangeSimRfqs.ref }).from(exchangeSimRfqs).where(eq(exchangeSimRfqs.status, 'cancelled'));
    const responses = await this.db
      .select({ ref: exchangeSimResponses.ref })
      .from(exchangeSimResponses)
      .where(eq(exchangeSimResponses.status, 'withdrawn'));
    return [...rfqs, ...responses].map((r) => r.ref);
  }
  async trade(tradeId: string): Promise<VenueTrade | undefined> {
    const [row] = await this.db.select().from(exchangeSimTrades).where(eq(exchangeSimTrades.tradeId, tradeId));
    if (!row) return undefined;
    return {
      tradeId: row.tradeId,
      exchange: row.exchange as ExchangeName,
      dealId: row.dealId,
      rfqRef: row.rfqRef,
      isin: row.isin,
      price: row.price,
      yieldFraction: row.yieldFraction,
      quantum: row.quantum,
      settlementDate: row.settlementDate,
      consideration: row.consideration,
      reportedAt: row.reportedAt.getTime(),
    };
  }
}
