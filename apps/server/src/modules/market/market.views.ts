/**
 * The market's pure projections: a quote as one reader sees it, and the live events of a quote, a cluster
 * and a deal. No I/O: the parts of the market service (market.context.ts and the files it feeds) call these
 * with rows they loaded.
 */
import { MARKET_TOPICS, type Quote } from '@dart/contracts';
import type { DomainEvent } from '../../lib/events';
import type { Principal } from '../auth/principal';
import type { ClusterRow, DealRow, QuoteWithBond } from './market.repository';
import { perBondOf } from './market.sizes';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function quoteView(row: QuoteWithBond, reader: Principal | null): Quote {
  const q = row.quote;
  const mine = reader !== null && q.clientId === reader.clientId;
  const privateToReader = reader !== null && q.recipients !== null && q.recipients.includes(reader.clientId);
  // Exchange RFQs: a disclosed RFQ names its firm to every participant who sees it; an anonymous one to nobody.
  const named = mine || (q.exchange ? !q.rfqAnonymous && reader !== null : privateToReader);
  return {
    id: q.id,
    finstrument_id: q.finstrumentId,
    isin: row.isin,
    display_name: row.displayName,
    quote_type: q.quoteType as 'BID' | 'ASK',
    quantum: q.quantum,
    remaining_quantum: q.remainingQuantum,
    ...(row.securityType === undefined
      ? {}
      : { face_value_per_bond: perBondOf({ securityType: row.securityType, faceValue: row.faceValue ?? null }) }),
    unit_price_stored: q.price,
    yield_stored: q.yieldFraction,
    fixed_field: q.fixedField as 'yield' | 'price',
    yield_type: q.yieldType,
    price_overridden: q.priceOverridden,
    settlement_date: q.settlementDate,
    settlement_delta: q.settlementDelta,
    validity: q.validityMinutes,
    expiry_date_stored: q.expiresAt.toISOString(),
    mandate_expires_at: iso(q.mandateExpiresAt),
    source: q.source,
    state: q.state,
    status: q.status as Quote['status'],
    is_best: q.isBest,
    send_to_rfq: q.sendToRfq,
    whatsapp_consent: q.whatsappConsent,
    replaces: q.replaces,
    replaced_by: q.replacedBy,
    respond_to: q.respondTo,
    private: q.recipients !== null,
    counterparties: mine ? (q.recipients ?? []) : null,
    is_mine: mine,
    client_name: named ? row.clientName : null,
    broker_id: mine ? q.brokerId : null,
    clearing_corporation: q.clearingCorporation,
    rfq_mode: q.rfqMode,
    end_client_id: mine ? q.endClientId : null,
    origin_trade: mine ? q.originTrade : null,
    exchange: q.exchange,
    exchange_ref: q.exchangeRef,
    rfq_anonymous: q.rfqAnonymous,
    created_at: q.createdAt.toISOString(),
    updated_at: q.updatedAt.toISOString(),
  };
}

/** Live events of a quote change: public runs to every trading user, private runs to owner + recipients only. */
export function emitQuote(emit: (event: DomainEvent) => void, view: QuoteWithBond, action: string, rfqFirms?: readonly string[]) {
  const { is_mine: _m, client_name: _c, counterparties: _p, ...quote } = quoteView(view, null);
  const payload = { action, quote_id: view.quote.id, finstrument_id: view.quote.finstrumentId, quote };
  const recipients = view.quote.recipients;
  if (view.quote.exchange) {
    // Exchange RFQs travel as inquiries to the firms enabled on the exchange (or the addressed ones), anonymously.
    const to = recipients === null ? (rfqFirms ?? []) : recipients;
    for (const clientId of new Set([view.quote.clientId, ...to]))
      emit({ topic: MARKET_TOPICS.inquiries, clientId, payload: { ...payload, exchange: view.quote.exchange } });
  } else if (recipients === null) emit({ topic: MARKET_TOPICS.publicRun, clientId: null, payload });
  else for (const clientId of new Set([view.quote.clientId, ...recipients])) emit({ topic: MARKET_TOPICS.privateRun, clientId, payload });
  emit({ topic: MARKET_TOPICS.openOrders, clientId: view.quote.clientId, payload: { action, quote_id: view.quote.id } });
}

export function emitCluster(emit: (event: DomainEvent) => void, c: ClusterRow) {
  const payload = {
    cluster_id: c.id,
    status: c.status,
    bid_quote_id: c.bidQuoteId,
    ask_quote_id: c.askQuoteId,
    finstrument_id: c.finstrumentId,
    price: c.price,
    quantum: c.quantum,
  };
  for (const clientId of new Set([c.bidClientId, c.askClientId])) emit({ topic: MARKET_TOPICS.cluster, clientId, payload });
}

export function emitDeal(emit: (event: DomainEvent) => void, d: DealRow) {
  const payload = {
    deal_id: d.id,
    finstrument_id: d.finstrumentId,
    price: d.price,
    yield: d.yieldFraction,
    quantum: d.quantum,
    settlement_date: d.settlementDate,
    consideration: d.consideration,
  };
  for (const clientId of new Set([d.buyerClientId, d.sellerClientId]))
    emit({ topic: MARKET_TOPICS.considerationUpdate, clientId, payload });
}
