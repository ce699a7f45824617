/**
 * SimulatedExchange — a SIMULATOR of the NSE / BSE RFQ venues, not a connection to a real exchange.
 * It keeps its own book of RFQs, responses and reported trades in memory, answers after a configurable
 * latency, fails a configurable share of calls (`EXCHANGE_SIM_FAILURE_RATE`), and settles reported
 * trades at the simulated clearing corporation (NSCCL for NSE, ICCL for BSE) after
 * `EXCHANGE_SIM_SETTLE_MS`. Venue numbers look like `NSE-RFQ-000001`, `BSE-TRD-000001`.
 */
import type { DealReport, ExchangeGateway, ExchangeName, RfqResponseSubmission, RfqSubmission, SettlementStatus } from './exchange.gateway';
import { ExchangeUnavailableError } from './exchange.gateway';

export interface SimulatedExchangeOptions {
  latencyMs: number;
  /** 0..1: the share of calls that fail with ExchangeUnavailableError. */
  failureRate: number;
  /** A reported trade settles this long after the report. */
  settleMs: number;
  random?: () => number;
  now?: () => number;
}

interface VenueRfq extends RfqSubmission {
  ref: string;
  responses: Array<RfqResponseSubmission & { ref: string; at: number }>;
}

export class SimulatedExchange implements ExchangeGateway {
  readonly name = 'SimulatedExchange (NSE RFQ / BSE RFQ simulator)';
  private readonly rfqs = new Map<string, VenueRfq>();
  private readonly trades = new Map<string, DealReport & { tradeId: string; reportedAt: number }>();
  private readonly cancelled = new Set<string>();
  private sequence = 0;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private options: SimulatedExchangeOptions) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** Tests turn latency and failures on and off at run time. */
  configure(options: Partial<SimulatedExchangeOptions>): void {
    this.options = { ...this.options, ...options };
  }

  private async venue(exchange: ExchangeName, what: string): Promise<void> {
    if (this.options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs * (0.5 + this.random())));
    if (this.options.failureRate > 0 && this.random() < this.options.failureRate)
      throw new ExchangeUnavailableError(`${exchange} RFQ (simulated) refused ${what}: injected failure`);
  }

  private number(exchange: ExchangeName, kind: 'RFQ' | 'RSP' | 'TRD') {
    return `${exchange}-${kind}-${String(++this.sequence).padStart(6, '0')}`;
  }

  async publishRfq(rfq: RfqSubmission): Promise<{ ref: string }> {
    await this.venue(rfq.exchange, 'the RFQ');
    if (rfq.mode === 'ONE_TO_ONE' && !rfq.counterparty) throw new ExchangeUnavailableError('A one-to-one RFQ needs a counterparty.');
    if (rfq.validUntil.getTime() <= this.now()) throw new ExchangeUnavailableError('The RFQ is already past its validity.');
    const ref = this.number(rfq.exchange, 'RFQ');
    this.rfqs.set(ref, { ...rfq, ref, responses: [] });
    return { ref };
  }

  async respond(response: RfqResponseSubmission): Promise<{ ref: string }> {
    await this.venue(response.exchange, 'the response');
    const rfq = this.rfqs.get(response.rfqRef);
    // RFQs raised before a restart (the simulator keeps no state) are taken as still open.
    if (rfq && rfq.validUntil.getTime() <= this.now()) throw new ExchangeUnavailableError('The RFQ is no longer open on the exchange.');
    const ref = this.number(response.exchange, 'RSP');
    rfq?.responses.push({ ...response, ref, at: this.now() });
    return { ref };
  }

  async cancel(request: { exchange: ExchangeName; ref: string }): Promise<void> {
    await this.venue(request.exchange, 'the cancellation');
    if (this.rfqs.delete(request.ref)) {
      this.cancelled.add(request.ref);
      return;
    }
    for (const rfq of this.rfqs.values()) {
      const at = rfq.responses.findIndex((r) => r.ref === request.ref);
      if (at >= 0) {
        rfq.responses.splice(at, 1);
        this.cancelled.add(request.ref);
        return;
      }
    }
  }

  async reportDeal(report: DealReport): Promise<{ tradeId: string }> {
    await this.venue(report.exchange, 'the deal report');
    const tradeId = this.number(report.exchange, 'TRD');
    this.trades.set(tradeId, { ...report, tradeId, reportedAt: this.now() });
    return { tradeId };
  }

  async settlementStatus(exchange: ExchangeName, tradeId: string): Promise<SettlementStatus> {
    await this.venue(exchange, 'the settlement status query');
    const trade = this.trades.get(tradeId);
    // Unknown to this (restarted) simulator: the clearing corporation settled it long ago.
    if (!trade) return 'settled';
    return this.now() - trade.reportedAt >= this.options.settleMs ? 'settled' : 'pending';
  }

  /** What the venue holds (tests and the participants' view). */
  rfq(ref: string): Readonly<VenueRfq> | undefined {
    return this.rfqs.get(ref);
  }
  /** Every live RFQ on the venue (cancelled ones are gone). */
  liveRfqs(): ReadonlyArray<Readonly<VenueRfq>> {
    return [...this.rfqs.values()];
  }
  /** Refs cancelled or withdrawn by Dart (compensations). */
  cancelledRefs(): readonly string[] {
    return [...this.cancelled];
  }
  trade(tradeId: string) {
    return this.trades.get(tradeId);
  }
}
