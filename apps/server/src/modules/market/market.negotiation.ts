/**
 * Negotiation on a quote: counter, accept (a deal, in the same transaction) or reject, and the firm's
 * negotiations. A counter on an exchange RFQ goes to the venue first (market.rfq.ts holds the RFQ rules).
 */
import {
  MARKET_MESSAGES,
  MARKET_TOPICS,
  type Deal,
  type Negotiation,
  type NegotiationListQuery,
  type NegotiationRequest,
} from '@dart/contracts';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Principal } from '../auth/principal';
import type { ExchangeName } from '../exchange/exchange.gateway';
import { notFound, type MarketContext, type PricedQuote } from './market.context';
import type { MarketDeals } from './market.deals';
import { createMarketRepository, type DealRow, type NegotiationRow, type QuoteRow } from './market.repository';
import { assertRfqTermsStand, fillRfqResponses } from './market.rfq';
import { assertSize, perBondOf, type BondSizeTerms } from './market.sizes';

/** A negotiation as one party sees it: on an anonymous exchange RFQ the other firm's users stay hidden. */
function negotiationView(
  n: NegotiationRow,
  quote: Pick<QuoteRow, 'finstrumentId' | 'exchange' | 'rfqAnonymous'> & Partial<BondSizeTerms>,
  deal: Deal | null,
  reader: Principal,
): Negotiation {
  const role = n.quoterClientId === reader.clientId ? ('quoter' as const) : ('responder' as const);
  return {
    id: n.id,
    quote_id: n.quoteId,
    finstrument_id: quote.finstrumentId,
    status: n.status as Negotiation['status'],
    role,
    history: (n.history as Negotiation['history']).map((h) =>
      quote.exchange && quote.rfqAnonymous && h.by_client !== role ? { ...h, by_user_id: '' } : h,
    ),
    ...(quote.securityType === undefined
      ? {}
      : { face_value_per_bond: perBondOf({ securityType: quote.securityType, faceValue: quote.faceValue ?? null }) }),
    deal,
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}

export function createMarketNegotiation(ctx: MarketContext, deals: MarketDeals) {
  const { deps, database, repo, atExchange, compensateAtExchange, mayAccess, mayAccessExchange, assertTradingOpen } = ctx;
  const { change, announce, viewOf, priceQuote } = ctx;
  const { makeDeal, dealView, dealViews } = deals;

  return {
    async negotiate(p: Principal, input: NegotiationRequest, audit: AuditContext) {
      // Rejecting ends interest, so it stays possible after hours; countering and accepting trade.
      if (input.action !== 'reject') assertTradingOpen();
      const quote = await repo.findQuote(input.quote_id);
      if (!quote || !mayAccess(quote, p) || !(await mayAccessExchange(quote, p))) throw notFound();
      if (input.quantum !== undefined) {
        const bond = await repo.bond(quote.finstrumentId);
        if (bond) assertSize(input.quantum, bond);
      }
      const counter =
        input.action === 'counter'
          ? await priceQuote(quote.finstrumentId, {
              ...(input.unit_price_stored !== undefined ? { price: input.unit_price_stored } : { yield: input.yield_stored ?? null }),
              settlement: quote.settlementDate,
            })
          : null;
      // A counter on an exchange RFQ goes to the venue first (a refusal stores nothing); what the
      // transaction would refuse is checked before, and a store that still fails withdraws the counter.
      let venueRef: { exchange: ExchangeName; ref: string } | null = null;
      if (counter && quote.exchange) {
        if (quote.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
        if (input.negotiation_id) {
          const current = await repo.findNegotiation(input.negotiation_id);
          if (
            !current ||
            current.quoteId !== quote.id ||
            (current.quoterClientId !== p.clientId && current.responderClientId !== p.clientId)
          )
            throw new AppError('NOT_FOUND', 'Negotiation not found.');
          if (current.status !== 'open') throw new AppError('CONFLICT', 'This negotiation has ended.');
        } else if (quote.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
        const venue = quote.exchange as ExchangeName;
        const answered = await atExchange((g) =>
          g.respond({
            exchange: venue,
            rfqRef: quote.exchangeRef ?? '',
            price: counter.price,
            yieldFraction: counter.yield,
            quantum: input.quantum ?? quote.remainingQuantum,
          }),
        );
        venueRef = { exchange: venue, ref: answered.ref };
      }
      // An acceptance is priced up front; the transaction then checks nothing changed meanwhile.
      let acceptance: { length: number; quantum: number; consideration: PricedQuote['consideration'] } | null = null;
      if (input.action === 'accept' && input.negotiation_id) {
        const current = await repo.findNegotiation(input.negotiation_id);
        const last = current?.history.at(-1);
        if (
          current &&
          last &&
          current.quoteId === quote.id &&
          (current.quoterClientId === p.clientId || current.responderClientId === p.clientId)
        ) {
          if (quote.exchange) await assertRfqTermsStand(database.db, last, deps.now());
          const quantum = Math.min(last.quantum, quote.remainingQuantum);
          const priced =
            quantum > 0
              ? await priceQuote(quote.finstrumentId, {
                  price: last.unit_price_stored,
                  settlement: quote.settlementDate,
                  quantum,
                })
              : null;
          acceptance = { length: current.history.length, quantum, consideration: priced?.consideration ?? null };
        }
      }
      const result = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        await r.lockBook(quote.finstrumentId);
        const q = (await r.findQuote(quote.id, true))!;
        let negotiation: NegotiationRow | undefined;
        if (input.negotiation_id) {
          negotiation = await r.findNegotiation(input.negotiation_id);
          if (
            !negotiation ||
            negotiation.quoteId !== q.id ||
            (negotiation.quoterClientId !== p.clientId && negotiation.responderClientId !== p.clientId)
          )
            throw new AppError('NOT_FOUND', 'Negotiation not found.');
        } else {
          if (q.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
          negotiation = await r.openNegotiation(q.id, p.clientId);
        }
        if (negotiation && negotiation.status !== 'open') throw new AppError('CONFLICT', 'This negotiation has ended.');
        const by: 'quoter' | 'responder' = q.clientId === p.clientId ? 'quoter' : 'responder';
        const history = [...(negotiation?.history ?? [])];
        const last = history.at(-1);
        let deal: DealRow | null = null;
        let status = 'open';
        if (input.action === 'counter') {
          if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
          const quantum = input.quantum ?? last?.quantum ?? q.remainingQuantum;
          history.push({
            action: 'counter',
            by_client: by,
            by_user_id: p.userId,
            at: deps.now().toISOString(),
            unit_price_stored: counter!.price,
            yield_stored: counter!.yield,
            quantum,
          });
        } else {
          if (!negotiation || !last) throw new AppError('BAD_REQUEST', 'There is no counter to answer.');
          if (last.by_client === by) throw new AppError('BAD_REQUEST', 'Wait for the other side to answer your counter.');
          history.push({
            action: input.action,
            by_client: by,
            by_user_id: p.userId,
            at: deps.now().toISOString(),
            unit_price_stored: last.unit_price_stored,
            yield_stored: last.yield_stored,
            quantum: last.quantum,
          });
          status = input.action === 'accept' ? 'accepted' : 'rejected';
          if (input.action === 'accept') {
            if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
            const quantum = Math.min(last.quantum, q.remainingQuantum);
            if (quantum <= 0) throw new AppError('CONFLICT', 'The quote has no quantum left to deal.');
            if (!acceptance || acceptance.length !== history.length - 1 || acceptance.quantum !== quantum)
              throw new AppError('CONFLICT', 'The negotiation changed meanwhile; please try again.');
            const quoterBuys = q.quoteType === 'BID';
            const responderUser = history.find((h) => h.by_client === 'responder')?.by_user_id ?? null;
            deal = await makeDeal(
              tx,
              {
                bid: q,
                ask: null,
                finstrumentId: q.finstrumentId,
                buyerClientId: quoterBuys ? q.clientId : negotiation.responderClientId,
                sellerClientId: quoterBuys ? negotiation.responderClientId : q.clientId,
                buyerUserId: quoterBuys ? q.userId : responderUser,
                sellerUserId: quoterBuys ? responderUser : q.userId,
                price: last.unit_price_stored,
                yieldFraction: last.yield_stored,
                quantum,
                settlementDate: q.settlementDate,
                negotiationId: negotiation.id,
                consideration: acceptance.consideration,
              },
              audit,
              emit,
            );
            const after = await r.addRemaining(q.id, -quantum);
            if (q.exchange)
              await fillRfqResponses(tx, q.id, negotiation.responderClientId, async (id) =>
                announce(tx, emit, await viewOf(tx, id), 'filled'),
              );
            if (after.remainingQuantum === 0 && (await r.proposedClustersOf(q.id)).length === 0)
              await r.updateQuote(q.id, { status: 'filled' });
            await announce(tx, emit, await viewOf(tx, q.id), after.remainingQuantum === 0 ? 'filled' : 'updated');
          }
        }
        const saved = negotiation
          ? await r.updateNegotiation(negotiation.id, { history, status })
          : await r.insertNegotiation({ quoteId: q.id, quoterClientId: q.clientId, responderClientId: p.clientId, history, status });
        await writeAudit(tx, audit, {
          action: `negotiation.${input.action}`,
          entity: 'negotiation',
          entityId: saved.id,
          after: history.at(-1),
        });
        // On an anonymous exchange RFQ the counters carry no user of either firm.
        const lastCounter = history.at(-1)!;
        const payload = {
          negotiation_id: saved.id,
          quote_id: q.id,
          status: saved.status,
          last: q.exchange && q.rfqAnonymous ? { ...lastCounter, by_user_id: '' } : lastCounter,
        };
        for (const clientId of new Set([saved.quoterClientId, saved.responderClientId]))
          emit({ topic: MARKET_TOPICS.rfqNegotiation, clientId, payload });
        return { saved, deal };
      }).catch(async (error: unknown) => {
        if (venueRef) await compensateAtExchange(venueRef.exchange, venueRef.ref, error);
        throw error;
      });
      const bond = await repo.bond(quote.finstrumentId);
      return negotiationView(
        result.saved,
        { ...quote, ...(bond ? { securityType: bond.securityType, faceValue: bond.faceValue } : {}) },
        await dealView(result.deal ?? undefined, p),
        p,
      );
    },

    /** `GET api/eoi/negotiations/`: the firm's negotiations (quoter or responder), newest first, with full history. */
    async listNegotiations(p: Principal, query: NegotiationListQuery) {
      const { rows, count } = await repo.listNegotiations(p.clientId, query.status, query.page_size, (query.page - 1) * query.page_size);
      const dealRows = await repo.dealsByNegotiations(rows.filter((r) => r.negotiation.status === 'accepted').map((r) => r.negotiation.id));
      const views = await dealViews(dealRows, p);
      const dealOf = new Map(views.map((d) => [d.negotiation_id, d]));
      return {
        count,
        page: query.page,
        page_size: query.page_size,
        results: rows.map((r) => negotiationView(r.negotiation, r, dealOf.get(r.negotiation.id) ?? null, p)),
      };
    },
  };
}
