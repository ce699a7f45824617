/**
 * The scanner (README "How an alert is made"): on the elected node, every `intervalMs`, it reads each source table after
 * its keyset watermark (chat messages, quotes, deals, tickets) and the orders past the 15-minute rule, applies the rules,
 * inserts the alerts (unique per firm and dedupe key: a rescan never duplicates) with their audit evidence, and moves
 * the watermarks, all in one transaction per pass. `scanOnce()` runs passes until everything committed is read; tests
 * and the benchmark call it by hand (NODE_ENV=test starts no timer).
 */
import { auditActionLabel } from '@dart/contracts';
import type { Logger } from 'pino';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../types';
import {
  bondNeedles,
  chatBeforeTrade,
  lateReports,
  lexiconHits,
  offMarketDeals,
  offMarketQuotes,
  offMarketTickets,
  quoteLife,
  spoofing,
  washTrades,
  type Lookups,
  type Pending,
} from './surveillance.alerts';
import * as repo from './surveillance.repository';
import {
  CHAT_BEFORE_TRADE_WINDOW_MS,
  findSpoofRuns,
  isPulled,
  LEXICON_ANY,
  LEXICON_SQL_KEYWORDS,
  LEXICON_SQL_PREFILTER,
  REPORTING_DEADLINE_MS,
  SPOOF_WINDOW_MS,
  WASH_WINDOW_MS,
} from './surveillance.rules';
import * as src from './surveillance.sources';

export interface ScanSummary {
  /** Source rows read (chat messages, quotes, deals, tickets, late orders). */
  read: number;
  /** Alerts inserted (a rescan of the same facts inserts none). */
  alerts: number;
  passes: number;
}

export interface SurveillanceScanner {
  /** Passes until every source is read up to now; `settleMs` (default 0) leaves rows younger than that for later. */
  scanOnce(options?: { settleMs?: number }): Promise<ScanSummary>;
  /** Scans every `intervalMs` while `isLeader()`. */
  start(isLeader: () => boolean): void;
  stop(): Promise<void>;
}

export interface ScannerOptions {
  /** Rows read per source per pass (quotes, deals, tickets, late orders). */
  batchSize?: number;
  /** Chat messages per pass (default 4 × batchSize): only the lexicon pre-filter's candidates travel to the app. */
  chatBatchSize?: number;
  intervalMs?: number;
  /**
   * The background scan leaves rows this young for the next pass: a transaction that began earlier may still commit
   * rows timed before the watermark. The embedded database runs one transaction at a time: 0 there.
   */
  settleMs?: number;
  /** Late reporting looks at trades this far back. */
  reportLookbackMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

const AUDIT_ITEMS_MAX = 20;
const SQL_LEXICON = { keywords: LEXICON_SQL_KEYWORDS, prefilter: LEXICON_SQL_PREFILTER };
/** Deals per chat-before-trade statement. */
const MENTION_SEARCH_SLICE = 500;

export function createSurveillanceScanner(deps: AppDeps, options: ScannerOptions = {}): SurveillanceScanner {
  const { database, now } = deps;
  const batchSize = options.batchSize ?? 5_000;
  const chatBatchSize = options.chatBatchSize ?? 4 * batchSize;
  const intervalMs = options.intervalMs ?? 1_000;
  const backgroundSettleMs = options.settleMs ?? (database.driver === 'pglite' ? 0 : 2_000);
  const reportLookbackMs = options.reportLookbackMs ?? 30 * 86_400_000;

  async function lookups(tx: Tx, finstrumentIds: number[], firmIds: string[]): Promise<Lookups> {
    const [bonds, firms] = await Promise.all([src.bonds(tx, finstrumentIds), src.firmNames(tx, firmIds)]);
    return { bonds, firms };
  }

  /**
   * Spoofing runs around the quotes just pulled (closed or replaced untouched within seconds): a run is complete when
   * its last pulled quote ends, so only firm-and-bond pairs with a newly pulled quote are searched, all in one query.
   */
  async function spoofRuns(tx: Tx, quotes: readonly src.QuoteRow[]) {
    const pulledPairs = new Map<string, src.QuoteRow[]>();
    for (const q of quotes)
      if ((q.status === 'closed' || q.status === 'replaced') && isPulled(quoteLife(q))) {
        const key = `${q.client_id}/${q.finstrument_id}`;
        pulledPairs.set(key, [...(pulledPairs.get(key) ?? []), q]);
      }
    const windows = [...pulledPairs.values()].map((group) => {
      const times = group.map((q) => q.created_at.getTime());
      return {
        clientId: group[0]!.client_id,
        finstrumentId: group[0]!.finstrument_id,
        from: new Date(Math.min(...times) - SPOOF_WINDOW_MS),
        to: new Date(Math.max(...times) + SPOOF_WINDOW_MS),
      };
    });
    const found = await src.endedQuotesIn(tx, windows);
    const runs: Array<{ quotes: src.QuoteRow[] }> = [];
    for (const around of found.values()) {
      const byId = new Map(around.map((q) => [q.id, q]));
      for (const run of findSpoofRuns(around.map(quoteLife))) runs.push({ quotes: run.map((r) => byId.get(r.id)!) });
    }
    return runs;
  }

  /** Chat before trade and wash trades of a batch of deals: two set-based look-ups (and the reverse deals' rows). */
  async function dealRules(tx: Tx, deals: readonly src.DealRow[], l: Lookups): Promise<Pending[]> {
    const searches: src.MentionSearch[] = [];
    for (const deal of deals) {
      const bond = l.bonds.get(deal.finstrument_id);
      if (bond)
        searches.push({
          dealId: deal.id,
          firmA: deal.buyer_client_id,
          firmB: deal.seller_client_id,
          from: new Date(deal.created_at.getTime() - CHAT_BEFORE_TRADE_WINDOW_MS),
          to: deal.created_at,
          needles: bondNeedles(bond),
        });
    }
    // The chat search reads each deal's day of its firms' chats: in slices, each statement well inside the query timeout.
    const mentions = new Map<string, src.ChatMentionRow[]>();
    for (let i = 0; i < searches.length; i += MENTION_SEARCH_SLICE)
      for (const [id, rows] of await src.chatMentions(tx, searches.slice(i, i + MENTION_SEARCH_SLICE))) mentions.set(id, rows);
    const reverseIds = await src.reverseDealIds(tx, deals, WASH_WINDOW_MS);
    const reverses = await src.dealsById(tx, [...reverseIds.values()].flat());
    const out: Pending[] = [];
    for (const deal of deals) {
      if (l.bonds.has(deal.finstrument_id)) out.push(...chatBeforeTrade(deal, mentions.get(deal.id) ?? [], l));
      const reversing = (reverseIds.get(deal.id) ?? []).map((id) => reverses.get(id)).filter((d): d is src.DealRow => d !== undefined);
      // The reverse deals are between the same two firms: their names are already looked up.
      if (reversing.length > 0) out.push(...washTrades(deal, reversing, l));
    }
    return out;
  }

  /** Each draft's firm's audit rows about its evidence, as evidence items (at most AUDIT_ITEMS_MAX). */
  async function attachAudit(tx: Tx, pending: readonly Pending[]): Promise<void> {
    const wanted = pending.filter((p) => p.entityIds.length > 0);
    const rows = await src.auditRows(
      tx,
      [...new Set(wanted.map((p) => p.draft.clientId))],
      wanted.flatMap((p) => p.entityIds),
      AUDIT_ITEMS_MAX,
    );
    for (const p of wanted) {
      const ids = new Set(p.entityIds);
      const own = rows.filter((r) => r.actor_client_id === p.draft.clientId && ids.has(r.entity_id)).slice(0, AUDIT_ITEMS_MAX);
      p.draft.evidence.items.push(
        ...own.map((r) => ({
          type: 'audit',
          id: String(r.id),
          at: r.at.toISOString(),
          excerpt: `${auditActionLabel(r.action)} by ${r.actor_email ?? 'the system'} (${r.entity} ${r.entity_id})`,
        })),
      );
    }
  }

  /** One transaction: read a batch of each source, write the alerts, move the watermarks. */
  async function pass(settleMs: number, withLate: boolean): Promise<{ read: number; alerts: number; full: boolean; lateFull: boolean }> {
    return database.db.transaction(async (tx) => {
      const at = now();
      const marks = await src.lockWatermarks(tx);
      const chat = await src.chatAfter(tx, marks.chat, chatBatchSize, settleMs, SQL_LEXICON);
      const quotes = await src.quotesAfter(tx, marks.quotes, batchSize, settleMs);
      const deals = await src.dealsAfter(tx, marks.deals, batchSize, settleMs);
      const tickets = await src.ticketsAfter(tx, marks.tickets, batchSize, settleMs);
      // Late orders are due by time, not by a watermark: read in a scan's first pass, and again only while a pass fills its batch.
      const late = withLate ? await src.lateOrders(tx, at, REPORTING_DEADLINE_MS, reportLookbackMs, batchSize) : [];

      // Only messages the lexicon's union pattern matches need their channel's firms.
      const flagged = chat.candidates.filter(
        (m) => LEXICON_ANY.test(m.message) || (m.file_name !== null && LEXICON_ANY.test(m.file_name.replace(/[_\-.]+/g, ' '))),
      );
      const channelFirms = await src.channelFirms(tx, [...new Set(flagged.map((m) => m.channel_id))]);
      const finstrumentIds = [...quotes, ...deals, ...tickets, ...late].map((r) => r.finstrument_id);
      const firmIds = [
        ...deals.flatMap((d) => [d.buyer_client_id, d.seller_client_id]),
        ...tickets.flatMap((t) => [t.buyer_client_id, t.seller_client_id]),
        ...late.map((o) => o.counterparty_client_id),
        ...[...channelFirms.values()].flat(),
      ];
      const l = await lookups(tx, finstrumentIds, firmIds);

      const pending: Pending[] = [
        ...lexiconHits(flagged, channelFirms, l),
        ...offMarketQuotes(quotes, l),
        ...offMarketDeals(deals, l),
        ...offMarketTickets(tickets, l),
        ...lateReports(late, l, at),
        ...spoofing(await spoofRuns(tx, quotes), l),
      ];
      pending.push(...(await dealRules(tx, deals, l)));
      await attachAudit(tx, pending);
      const alerts = await repo.insertAlerts(
        tx,
        pending.map((p) => p.draft),
        at,
      );

      const moves: Array<[src.Source, { at: Date; id: string } | undefined]> = [
        ['chat', chat.last ?? undefined],
        ['quotes', quotes.at(-1) && { at: quotes.at(-1)!.updated_at, id: quotes.at(-1)!.id }],
        ['deals', deals.at(-1) && { at: deals.at(-1)!.created_at, id: deals.at(-1)!.id }],
        ['tickets', tickets.at(-1) && { at: tickets.at(-1)!.updated_at, id: tickets.at(-1)!.id }],
      ];
      for (const [source, mark] of moves) if (mark) await src.saveWatermark(tx, source, mark);
      const read = chat.read + quotes.length + deals.length + tickets.length + late.length;
      const lateFull = late.length >= batchSize;
      const full = lateFull || chat.read >= chatBatchSize || [quotes, deals, tickets].some((rows) => rows.length >= batchSize);
      return { read, alerts, full, lateFull };
    });
  }

  // Single flight: a scan asked for while one runs waits for it, then runs once more.
  let chain: Promise<ScanSummary> = Promise.resolve({ read: 0, alerts: 0, passes: 0 });
  function scanOnce(scanOptions: { settleMs?: number } = {}): Promise<ScanSummary> {
    const settleMs = scanOptions.settleMs ?? 0;
    chain = chain
      .catch(() => ({ read: 0, alerts: 0, passes: 0 }))
      .then(async () => {
        const total: ScanSummary = { read: 0, alerts: 0, passes: 0 };
        for (let withLate = true; ;) {
          const result = await pass(settleMs, withLate);
          withLate = result.lateFull;
          total.read += result.read;
          total.alerts += result.alerts;
          total.passes += 1;
          if (!result.full) return total;
        }
      });
    return chain;
  }

  let timer: NodeJS.Timeout | null = null;
  let running = false;
  return {
    scanOnce,
    start(isLeader) {
      timer = setInterval(() => {
        if (running || !isLeader()) return;
        running = true;
        scanOnce({ settleMs: backgroundSettleMs })
          .catch((error: unknown) => options.logger?.warn({ err: { message: (error as Error)?.message } }, 'surveillance scan failed'))
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await chain.catch(() => undefined);
    },
  };
}
