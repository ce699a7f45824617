/**
 * A SIMULATOR of the NSE / BSE trade reporting platforms for OTC trades in corporate bonds, not a connection to
 * a real exchange. Each side of a trade reports its terms quoting the same trade reference (Dart's ticket id);
 * the platform matches the two reports on ISIN, face value, price and settlement date (and that each names the
 * other as counterparty) into a trade with the venue's trade number, which it hands to the clearing corporation
 * (NSCCL for NSE, ICCL for BSE: `exchange_sim_settlements`), or refuses both with a reason naming the fields.
 *
 * The book is the shared database (`exchange_sim_reports`, migration 0019), so every node talks to one venue.
 * One report per ticket and side: a repeat of the same report (a retry after a lost answer, a second node, a
 * node killed before it stored the answer) gets the current answer and never a second trade; a higher revision
 * (the member modified its report) replaces the terms and is matched again; a lower one is a stale copy and
 * changes nothing. Work on one ticket is serialised by a transaction-scoped advisory lock.
 */
import { CLEARING_CORPORATION_OF_EXCHANGE } from '@dart/contracts';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { sqlRows, type Tx } from '../../db/client';
import { exchangeSimReports, exchangeSimSettlements } from '../../db/schema';
import type { ExchangeName, ReportedTerms, TradeReportAnswer, TradeSideReport } from './exchange.gateway';
import { lockTicketAtVenue, venueNumberSql, type VenueLink } from './simulated-venue-link';

type ReportRow = typeof exchangeSimReports.$inferSelect;

/** Prices are compared to the 4 decimals they are quoted in. */
const samePrice = (a: number, b: number) => Math.abs(a - b) < 0.00005;

function termsOf(row: ReportRow): ReportedTerms {
  return {
    quantum: row.quantum,
    price: row.price,
    yieldFraction: row.yieldFraction,
    settlementDate: row.settlementDate,
    accruedDays: row.accruedDays,
    principalPaise: row.principalPaise,
    accruedInterestPaise: row.accruedInterestPaise,
    considerationPaise: row.considerationPaise,
    stampDutyPaise: row.stampDutyPaise,
  };
}

export function answerOf(row: ReportRow): TradeReportAnswer {
  switch (row.status) {
    case 'matched':
      return { status: 'matched', ref: row.ref, tradeId: row.tradeId!, terms: termsOf(row) };
    case 'refused':
      return { status: 'refused', ref: row.ref, reason: row.reason ?? 'Refused by the exchange.' };
    case 'cancelled':
      return { status: 'cancelled', ref: row.ref, reason: row.reason };
    default:
      return { status: 'pending', ref: row.ref };
  }
}

/**
 * Where the seller's and the buyer's reports differ, each named as the market names it, with both values:
 * `price (sell 100.5000, buy 100.2500)`. Empty when they match.
 */
export function reportDifferences(sell: ReportRow, buy: ReportRow): string[] {
  const out: string[] = [];
  if (sell.isin !== buy.isin) out.push(`ISIN (sell ${sell.isin}, buy ${buy.isin})`);
  if (sell.quantum !== buy.quantum) out.push(`face value (sell ₹${sell.quantum}, buy ₹${buy.quantum})`);
  if (!samePrice(sell.price, buy.price)) out.push(`price (sell ${sell.price.toFixed(4)}, buy ${buy.price.toFixed(4)})`);
  if (sell.settlementDate !== buy.settlementDate) out.push(`settlement date (sell ${sell.settlementDate}, buy ${buy.settlementDate})`);
  if (sell.counterparty !== buy.member || buy.counterparty !== sell.member) out.push('counterparty');
  return out;
}

export class SimulatedReportingPlatform {
  constructor(private readonly link: VenueLink) {}

  async report(report: TradeSideReport): Promise<TradeReportAnswer> {
    await this.link.call(report.exchange, 'the trade report');
    const answer = await this.link.db.transaction((tx) => this.receive(tx, report));
    return this.link.answer(report.exchange, 'the trade report', answer);
  }

  private async receive(tx: Tx, report: TradeSideReport): Promise<TradeReportAnswer> {
    await lockTicketAtVenue(tx, report.ticketId);
    const now = new Date(this.link.now());
    const terms = {
      exchange: report.exchange,
      member: report.member,
      counterparty: report.counterparty,
      isin: report.isin,
      quantum: report.quantum,
      price: report.price,
      yieldFraction: report.yieldFraction,
      settlementDate: report.settlementDate,
      accruedDays: report.accruedDays,
      principalPaise: report.principalPaise,
      accruedInterestPaise: report.accruedInterestPaise,
      considerationPaise: report.considerationPaise,
      stampDutyPaise: report.stampDutyPaise,
      custodian: report.custodian,
      revision: report.revision,
    };
    // Both sides' reports in one read: the ticket's lock (above) keeps them as read until this transaction ends.
    const both = await tx.select().from(exchangeSimReports).where(eq(exchangeSimReports.ticketId, report.ticketId));
    let mine = both.find((row) => row.side === report.side);
    const other = both.find((row) => row.side !== report.side);
    if (!mine) {
      // The venue's number taken in the insert itself (`venueNumberSql`): one statement, not two.
      [mine] = await tx
        .insert(exchangeSimReports)
        .values({
          ref: venueNumberSql(report.exchange, 'RPT'),
          ticketId: report.ticketId,
          side: report.side,
          ...terms,
          status: 'pending',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
    } else {
      // A newer revision of a report not yet matched replaces its terms; anything else is a repeat.
      const revised = report.revision > mine.revision && (mine.status === 'pending' || mine.status === 'refused');
      [mine] = await tx
        .update(exchangeSimReports)
        .set({
          ...(revised ? { ...terms, status: 'pending', reason: null } : {}),
          submissions: sql`${exchangeSimReports.submissions} + 1`,
          updatedAt: now,
        })
        .where(eq(exchangeSimReports.ref, mine.ref))
        .returning();
      if (!revised) return answerOf(mine!);
    }
    if (!other) return answerOf(mine!);
    if (other.status === 'cancelled')
      return answerOf(await this.setStatus(tx, [mine!.ref], { status: 'cancelled', reason: other.reason }, now));
    const [sell, buy] = report.side === 'sell' ? [mine!, other] : [other, mine!];
    const differences = reportDifferences(sell, buy);
    if (differences.length > 0) {
      const reason = `The two sides' reports do not match on ${differences.join('; ')}.`;
      await this.setStatus(tx, [sell.ref, buy.ref], { status: 'refused', reason }, now);
      return { status: 'refused', ref: mine!.ref, reason };
    }
    const exchange = report.exchange as ExchangeName;
    // The match in ONE statement (three before): the trade number taken once, both reports matched under it,
    // and the trade handed to the clearing corporation (data-modifying CTEs all run, referenced or not).
    const settlement = tx
      .insert(exchangeSimSettlements)
      .values({
        tradeId: sql.raw('(SELECT trade_id FROM trade_number)'),
        exchange,
        clearingCorporation: CLEARING_CORPORATION_OF_EXCHANGE[exchange],
        ticketId: report.ticketId,
        isin: sell.isin,
        quantum: sell.quantum,
        price: sell.price,
        settlementDate: sell.settlementDate,
        considerationPaise: sell.considerationPaise,
        stampDutyPaise: buy.stampDutyPaise,
        buyer: buy.member,
        seller: sell.member,
        buyerCustodian: buy.custodian,
        sellerCustodian: sell.custodian,
        status: 'pending',
        // CONVENTION-DEVIATION: the simulator compresses T+0 / T+1 into EXCHANGE_SIM_SETTLE_MS after the match
        // (a real clearing corporation runs the pay-in on the settlement date's settlement window).
        settleAfter: new Date(now.getTime() + this.link.settleMs()),
        reportedAt: now,
        updatedAt: now,
      })
      .returning({ tradeId: exchangeSimSettlements.tradeId });
    const [matched] = await sqlRows<{ trade_id: string }>(
      tx,
      sql`WITH trade_number AS MATERIALIZED (SELECT ${venueNumberSql(exchange, 'TRD')} AS trade_id),
        matched AS (
          UPDATE ${exchangeSimReports}
             SET status = 'matched', reason = NULL, trade_id = (SELECT trade_id FROM trade_number),
                 updated_at = ${sql.param(now, exchangeSimReports.updatedAt)}
           WHERE ${inArray(exchangeSimReports.ref, [sell.ref, buy.ref])}
        ),
        settlement AS ${settlement}
        SELECT trade_id FROM settlement`,
    );
    const tradeId = matched!.trade_id;
    return { status: 'matched', ref: mine!.ref, tradeId, terms: termsOf(mine!) };
  }

  private async setStatus(
    tx: Tx,
    refs: string[],
    change: { status: ReportRow['status']; reason: string | null; tradeId?: string },
    now: Date,
  ): Promise<ReportRow> {
    const rows = await tx
      .update(exchangeSimReports)
      .set({ ...change, updatedAt: now })
      .where(inArray(exchangeSimReports.ref, refs))
      .returning();
    return rows.find((row) => row.ref === refs[0])!;
  }

  /** Cancels a ticket's reports (inside the clearing corporation's cancellation, same transaction). */
  async cancelReports(tx: Tx, ticketId: string, reason: string, now: Date): Promise<void> {
    await tx
      .update(exchangeSimReports)
      .set({ status: 'cancelled', reason, updatedAt: now })
      .where(and(eq(exchangeSimReports.ticketId, ticketId), ne(exchangeSimReports.status, 'cancelled')));
  }

  /** The venue's view of a ticket's reports (tests and support). */
  async reportsOf(ticketId: string): Promise<ReportRow[]> {
    return this.link.db.select().from(exchangeSimReports).where(eq(exchangeSimReports.ticketId, ticketId)).orderBy(exchangeSimReports.side);
  }
}
