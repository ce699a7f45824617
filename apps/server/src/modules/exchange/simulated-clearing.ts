/**
 * A SIMULATOR of the clearing corporations (NSCCL for NSE, ICCL for BSE) settling reported OTC trades DVP-I
 * (delivery versus payment, gross, trade by trade): at pay-in the buyer's funds and the seller's securities come
 * in through their custodians, and at pay-out each goes to the other side; if either leg is short the trade
 * fails with the reason (`SETTLEMENT_FAILURE_REASONS`) and nothing moves.
 *
 * A trade (`exchange_sim_settlements`, created by the reporting platform when it matches the two reports, or
 * by the RFQ platform when it takes a deal's report, under that platform's trade number) is settled lazily: the first query on or after `settle_after` runs its pay-in, once, under a row lock, so two
 * nodes asking at once, or a node dying mid-settlement and its successor asking again, settle it once
 * (`payin_runs` counts the runs). A failed trade runs again only when a member retries it; a trade not settled
 * yet can be cancelled. Which pay-ins fail is configurable (`settlementFailureRate`) and, for tests,
 * decided by a hook (`settlementOutcome`).
 */
import { CLEARING_CORPORATION_OF_EXCHANGE, SETTLEMENT_FAILURE_REASONS } from '@dart/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { exchangeSimSettlements } from '../../db/schema';
import type { ExchangeName, RfqTradeClearing, TradeSettlement } from './exchange.gateway';
import { ExchangeUnavailableError } from './exchange.gateway';
import type { SimulatedReportingPlatform } from './simulated-reporting';
import { lockTicketAtVenue, type PayinShortage, type VenueLink } from './simulated-venue-link';

type SettlementRow = typeof exchangeSimSettlements.$inferSelect;

function answerOf(row: SettlementRow): TradeSettlement {
  return {
    tradeId: row.tradeId,
    exchange: row.exchange as ExchangeName,
    clearingCorporation: row.clearingCorporation as TradeSettlement['clearingCorporation'],
    ticketId: row.ticketId,
    settlementDate: row.settlementDate,
    status: row.status as TradeSettlement['status'],
    reason: row.reason,
    buyerCustodian: row.buyerCustodian,
    sellerCustodian: row.sellerCustodian,
    payinRuns: row.payinRuns,
    settledAt: row.settledAt,
  };
}

export class SimulatedClearing {
  constructor(
    private readonly link: VenueLink,
    private readonly reporting: SimulatedReportingPlatform,
  ) {}

  private async locked(tx: Tx, exchange: ExchangeName, tradeId: string): Promise<SettlementRow> {
    const [row] = await tx.select().from(exchangeSimSettlements).where(eq(exchangeSimSettlements.tradeId, tradeId)).for('update');
    if (!row) throw new ExchangeUnavailableError(`${exchange} clearing (simulated) knows no trade ${tradeId}.`);
    return row;
  }

  /** The short leg of this pay-in, or null when both legs are in. */
  private shortage(row: SettlementRow): PayinShortage | null {
    const options = this.link.postTrade();
    const decided = options.settlementOutcome?.({
      tradeId: row.tradeId,
      exchange: row.exchange as ExchangeName,
      ticketId: row.ticketId,
      isin: row.isin,
      quantum: row.quantum,
      settlementDate: row.settlementDate,
      buyer: row.buyer,
      seller: row.seller,
      buyerCustodian: row.buyerCustodian,
      sellerCustodian: row.sellerCustodian,
      payinRun: row.payinRuns + 1,
    });
    if (decided !== undefined) return decided;
    const rate = options.settlementFailureRate ?? 0;
    if (rate > 0 && this.link.random() < rate) return this.link.random() < 0.5 ? 'funds' : 'securities';
    return null;
  }

  /**
   * The trades as the clearing corporation holds them now, in the ids' order (null: unknown): one read of them
   * all, then the pay-in (`current`, under each row's lock) of those due. Most polls find no pay-in due, so a
   * poll of a batch costs one statement, not a transaction per trade.
   */
  async settlementsOf(exchange: ExchangeName, tradeIds: readonly string[]): Promise<Array<TradeSettlement | null>> {
    await this.link.call(exchange, 'the settlement status query');
    const rows =
      tradeIds.length === 0
        ? []
        : await this.link.db
            .select()
            .from(exchangeSimSettlements)
            .where(sql`${exchangeSimSettlements.tradeId} = ANY(${pgArray(tradeIds)}::text[])`);
    const byId = new Map(rows.map((row) => [row.tradeId, row]));
    const now = this.link.now();
    const answers: Array<TradeSettlement | null> = [];
    for (const tradeId of tradeIds) {
      let row = byId.get(tradeId);
      if (row && this.due(row, now)) row = await this.current(tradeId);
      answers.push(row ? answerOf(row) : null);
    }
    return this.link.answer(exchange, 'the settlement status query', answers);
  }

  /**
   * Whether the trade's pay-in is to run now: the first `settleMs` after the report as this node is configured now
   * (or at `settle_after`, if sooner), a retried one at its `settle_after`.
   */
  private due(row: SettlementRow, now: number): boolean {
    const dueAt =
      row.payinRuns === 0
        ? Math.min(row.settleAfter.getTime(), row.reportedAt.getTime() + this.link.settleMs())
        : row.settleAfter.getTime();
    return row.status === 'pending' && dueAt <= now;
  }

  /**
   * The trade as the clearing corporation holds it now, its pay-in run (once, under the row lock) when due
   * (`due`); undefined when it knows no such trade.
   */
  async current(tradeId: string): Promise<SettlementRow | undefined> {
    return this.link.db.transaction(async (tx) => {
      const [current] = await tx.select().from(exchangeSimSettlements).where(eq(exchangeSimSettlements.tradeId, tradeId)).for('update');
      if (!current) return undefined;
      const now = this.link.now();
      if (!this.due(current, now)) return current;
      const short = this.shortage(current);
      const [after] = await tx
        .update(exchangeSimSettlements)
        .set({
          status: short ? 'failed' : 'settled',
          reason: short ? SETTLEMENT_FAILURE_REASONS[short] : null,
          settledAt: short ? null : new Date(now),
          payinRuns: sql`${exchangeSimSettlements.payinRuns} + 1`,
          updatedAt: new Date(now),
        })
        .where(eq(exchangeSimSettlements.tradeId, tradeId))
        .returning();
      return after!;
    });
  }

  /**
   * A deal struck on the RFQ platform, handed to the clearing corporation under the platform's trade number
   * (inside the platform's report transaction). A ticket that already has a trade here keeps it.
   */
  async registerRfqTrade(
    tx: Tx,
    trade: { tradeId: string; exchange: ExchangeName; isin: string; quantum: number; price: number; settlementDate: string },
    clearing: RfqTradeClearing,
    now: Date,
  ): Promise<void> {
    await lockTicketAtVenue(tx, clearing.ticketId);
    await tx
      .insert(exchangeSimSettlements)
      .values({
        ...trade,
        clearingCorporation: CLEARING_CORPORATION_OF_EXCHANGE[trade.exchange],
        ticketId: clearing.ticketId,
        considerationPaise: clearing.considerationPaise,
        stampDutyPaise: clearing.stampDutyPaise,
        buyer: clearing.buyer,
        seller: clearing.seller,
        status: 'pending',
        // CONVENTION-DEVIATION: as for an OTC trade, T+0 / T+1 compressed into EXCHANGE_SIM_SETTLE_MS.
        settleAfter: new Date(now.getTime() + this.link.settleMs()),
        reportedAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
  }

  /** A failed trade goes back to pending, its pay-in running again `EXCHANGE_SIM_SETTLE_MS` from now. */
  async retry(exchange: ExchangeName, tradeId: string): Promise<TradeSettlement> {
    await this.link.call(exchange, 'the settlement retry');
    const row = await this.link.db.transaction(async (tx) => {
      const current = await this.locked(tx, exchange, tradeId);
      if (current.status !== 'failed') return current;
      const now = this.link.now();
      const [after] = await tx
        .update(exchangeSimSettlements)
        .set({ status: 'pending', reason: null, settleAfter: new Date(now + this.link.settleMs()), updatedAt: new Date(now) })
        .where(eq(exchangeSimSettlements.tradeId, tradeId))
        .returning();
      return after!;
    });
    return this.link.answer(exchange, 'the settlement retry', answerOf(row));
  }

  /** Cancels the ticket's trade and reports unless it has settled; a second cancel is a no-op. */
  async cancel(request: { exchange: ExchangeName; ticketId: string; reason: string }): Promise<{ status: 'cancelled' | 'settled' }> {
    await this.link.call(request.exchange, 'the trade cancellation');
    const status = await this.link.db.transaction(async (tx) => {
      await lockTicketAtVenue(tx, request.ticketId);
      const [trade] = await tx
        .select()
        .from(exchangeSimSettlements)
        .where(eq(exchangeSimSettlements.ticketId, request.ticketId))
        .for('update');
      if (trade?.status === 'settled') return 'settled' as const;
      const now = new Date(this.link.now());
      if (trade && trade.status !== 'cancelled')
        await tx
          .update(exchangeSimSettlements)
          .set({ status: 'cancelled', reason: request.reason, updatedAt: now })
          .where(eq(exchangeSimSettlements.tradeId, trade.tradeId));
      await this.reporting.cancelReports(tx, request.ticketId, request.reason, now);
      return 'cancelled' as const;
    });
    return this.link.answer(request.exchange, 'the trade cancellation', { status });
  }

  /** The venue's view of a ticket's trade (tests and support). */
  async tradeOf(ticketId: string): Promise<SettlementRow | undefined> {
    const [row] = await this.link.db.select().from(exchangeSimSettlements).where(eq(exchangeSimSettlements.ticketId, ticketId));
    return row;
  }
}
