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
import { and, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import { sqlRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import { exchangeSimReports, exchangeSimSettlements } from '../../db/schema';
import type { ExchangeName, ReportedTerms, TradeReportAnswer, TradeSideReport } from './exchange.gateway';
import { lockTicketsAtVenue, venueNumberOf, venueNumberSql, type VenueLink } from './simulated-venue-link';

type ReportRow = typeof exchangeSimReports.$inferSelect;
/** A report row read as SQL and decoded by its columns (not a select built by the query builder each batch). */
const REPORT_ROW = rowDecoder<ReportRow>(getTableColumns(exchangeSimReports));

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

/** A side's report in the venue's book: one per ticket and side. */
const sideKey = (report: { ticketId: string; side: string }) => `${report.ticketId}:${report.side}`;

/** The report's terms as the venue's book keeps them. */
function bookTermsOf(report: TradeSideReport) {
  return {
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
}

export class SimulatedReportingPlatform {
  constructor(private readonly link: VenueLink) {}

  async report(report: TradeSideReport): Promise<TradeReportAnswer> {
    return (await this.reportMany(report.exchange, [report]))[0]!;
  }

  /**
   * Several sides' reports to one exchange in one call (a member's batch upload), taken in one transaction: each
   * answered with its side's report as the venue holds it after the whole batch, so both sides of a trade in one
   * batch come back `matched`. The call fails or its answer is lost as a whole.
   */
  async reportMany(exchange: ExchangeName, reports: readonly TradeSideReport[]): Promise<TradeReportAnswer[]> {
    if (reports.length === 0) return [];
    const other = reports.find((report) => report.exchange !== exchange);
    if (other) throw new Error(`A batch to ${exchange} holds a report to ${other.exchange}.`);
    const what = reports.length === 1 ? 'the trade report' : 'the trade reports';
    await this.link.call(exchange, what);
    const answers = await this.link.db.transaction((tx) => this.receive(tx, exchange, reports));
    return this.link.answer(exchange, what, answers);
  }

  private async receive(tx: Tx, exchange: ExchangeName, reports: readonly TradeSideReport[]): Promise<TradeReportAnswer[]> {
    const ticketIds = [...new Set(reports.map((report) => report.ticketId))];
    await lockTicketsAtVenue(tx, ticketIds);
    const now = new Date(this.link.now());
    // Every side of the batch's tickets in one read: the tickets' locks (above) keep them as read until this
    // transaction ends, so the book below is the venue's as this batch changes it.
    const book = new Map<string, ReportRow>();
    const rows = await sqlRows(
      tx,
      sql`SELECT ${REPORT_ROW.select('r')} FROM exchange_sim_reports r WHERE r.ticket_id = ANY (${pgArray(ticketIds)}::text[])`,
    );
    for (const raw of rows) {
      const row = REPORT_ROW.decode(raw);
      book.set(sideKey(row), row);
    }
    // Tickets with a new or revised report: matched (or refused, or cancelled) below.
    const touched = new Set<string>();
    // New reports in one insert, each row taking its venue number itself (`venueNumberSql`).
    const fresh = new Map<string, TradeSideReport>();
    for (const report of reports) if (!book.has(sideKey(report)) && !fresh.has(sideKey(report))) fresh.set(sideKey(report), report);
    if (fresh.size > 0) {
      const inserted = await tx
        .insert(exchangeSimReports)
        .values(
          [...fresh.values()].map((report) => ({
            ref: venueNumberSql(exchange, 'RPT'),
            ticketId: report.ticketId,
            side: report.side,
            ...bookTermsOf(report),
            status: 'pending',
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning();
      for (const row of inserted) {
        book.set(sideKey(row), row);
        touched.add(row.ticketId);
      }
    }
    // The rest are repeats (a retry after a lost answer, a second node) or a modified order's new revision: rare,
    // one statement each. A newer revision of a report not yet matched replaces its terms; anything else only
    // counts the submission.
    const firstOfFresh = new Set(fresh.values());
    for (const report of reports) {
      if (firstOfFresh.has(report)) continue;
      const mine = book.get(sideKey(report))!;
      const revised = report.revision > mine.revision && (mine.status === 'pending' || mine.status === 'refused');
      const [row] = await tx
        .update(exchangeSimReports)
        .set({
          ...(revised ? { ...bookTermsOf(report), status: 'pending', reason: null } : {}),
          submissions: sql`${exchangeSimReports.submissions} + 1`,
          updatedAt: now,
        })
        .where(eq(exchangeSimReports.ref, mine.ref))
        .returning();
      book.set(sideKey(row!), row!);
      if (revised) touched.add(report.ticketId);
    }
    const matches: Array<{ sell: ReportRow; buy: ReportRow }> = [];
    for (const ticketId of touched) {
      const sell = book.get(sideKey({ ticketId, side: 'sell' }));
      const buy = book.get(sideKey({ ticketId, side: 'buy' }));
      if (!sell || !buy) continue;
      // The trade was cancelled (the other side's report says so): this side's report is cancelled too.
      const cancelled = [sell, buy].find((row) => row.status === 'cancelled');
      if (cancelled) {
        const open = [sell, buy].filter((row) => row.status !== 'cancelled').map((row) => row.ref);
        for (const row of await this.setStatus(tx, open, { status: 'cancelled', reason: cancelled.reason }, now))
          book.set(sideKey(row), row);
        continue;
      }
      const differences = reportDifferences(sell, buy);
      if (differences.length > 0) {
        const reason = `The two sides' reports do not match on ${differences.join('; ')}.`;
        for (const row of await this.setStatus(tx, [sell.ref, buy.ref], { status: 'refused', reason }, now)) book.set(sideKey(row), row);
        continue;
      }
      matches.push({ sell, buy });
    }
    if (matches.length > 0)
      for (const [ticketId, tradeId] of await this.match(tx, exchange, matches, now))
        for (const side of ['sell', 'buy']) {
          const key = sideKey({ ticketId, side });
          book.set(key, { ...book.get(key)!, status: 'matched', reason: null, tradeId, updatedAt: now });
        }
    return reports.map((report) => answerOf(book.get(sideKey(report))!));
  }

  /**
   * The matches of a batch in ONE statement: a trade number taken for each ticket, both reports of each matched
   * under it, and each trade handed to the clearing corporation (data-modifying CTEs all run, referenced or not).
   * Returns ticket id → trade number.
   */
  private async match(
    tx: Tx,
    exchange: ExchangeName,
    pairs: ReadonlyArray<{ sell: ReportRow; buy: ReportRow }>,
    now: Date,
  ): Promise<Map<string, string>> {
    const settleAfter = new Date(now.getTime() + this.link.settleMs());
    const settlements = tx
      .insert(exchangeSimSettlements)
      .values(
        pairs.map(({ sell, buy }) => ({
          tradeId: sql`(SELECT trade_id FROM trade_numbers WHERE ticket_id = ${sell.ticketId})`,
          exchange,
          clearingCorporation: CLEARING_CORPORATION_OF_EXCHANGE[exchange],
          ticketId: sell.ticketId,
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
          settleAfter,
          reportedAt: now,
          updatedAt: now,
        })),
      )
      .returning({ ticketId: exchangeSimSettlements.ticketId, tradeId: exchangeSimSettlements.tradeId });
    const refs = pairs.flatMap(({ sell, buy }) => [sell.ref, buy.ref]);
    // MATERIALIZED: each ticket's number is taken once (one `nextval` a row), however often the statement reads it.
    const rows = await sqlRows<{ ticket_id: string; trade_id: string }>(
      tx,
      sql`WITH taken AS MATERIALIZED (
             SELECT t.ticket_id, nextval('exchange_sim_seq')::text AS n FROM unnest(${pgArray(pairs.map(({ sell }) => sell.ticketId))}::text[]) AS t(ticket_id)),
        trade_numbers AS MATERIALIZED (SELECT ticket_id, ${venueNumberOf(exchange, 'TRD', sql`n`)} AS trade_id FROM taken),
        matched AS (
          UPDATE ${exchangeSimReports} r
             SET status = 'matched', reason = NULL, trade_id = n.trade_id,
                 updated_at = ${sql.param(now, exchangeSimReports.updatedAt)}
            FROM trade_numbers n
           WHERE r.ticket_id = n.ticket_id AND r.ref = ANY(${pgArray(refs)}::text[])
        ),
        settlement AS ${settlements}
        SELECT ticket_id, trade_id FROM settlement`,
    );
    return new Map(rows.map((row) => [row.ticket_id, row.trade_id]));
  }

  private async setStatus(
    tx: Tx,
    refs: string[],
    change: { status: ReportRow['status']; reason: string | null },
    now: Date,
  ): Promise<ReportRow[]> {
    if (refs.length === 0) return [];
    return tx
      .update(exchangeSimReports)
      .set({ ...change, updatedAt: now })
      .where(inArray(exchangeSimReports.ref, refs))
      .returning();
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
