/**
 * Orders of a ticket from an exchange-RFQ deal (`tickets.source = 'exchange_rfq'`). The deal was done on the
 * NSE / BSE RFQ platform, which reports it itself (`../exchange/exchange.service.ts`: one `exchange_trades` row,
 * trade number `NSE-TRD-…`): there is no second, OTC report. The reporter hands such orders here instead of
 * sending them to the trade reporting platform:
 * - **reported** (`exchange_trades.report_status = 'reported'`): both orders → `reported` with the RFQ
 *   platform's trade number and the ticket's terms, the ticket → `reported` (`markReported`);
 * - **pending** (not reported yet, or not even recorded yet): asked again after `PENDING_RECHECK_MS`, the
 *   attempts reset (no back-off: the exchange job retries the platform, not us); its last error is shown;
 * - **failed** (the exchange job gave up after its attempts): the orders stay `reporting` with the reason in
 *   `last_error` and `reason` (one `order.report_failed` audit row), looked at again every `BACKOFF_MAX_MS`;
 *   the ticket's 10-minute alert and 15-minute escalation bring them to ops, who may cancel them.
 * Settlement needs nothing here: the platform handed the trade to the clearing corporation under that same
 * number, so the settlement job polls it like any other trade.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { exchangeTrades, orders, tickets } from '../../db/schema';
import { writeAudit } from '../../lib/audit';
import type { ReportedTerms } from '../exchange';
import type { OrdersContext } from './orders.context';
import { createOrdersRepository, type OrderRow } from './orders.repository';
import { markReported, SYSTEM_AUDIT, ticketOf } from './orders.transitions';

export const RFQ_REPORT = {
  /** Asked again while the RFQ platform's report is pending. */
  PENDING_RECHECK_MS: 10_000,
  /** Looked at again after the RFQ platform's report failed for good (ops may have it reported again). */
  FAILED_RECHECK_MS: 5 * 60_000,
} as const;

export interface RfqTrade {
  exchange: string;
  /** null: the deal is not recorded for reporting yet (its node died; the exchange job records it). */
  reportStatus: 'pending' | 'reported' | 'failed' | null;
  tradeId: string | null;
  attempts: number;
  lastError: string | null;
}

/**
 * The RFQ platform's report of each ticket's deal, or null for a ticket not from an exchange-RFQ deal (or not
 * found): one statement for a reporter's round of orders.
 */
export async function rfqTradesOf(executor: DbOrTx, ticketIds: readonly string[]): Promise<Map<string, RfqTrade | null>> {
  const found = new Map<string, RfqTrade | null>(ticketIds.map((id) => [id, null]));
  if (ticketIds.length === 0) return found;
  const rows = await executor
    .select({
      ticketId: tickets.id,
      source: tickets.source,
      ticketExchange: tickets.exchange,
      exchange: exchangeTrades.exchange,
      reportStatus: exchangeTrades.reportStatus,
      tradeId: exchangeTrades.exchangeTradeId,
      attempts: exchangeTrades.attempts,
      lastError: exchangeTrades.lastError,
    })
    .from(tickets)
    .leftJoin(exchangeTrades, eq(exchangeTrades.dealId, tickets.dealId))
    .where(inArray(tickets.id, [...new Set(ticketIds)]));
  for (const row of rows)
    if (row.source === 'exchange_rfq')
      found.set(row.ticketId, {
        exchange: row.exchange ?? row.ticketExchange,
        reportStatus: row.reportStatus as RfqTrade['reportStatus'],
        tradeId: row.tradeId,
        attempts: row.attempts ?? 0,
        lastError: row.lastError,
      });
  return found;
}

/** The RFQ platform's report of the ticket's deal, or null when the ticket is not from an exchange-RFQ deal. */
export async function rfqTradeOf(executor: DbOrTx, ticketId: string): Promise<RfqTrade | null> {
  return (await rfqTradesOf(executor, [ticketId])).get(ticketId) ?? null;
}

/** Why the orders still wait (null: nothing wrong, the report is just not there yet). */
export function rfqReportProblem(trade: RfqTrade): string | null {
  const platform = `The ${trade.exchange} RFQ platform`;
  if (trade.reportStatus === 'failed')
    return `${platform} did not take the deal's report after ${trade.attempts} attempts${trade.lastError ? ` (${trade.lastError})` : ''}; it is not tried again.`.slice(
      0,
      500,
    );
  if (trade.lastError) return `${platform} has not taken the deal's report yet: ${trade.lastError}`.slice(0, 500);
  return null;
}

export function createRfqReportTaker(ctx: OrdersContext) {
  /** Takes the RFQ platform's report for one claimed order (and its twin); throws only when the store fails. */
  async function take(claimed: OrderRow, trade: RfqTrade, now: Date): Promise<void> {
    await ctx.change(async (tx, emit) => {
      await createOrdersRepository(tx).lockTicketOrders(tx, claimed.ticketId);
      if (trade.reportStatus === 'reported' && trade.tradeId) {
        const t = await ticketOf(tx, claimed.ticketId);
        const terms: ReportedTerms = {
          quantum: t.quantum,
          price: t.price,
          yieldFraction: t.yieldFraction,
          settlementDate: t.settlementDate,
          accruedDays: t.accruedDays,
          principalPaise: t.principalPaise,
          accruedInterestPaise: t.accruedInterestPaise,
          considerationPaise: t.considerationPaise,
          stampDutyPaise: t.stampDutyPaise,
        };
        await markReported(tx, emit, claimed.ticketId, { tradeId: trade.tradeId, terms, refs: {} }, now);
        return;
      }
      const failed = trade.reportStatus === 'failed';
      const problem = rfqReportProblem(trade);
      const [row] = await tx
        .update(orders)
        .set({
          nextReportAt: new Date(now.getTime() + (failed ? RFQ_REPORT.FAILED_RECHECK_MS : RFQ_REPORT.PENDING_RECHECK_MS)),
          reportAttempts: 0,
          lastError: problem,
          ...(failed ? { reason: problem } : {}),
        })
        .where(and(eq(orders.id, claimed.id), eq(orders.version, claimed.version), eq(orders.state, 'reporting')))
        .returning();
      if (row && failed && claimed.lastError !== problem)
        await writeAudit(tx, SYSTEM_AUDIT, {
          action: 'order.report_failed',
          entity: 'order',
          entityId: row.id,
          after: { state: row.state, next_report_at: row.nextReportAt?.toISOString(), error: problem },
        });
    });
  }

  return { take };
}
