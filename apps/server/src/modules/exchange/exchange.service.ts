/**
 * Exchange RFQs after the deal: every deal struck on an exchange RFQ is reported to its venue through
 * the ExchangeGateway (one `exchange_trades` row per deal; a failed report is retried by the job), which
 * hands it to the clearing corporation (NSCCL / ICCL) under its trade number with the deal's ticket as its
 * reference; the settlement status there is polled until settled or cancelled. That one trade number is
 * also the one the ticket's orders take (`../orders/orders.rfq.ts`): the deal is never reported again as
 * an OTC trade. Status changes reach both firms as `market.refresh_tickets` (deal id and status only).
 */
import { CLEARING_CORPORATION_OF_EXCHANGE, MARKET_TOPICS } from '@dart/contracts';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { deals, exchangeTrades, finstruments, quotes, tickets } from '../../db/schema';
import { appendEvents, publishAll } from '../../lib/events';
import type { AppDeps } from '../../types';
import type { MarketService } from '../market';
import type { ExchangeGateway, ExchangeName } from './exchange.gateway';

const MAX_REPORT_ATTEMPTS = 5;
const JOB_INTERVAL_MS = 5_000;
/**
 * A deal's own node records it for reporting right after commit; a deal on an exchange RFQ still without an
 * `exchange_trades` row this long after it was made lost that step with its node, and the job records it.
 */
const UNRECORDED_AFTER_MS = 30_000;
/** How far back the job looks for such deals. */
const UNRECORDED_WITHIN_DAYS = 7;

export function createExchangeService(deps: AppDeps, market: MarketService, gateway: ExchangeGateway) {
  const { database, bus } = deps;
  const db = database.db;
  let timer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<unknown>>();

  async function announce(dealId: string, payload: Record<string, unknown>) {
    const [deal] = await db.select().from(deals).where(eq(deals.id, dealId));
    if (!deal) return;
    const events = [...new Set([deal.buyerClientId, deal.sellerClientId])].map((clientId) => ({
      topic: MARKET_TOPICS.refreshTickets,
      clientId,
      payload: { deal_id: dealId, ...payload },
    }));
    const messages = await db.transaction((tx) => appendEvents(tx, events));
    await publishAll(bus, messages);
  }

  /** Records (once) and reports a deal made on an exchange RFQ; other deals are ignored. */
  async function recordDeal(dealId: string): Promise<void> {
    const [deal] = await db.select().from(deals).where(eq(deals.id, dealId));
    if (!deal) return;
    const ids = [deal.bidQuoteId, deal.askQuoteId].filter((id): id is string => id !== null);
    if (ids.length === 0) return;
    const legs = await db.select().from(quotes).where(inArray(quotes.id, ids));
    const rfq = legs.find((q) => q.exchange !== null);
    if (!rfq) return;
    const exchange = rfq.exchange as ExchangeName;
    await db
      .insert(exchangeTrades)
      .values({ dealId, exchange, clearingCorporation: CLEARING_CORPORATION_OF_EXCHANGE[exchange] })
      .onConflictDoNothing();
    await report(dealId);
  }

  async function report(dealId: string): Promise<void> {
    const [row] = await db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, dealId));
    if (!row || row.reportStatus === 'reported') return;
    const [deal] = await db.select().from(deals).where(eq(deals.id, dealId));
    const [bond] = await db.select({ isin: finstruments.isin }).from(finstruments).where(eq(finstruments.id, deal!.finstrumentId));
    const ids = [deal!.bidQuoteId, deal!.askQuoteId].filter((id): id is string => id !== null);
    const [rfq] = await db
      .select({ ref: quotes.exchangeRef })
      .from(quotes)
      .where(and(inArray(quotes.id, ids), sql`${quotes.exchange} IS NOT NULL`));
    // The deal's ticket (written in the deal's transaction) is the trade's reference at the clearing corporation.
    const [ticket] = await db
      .select({ id: tickets.id, considerationPaise: tickets.considerationPaise, stampDutyPaise: tickets.stampDutyPaise })
      .from(tickets)
      .where(eq(tickets.dealId, dealId));
    try {
      const { tradeId } = await gateway.reportDeal({
        exchange: row.exchange as ExchangeName,
        dealId,
        rfqRef: rfq?.ref ?? null,
        isin: bond?.isin ?? '',
        price: deal!.price,
        yieldFraction: deal!.yieldFraction,
        quantum: deal!.quantum,
        settlementDate: deal!.settlementDate,
        consideration: deal!.consideration,
        clearing: {
          ticketId: ticket?.id ?? dealId,
          buyer: deal!.buyerClientId,
          seller: deal!.sellerClientId,
          considerationPaise: ticket?.considerationPaise ?? Math.round(deal!.consideration * 100),
          stampDutyPaise: ticket?.stampDutyPaise ?? 0,
        },
      });
      await db
        .update(exchangeTrades)
        .set({ reportStatus: 'reported', exchangeTradeId: tradeId, attempts: row.attempts + 1, lastError: null, updatedAt: new Date() })
        .where(eq(exchangeTrades.id, row.id));
      await announce(dealId, { report_status: 'reported', settlement_status: row.settlementStatus, exchange: row.exchange });
    } catch (error) {
      const attempts = row.attempts + 1;
      await db
        .update(exchangeTrades)
        .set({
          reportStatus: attempts >= MAX_REPORT_ATTEMPTS ? 'failed' : 'pending',
          attempts,
          lastError: String((error as Error).message),
          updatedAt: new Date(),
        })
        .where(eq(exchangeTrades.id, row.id));
    }
  }

  /**
   * Deals on exchange RFQs that no node recorded: the node that made the deal died between its commit and
   * `recordDeal` (an in-process listener). Found from the database, so no deal goes unreported.
   */
  async function unrecordedDeals(): Promise<string[]> {
    const rows = await database.query<{ id: string }>(
      `SELECT d.id FROM deals d
        WHERE d.created_at < now() - make_interval(secs => $1::double precision / 1000)
          AND d.created_at > now() - make_interval(days => $2::int)
          AND NOT EXISTS (SELECT 1 FROM exchange_trades t WHERE t.deal_id = d.id)
          AND EXISTS (SELECT 1 FROM quotes q WHERE q.id IN (d.bid_quote_id, d.ask_quote_id) AND q.exchange IS NOT NULL)
        ORDER BY d.created_at LIMIT 100`,
      [UNRECORDED_AFTER_MS, UNRECORDED_WITHIN_DAYS],
    );
    return rows.map((row) => row.id);
  }

  /** One pass of the job: record deals no node recorded, retry pending reports, poll settlement of reported trades. */
  async function tick(): Promise<void> {
    for (const dealId of await unrecordedDeals()) await recordDeal(dealId);
    const pending = await db
      .select({ dealId: exchangeTrades.dealId })
      .from(exchangeTrades)
      .where(and(eq(exchangeTrades.reportStatus, 'pending'), lt(exchangeTrades.attempts, MAX_REPORT_ATTEMPTS)))
      .limit(100);
    for (const row of pending) await report(row.dealId);
    // A failed pay-in is followed too: a member may retry it at the clearing corporation (its orders' settle).
    const unsettled = await db
      .select()
      .from(exchangeTrades)
      .where(and(eq(exchangeTrades.reportStatus, 'reported'), inArray(exchangeTrades.settlementStatus, ['pending', 'failed'])))
      .limit(100);
    for (const row of unsettled) {
      try {
        const status = await gateway.settlementStatus(row.exchange as ExchangeName, row.exchangeTradeId!);
        if (status === row.settlementStatus) continue;
        await db.update(exchangeTrades).set({ settlementStatus: status, updatedAt: new Date() }).where(eq(exchangeTrades.id, row.id));
        await announce(row.dealId, { report_status: row.reportStatus, settlement_status: status, exchange: row.exchange });
      } catch {
        // The venue did not answer: asked again on the next pass.
      }
    }
  }

  const track = (work: Promise<unknown>) => {
    const p = work.catch(() => undefined).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const unsubscribe = market.onDeal((dealId) => track(recordDeal(dealId)));

  return {
    gateway,
    tick,
    /** Waits for the reports started by deals so far (tests). */
    async settle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    async trade(dealId: string) {
      const [row] = await db.select().from(exchangeTrades).where(eq(exchangeTrades.dealId, dealId));
      return row;
    },
    /** Runs the job every 5 s on whichever node `isLeader` says is the elected one. */
    startJobs(isLeader: () => boolean = () => true): void {
      timer = setInterval(() => {
        if (isLeader()) track(tick());
      }, JOB_INTERVAL_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      unsubscribe();
      await Promise.all(inFlight);
    },
  };
}
export type ExchangeService = ReturnType<typeof createExchangeService>;
