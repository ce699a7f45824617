/**
 * Clusters and matching: the engine run for a new or changed quote (fills become proposed clusters), and
 * the cluster calls (list, get, close, accept a leg → a deal when both legs accepted, price).
 */
import type { Cluster } from '@dart/contracts';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import type { DomainEvent } from '../../lib/events';
import type { Principal } from '../auth/principal';
import { opposite, type MarketContext } from './market.context';
import type { MarketDeals } from './market.deals';
import { createMarketRepository, type ClusterRow, type QuoteRow } from './market.repository';
import { perBondOf } from './market.sizes';
import { emitCluster } from './market.views';
import { OrderBook, type BookQuote } from './matching-engine';

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

export function createMarketClusters(ctx: MarketContext, deals: MarketDeals) {
  const { deps, repo, assertTradingOpen, change, announce, viewOf, priceQuote } = ctx;
  const { makeDeal, dealView } = deals;

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

  return {
    match,

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
