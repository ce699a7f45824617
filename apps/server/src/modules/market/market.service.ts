/**
 * The market: quotes (EOI) with their lifecycle, public and private runs, negotiation, the matching
 * engine's clusters and the deals they lead to. Every change is one transaction with its audit row
 * and outbox events; events are published after commit. Prices/yields/considerations come from the
 * finstruments service (bond-math); nothing is priced here.
 *
 * This file only composes: one shared context (market.context.ts) and the parts built on it, one file
 * per sub-domain (README "Files"). The object returned is the whole public surface of the service.
 */
import type { AppDeps } from '../../types';
import type { FinstrumentsService } from '../finstruments';
import { createMarketClusters } from './market.clusters';
import { createMarketContext, type MarketOptions } from './market.context';
import { createMarketDeals } from './market.deals';
import { createMarketNegotiation } from './market.negotiation';
import { createMarketQuotes } from './market.quotes';
import { createMarketRuns } from './market.runs';
import { createMarketUpload } from './market.upload';

export { tradingSession, type MarketOptions } from './market.context';
export { type DealRecordedHook } from './market.deals';
export { UploadRowsError } from './market.upload';

const EXPIRY_SWEEP_MS = 5_000;

export function createMarketService(deps: AppDeps, finstruments: FinstrumentsService, settings: MarketOptions = {}) {
  const ctx = createMarketContext(deps, finstruments, settings);
  const deals = createMarketDeals(ctx);
  const clusters = createMarketClusters(ctx, deals);
  const negotiation = createMarketNegotiation(ctx, deals);
  const quotes = createMarketQuotes(ctx, clusters.match);
  const runs = createMarketRuns(ctx);
  const upload = createMarketUpload(ctx, clusters.match);
  let timer: NodeJS.Timeout | null = null;

  return {
    /* ---------- quotes (market.quotes.ts) ---------- */
    createQuote: quotes.createQuote,
    expireDue: quotes.expireDue,
    listMyQuotes: quotes.listMyQuotes,
    getQuote: quotes.getQuote,
    closeQuotes: quotes.closeQuotes,
    updateQuote: quotes.updateQuote,

    /** Starts the expiry sweep (on the elected node). */
    startJobs(): void {
      timer = setInterval(() => void quotes.expireDue().catch(() => undefined), EXPIRY_SWEEP_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      ctx.unsubscribe();
    },

    /* ---------- runs, RFQ lists, depth, instruments, timings, participants (market.runs.ts) ---------- */
    listRuns: runs.listRuns,
    listRfqQuotes: runs.listRfqQuotes,
    listMyRfqs: runs.listMyRfqs,
    timings: runs.timings,
    searchTradeParticipants: runs.searchTradeParticipants,
    depth: runs.depth,
    listInstruments: runs.listInstruments,

    /* ---------- bulk upload (market.upload.ts) ---------- */
    uploadQuotes: upload.uploadQuotes,

    /* ---------- negotiation (market.negotiation.ts) ---------- */
    negotiate: negotiation.negotiate,
    listNegotiations: negotiation.listNegotiations,

    /* ---------- deals (market.deals.ts) ---------- */
    listDeals: deals.listDeals,
    onDeal: deals.onDeal,
    onDealRecorded: deals.onDealRecorded,

    /* ---------- clusters (market.clusters.ts) ---------- */
    listClusters: clusters.listClusters,
    getCluster: clusters.getCluster,
    closeCluster: clusters.closeCluster,
    acceptCluster: clusters.acceptCluster,
    priceCluster: clusters.priceCluster,
  };
}
export type MarketService = ReturnType<typeof createMarketService>;
