/**
 * Deals: recording one (in the transaction of the negotiation accept or the cluster's second leg that makes
 * it), the deal as each party sees it, `GET api/trade/deals/`, and the two ways other modules hear of deals:
 * `onDeal` after commit (the exchange module reports RFQ deals) and `onDealRecorded` inside the deal's own
 * transaction (post-trade writes its ticket atomically with the deal; see README "Hand-over to post-trade").
 */
import { anonymousParticipant, type Deal, type DealListItem, type DealListQuery } from '@dart/contracts';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import type { DomainEvent } from '../../lib/events';
import type { Principal } from '../auth/principal';
import { isSet, type MarketContext, type PricedQuote } from './market.context';
import { createMarketRepository, type DealRow, type QuoteRow } from './market.repository';
import { perBondOf } from './market.sizes';
import { emitDeal } from './market.views';

/**
 * Runs in the transaction that records a deal, right after the deal row and its audit row; it must use
 * only `tx` (PGlite has one connection). A hook that throws rolls the whole deal back.
 */
export type DealRecordedHook = (tx: Tx, deal: DealRow) => Promise<void>;

export function createMarketDeals(ctx: MarketContext) {
  const { repo, dealListeners } = ctx;
  const dealHooks = new Set<DealRecordedHook>();

  /** Records a deal. The consideration is priced before the transaction (PGlite has one connection). */
  async function makeDeal(
    tx: Tx,
    input: {
      bid: QuoteRow;
      ask: QuoteRow | null;
      buyerClientId: string;
      sellerClientId: string;
      buyerUserId: string | null;
      sellerUserId: string | null;
      price: number;
      yieldFraction: number;
      quantum: number;
      settlementDate: string;
      clusterId?: string;
      negotiationId?: string;
      finstrumentId: number;
      consideration: PricedQuote['consideration'];
    },
    audit: AuditContext,
    emit: (event: DomainEvent) => void,
  ) {
    const consideration = input.consideration;
    const deal = await createMarketRepository(tx).insertDeal({
      finstrumentId: input.finstrumentId,
      buyerClientId: input.buyerClientId,
      sellerClientId: input.sellerClientId,
      buyerUserId: input.buyerUserId,
      sellerUserId: input.sellerUserId,
      bidQuoteId: input.bid.quoteType === 'BID' ? input.bid.id : (input.ask?.id ?? null),
      askQuoteId: input.bid.quoteType === 'ASK' ? input.bid.id : (input.ask?.id ?? null),
      clusterId: input.clusterId ?? null,
      negotiationId: input.negotiationId ?? null,
      price: input.price,
      yieldFraction: input.yieldFraction,
      quantum: input.quantum,
      settlementDate: input.settlementDate,
      consideration: consideration?.consideration ?? 0,
      considerationDetails: consideration,
    });
    await writeAudit(tx, audit, {
      action: 'deal.created',
      entity: 'deal',
      entityId: deal.id,
      after: {
        price: deal.price,
        yield: deal.yieldFraction,
        quantum: deal.quantum,
        settlement_date: deal.settlementDate,
        consideration: deal.consideration,
        buyer: deal.buyerClientId,
        seller: deal.sellerClientId,
      },
    });
    // Hand-over to post-trade: in this transaction, so what a hook writes commits or rolls back with the deal.
    for (const hook of dealHooks) await hook(tx, deal);
    emitDeal(emit, deal);
    return deal;
  }

  /** Deals as one party sees them (batched: one query each for bonds, names and legs). */
  async function dealViews(rows: readonly DealRow[], reader: Principal): Promise<Deal[]> {
    if (rows.length === 0) return [];
    const [bonds, names, legs] = await Promise.all([
      repo.bonds(rows.map((d) => d.finstrumentId)),
      repo.clientNames([...new Set(rows.flatMap((d) => [d.buyerClientId, d.sellerClientId]))]),
      repo.quotesByIds([...new Set(rows.flatMap((d) => [d.bidQuoteId, d.askQuoteId].filter(isSet)))]),
    ]);
    const legById = new Map(legs.map((q) => [q.id, q]));
    return rows.map((d) => {
      const bond = bonds.get(d.finstrumentId);
      // A deal on an anonymous exchange RFQ never names (or identifies) the other firm.
      const anonymousRfq = [d.bidQuoteId, d.askQuoteId]
        .map((id) => (id ? legById.get(id) : undefined))
        .find((q) => q?.exchange && q.rfqAnonymous);
      const hidden = (clientId: string) => anonymousRfq !== undefined && clientId !== reader.clientId;
      const who = (clientId: string) => ({
        id: hidden(clientId) ? '' : clientId,
        name: hidden(clientId) ? anonymousParticipant(anonymousRfq!.exchange!) : (names.get(clientId) ?? ''),
      });
      const buyer = who(d.buyerClientId);
      const seller = who(d.sellerClientId);
      return {
        id: d.id,
        finstrument_id: d.finstrumentId,
        isin: bond?.isin ?? '',
        display_name: bond?.displayName ?? '',
        side: d.buyerClientId === reader.clientId ? 'buy' : 'sell',
        buyer_client_id: buyer.id,
        seller_client_id: seller.id,
        buyer_name: buyer.name,
        seller_name: seller.name,
        bid_quote_id: d.bidQuoteId,
        ask_quote_id: d.askQuoteId,
        cluster_id: d.clusterId,
        negotiation_id: d.negotiationId,
        price: d.price,
        yield: d.yieldFraction,
        quantum: d.quantum,
        ...(bond ? { face_value_per_bond: perBondOf(bond) } : {}),
        settlement_date: d.settlementDate,
        consideration: d.consideration,
        consideration_details: (d.considerationDetails ?? null) as Record<string, unknown> | null,
        created_at: d.createdAt.toISOString(),
      };
    });
  }

  async function dealView(d: DealRow | undefined, reader: Principal): Promise<Deal | null> {
    return d ? (await dealViews([d], reader))[0]! : null;
  }

  return {
    makeDeal,
    dealViews,
    dealView,

    /** Subscribes to deals made (after commit); returns the unsubscribe. */
    onDeal(listener: (dealId: string) => void): () => void {
      dealListeners.add(listener);
      return () => dealListeners.delete(listener);
    },

    /**
     * Adds a hook awaited inside every deal's transaction, right after the deal row and its audit row are
     * written (see `DealRecordedHook`); returns the removal.
     */
    onDealRecorded(hook: DealRecordedHook): () => void {
      dealHooks.add(hook);
      return () => dealHooks.delete(hook);
    },

    /** `GET api/trade/deals/`: deals where the firm is buyer or seller, newest first, seen from its side. */
    async listDeals(
      p: Principal,
      query: DealListQuery,
    ): Promise<{ count: number; page: number; page_size: number; results: DealListItem[] }> {
      const { rows, count } = await repo.listDeals(p.clientId, query.page_size, (query.page - 1) * query.page_size);
      const views = await dealViews(rows, p);
      return {
        count,
        page: query.page,
        page_size: query.page_size,
        results: views.map((d) => ({ ...d, counterparty_name: d.side === 'buy' ? d.seller_name : d.buyer_name })),
      };
    },
  };
}
export type MarketDeals = ReturnType<typeof createMarketDeals>;
