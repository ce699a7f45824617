/**
 * Quotes (EOI) and their lifecycle: create (a public quote, a private run, an exchange RFQ or a response to
 * one), update, close, the expiry sweep, one quote, and the firm's own quotes (market.my-quotes.ts). A new or
 * changed quote is matched (market.clusters.ts); exchange RFQs go to the venue first (market.rfq.ts).
 */
import {
  canOverridePrice,
  CLEARING_CORPORATION_OF_EXCHANGE,
  CREDENTIAL_MESSAGES,
  EXCHANGE_MESSAGES,
  EXCHANGE_OF_CLEARING_CORPORATION,
  formatFaceValue,
  MARKET_MESSAGES,
  MARKET_TOPICS,
  type MyQuotesQuery,
  type Quote,
  type QuoteAdd,
  type QuoteUpdate,
} from '@dart/contracts';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import type { DomainEvent } from '../../lib/events';
import type { QuotaCharge } from '../../lib/quotas';
import type { Principal } from '../auth/principal';
import { hasExchangeCredentials } from '../credentials';
import type { ExchangeName } from '../exchange/exchange.gateway';
import { hasTradeAccess, isSet, notFound, opposite, type MarketContext } from './market.context';
import { listMyQuotes } from './market.my-quotes';
import { createMarketRepository, type QuoteRow } from './market.repository';
import { normaliseRfqRaise, recordRfqResponse } from './market.rfq';
import { assertSize } from './market.sizes';
import { quoteView } from './market.views';

const EXPIRY_BATCH = 500;

/** The matching engine's run for a new or changed quote (market.clusters.ts `match`). */
export type MatchQuote = (tx: Tx, incoming: QuoteRow, audit: AuditContext, emit: (event: DomainEvent) => void) => Promise<QuoteRow>;

export function createMarketQuotes(ctx: MarketContext, match: MatchQuote) {
  const { deps, database, repo, atExchange, compensateAtExchange, rfqExchangesOf, mayAccess, mayAccessExchange } = ctx;
  const { assertTradingOpen, bondsMatching, change, announce, viewOf, priceQuote, ownQuote, releaseClusters, endQuote } = ctx;

  /**
   * Creates a quote, a private run, an exchange RFQ (`send_to_rfq`) or a response (`respond_to`).
   * Everything that can refuse the request is checked before the venue hears of an RFQ or response;
   * if the store still fails after the venue accepted, the venue call is undone (compensateAtExchange).
   */
  async function createQuote(p: Principal, raw: QuoteAdd, audit: AuditContext): Promise<Quote> {
    assertTradingOpen();
    // A one-to-one RFQ's `oto_participant_details` names its one counterparty (market.rfq.ts).
    const input = normaliseRfqRaise(raw);
    if (input.user_account_id && input.user_account_id !== p.userAccountId)
      throw new AppError('FORBIDDEN', 'You can only quote for your own account.');
    if (input.price_overridden && !canOverridePrice(p)) throw new AppError('FORBIDDEN', MARKET_MESSAGES.priceOverrideNotAllowed);

    // A response takes the bond, the other side and the settlement of the quote it answers, privately to its owner.
    let target: QuoteRow | undefined;
    if (input.respond_to) {
      target = await repo.findQuote(input.respond_to);
      if (!target || !mayAccess(target, p) || !(await mayAccessExchange(target, p))) throw notFound();
      if (target.clientId === p.clientId) throw new AppError('BAD_REQUEST', MARKET_MESSAGES.ownQuote);
      if (target.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
    }
    const finstrumentId = target?.finstrumentId ?? input.finstrument_id!;
    const quoteType = target ? opposite(target.quoteType) : (input.quote_type ?? 'BID');
    const fixedField = target ? (isSet(input.unit_price_stored) ? 'price' : 'yield') : input.fixed_field;
    const counterparties = target ? [target.clientId] : [...new Set(input.counterparties)];
    if (counterparties.includes(p.clientId)) throw fieldError('counterparties', 'You cannot send a private run to your own firm.');
    const known = await repo.clientsExist(counterparties);
    if (counterparties.some((id) => !known.has(id))) throw fieldError('counterparties', 'Unknown counterparty.');
    const bond = await repo.bond(finstrumentId);
    if (!bond) throw fieldError('finstrument_id', 'Bond not found.');
    assertSize(input.quantum, bond);
    if (input.replaces) {
      // Checked again, locked, in the transaction; checked here so a doomed RFQ never reaches the venue.
      const old = await repo.findQuote(input.replaces);
      if (!old || old.clientId !== p.clientId) throw fieldError('replaces', 'Quote to replace not found.');
      if (old.status !== 'open') throw fieldError('replaces', MARKET_MESSAGES.quoteNotOpen);
    }

    // Exchange RFQs (send_to_rfq) and responses to them go through the ExchangeGateway before they are stored.
    let exchange: ExchangeName | null = null;
    let rfqAnonymous = false;
    let clearingCorporation: string | null = input.clearing_corporation ?? null;
    let rfqMode: string | null = input.rfq_mode ?? null;
    if (target?.exchange) {
      exchange = target.exchange as ExchangeName;
      rfqAnonymous = target.rfqAnonymous;
      clearingCorporation = target.clearingCorporation;
      rfqMode = target.rfqMode;
    } else if (input.send_to_rfq && !target) {
      const enabled = (await rfqExchangesOf(p.clientId)) as ExchangeName[];
      if (enabled.length === 0) throw new AppError('FORBIDDEN', EXCHANGE_MESSAGES.noRfqExchange);
      exchange = input.clearing_corporation ? EXCHANGE_OF_CLEARING_CORPORATION[input.clearing_corporation] : enabled[0]!;
      if (!enabled.includes(exchange)) throw fieldError('clearing_corporation', EXCHANGE_MESSAGES.notEnabled);
      clearingCorporation = CLEARING_CORPORATION_OF_EXCHANGE[exchange];
      // Raising on an exchange needs the firm's login at its clearing corporation (modules/credentials).
      if (!(await hasExchangeCredentials(deps.database.db, p.clientId, CLEARING_CORPORATION_OF_EXCHANGE[exchange]))) {
        const message = CREDENTIAL_MESSAGES.rfqNeedsCredentials(CLEARING_CORPORATION_OF_EXCHANGE[exchange]);
        throw new AppError('FORBIDDEN', message, { clearing_corporation: [message] });
      }
      rfqMode = input.rfq_mode ?? 'ONE_TO_MANY';
      if (rfqMode === 'ONE_TO_ONE' && counterparties.length !== 1) throw fieldError('counterparties', EXCHANGE_MESSAGES.oneToOneNeedsOne);
      const theirs = await repo.clientRfqExchanges(counterparties);
      if (counterparties.some((id) => !(theirs.get(id) ?? []).includes(exchange!)))
        throw fieldError('counterparties', 'Every counterparty must be enabled for RFQs on this exchange.');
      rfqAnonymous = input.rfq_anonymous ?? true;
    }

    let price: number;
    let yieldFraction: number;
    let settlementDate: string;
    let settlementDelta: number | null;
    const settlement = input.settlement ?? (target && !isSet(input.settlement_delta) ? target.settlementDate : null);
    if (input.price_overridden) {
      // Price override: the price is stored as entered, next to the yield the user gave.
      if (!isSet(input.unit_price_stored)) throw fieldError('unit_price_stored', 'This field is required');
      if (!isSet(input.yield_stored)) throw fieldError('yield_stored', 'This field is required');
      const priced = await priceQuote(finstrumentId, { yield: input.yield_stored, settlement, settlementDelta: input.settlement_delta });
      price = input.unit_price_stored;
      yieldFraction = input.yield_stored;
      settlementDate = priced.settlementDate;
      settlementDelta = priced.settlementDelta;
    } else {
      const priced = await priceQuote(
        finstrumentId,
        fixedField === 'price'
          ? { price: input.unit_price_stored, settlement, settlementDelta: input.settlement_delta }
          : { yield: input.yield_stored, settlement, settlementDelta: input.settlement_delta },
      );
      price = priced.price;
      yieldFraction = priced.yield;
      settlementDate = priced.settlementDate;
      settlementDelta = priced.settlementDelta;
    }
    const now = deps.now();
    const expiresAt = input.expiry_date_stored ? new Date(input.expiry_date_stored) : new Date(now.getTime() + input.validity * 60_000);
    if (expiresAt <= now) throw fieldError('expiry_date_stored', 'Expiry should be in the future.');
    // Daily quotas: checked before the venue hears of an RFQ, charged in the transaction that stores the quote.
    const quotaCharges: QuotaCharge[] = [
      { action: 'quote.create', scope: 'user', subjectId: p.userId },
      { action: 'quote.create', scope: 'client', subjectId: p.clientId },
      ...(exchange && !target
        ? ([
            { action: 'rfq.raise', scope: 'user', subjectId: p.userId },
            { action: 'rfq.raise', scope: 'client', subjectId: p.clientId },
          ] as const)
        : []),
    ];
    await deps.quotas.check(database.db, quotaCharges);
    let exchangeRef: string | null = null;
    const venueExchange = exchange;
    if (exchange) {
      const venue = exchange;
      const submitted = target?.exchange
        ? await atExchange((g) =>
            g.respond({ exchange: venue, rfqRef: target.exchangeRef ?? '', price, yieldFraction, quantum: input.quantum }),
          )
        : await atExchange((g) =>
            g.publishRfq({
              exchange: venue,
              mode: rfqMode as 'ONE_TO_ONE' | 'ONE_TO_MANY',
              anonymous: rfqAnonymous,
              isin: bond.isin,
              side: quoteType as 'BID' | 'ASK',
              quantum: input.quantum,
              price,
              yieldFraction,
              settlementDate,
              validUntil: expiresAt,
              counterparty: counterparties[0],
            }),
          );
      exchangeRef = submitted.ref;
    }

    try {
      return await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        await deps.quotas.charge(tx, quotaCharges);
        await r.lockBook(finstrumentId);
        const inserted = await r.insertQuote({
          clientId: p.clientId,
          userId: p.userId,
          userAccountId: p.userAccountId,
          finstrumentId,
          quoteType,
          quantum: input.quantum,
          remainingQuantum: input.quantum,
          price,
          yieldFraction,
          fixedField,
          yieldType: input.yield_type,
          priceOverridden: input.price_overridden,
          settlementDate,
          settlementDelta,
          validityMinutes: input.validity,
          expiresAt,
          mandateExpiresAt: input.mandate_expires_at ? new Date(input.mandate_expires_at) : null,
          source: input.source,
          state: input.state,
          isBest: input.is_best,
          sendToRfq: input.send_to_rfq || exchange !== null,
          whatsappConsent: input.whatsapp_consent,
          replaces: input.replaces ?? null,
          respondTo: target?.id ?? null,
          recipients: counterparties.length > 0 ? counterparties : null,
          brokerId: input.broker_id ?? null,
          clearingCorporation,
          rfqMode,
          exchange,
          exchangeRef,
          rfqAnonymous,
          otoParticipantDetails: input.oto_participant_details ?? null,
          originTrade: input.origin_trade ?? null,
          endClientId: input.end_client_id ?? null,
        });
        await writeAudit(tx, audit, {
          action: 'quote.created',
          entity: 'quote',
          entityId: inserted.id,
          after: {
            finstrument_id: finstrumentId,
            quote_type: quoteType,
            quantum: input.quantum,
            price,
            yield: yieldFraction,
            settlement_date: settlementDate,
            private: counterparties.length > 0,
            respond_to: target?.id ?? null,
            price_overridden: input.price_overridden,
          },
        });
        if (input.replaces) {
          const old = await r.findQuote(input.replaces, true);
          if (!old || old.clientId !== p.clientId) throw fieldError('replaces', 'Quote to replace not found.');
          if (old.status !== 'open') throw fieldError('replaces', MARKET_MESSAGES.quoteNotOpen);
          await endQuote(tx, old, 'replaced', audit, emit, inserted.id);
        }
        await match(tx, inserted, audit, emit);
        // A response to an exchange RFQ is its participant's latest terms in the negotiation the raiser accepts.
        if (target?.exchange) await recordRfqResponse(tx, target, inserted, p, now, audit, emit);
        const view = await viewOf(tx, inserted.id);
        await announce(tx, emit, view, 'created');
        return quoteView(view, p);
      });
    } catch (error) {
      if (venueExchange && exchangeRef) await compensateAtExchange(venueExchange, exchangeRef, error);
      throw error;
    }
  }

  async function expireDue(): Promise<number> {
    return change(async (tx, emit) => {
      // FOR UPDATE SKIP LOCKED: several nodes sweeping at once never expire one quote twice.
      const due = await createMarketRepository(tx).dueForExpiry(deps.now(), EXPIRY_BATCH);
      for (const q of due) await endQuote(tx, q, 'expired', { actorEmail: 'system:expiry' }, emit);
      if (due.length > 0) emit({ topic: MARKET_TOPICS.refreshRuns, clientId: null, payload: { reason: 'expired', count: due.length } });
      return due.length;
    });
  }

  return {
    createQuote,
    expireDue,

    /** `GET api/trade/eoi/`: the caller's firm's own quotes (market.my-quotes.ts). */
    listMyQuotes(p: Principal, query: MyQuotesQuery) {
      return listMyQuotes(database.db, p.clientId, query, bondsMatching(query.search), deps.now(), (row) => quoteView(row, p));
    },

    async getQuote(p: Principal, id: string): Promise<Quote> {
      const row = await repo.findQuoteView(id);
      if (!row || !mayAccess(row.quote, p) || !hasTradeAccess(p) || !(await mayAccessExchange(row.quote, p))) throw notFound();
      return quoteView(row, p);
    },

    async closeQuotes(p: Principal, ids: readonly string[], status: 'closed' | 'expired', audit: AuditContext): Promise<Quote[]> {
      return change(async (tx, emit) => {
        const views: Quote[] = [];
        // All or nothing: one foreign or unknown id refuses the whole request.
        for (const id of new Set(ids)) {
          const q = await ownQuote(tx, p, id);
          views.push(quoteView(await endQuote(tx, q, status, audit, emit), p));
        }
        return views;
      });
    },

    async updateQuote(p: Principal, id: string, input: QuoteUpdate, audit: AuditContext): Promise<Quote> {
      assertTradingOpen();
      if (input.price_overridden && !canOverridePrice(p)) throw new AppError('FORBIDDEN', MARKET_MESSAGES.priceOverrideNotAllowed);
      const current = await repo.findQuote(id);
      if (!current || current.clientId !== p.clientId) throw notFound();
      if (input.quantum !== undefined) {
        const bond = await repo.bond(current.finstrumentId);
        if (bond) assertSize(input.quantum, bond);
      }
      const fixedField =
        input.fixed_field ?? (isSet(input.unit_price_stored) ? 'price' : isSet(input.yield_stored) ? 'yield' : current.fixedField);
      let price = current.price;
      let yieldFraction = current.yieldFraction;
      const overridden = input.price_overridden ?? false;
      if (overridden) {
        price = input.unit_price_stored ?? current.price;
        yieldFraction = input.yield_stored ?? current.yieldFraction;
      } else if (isSet(input.unit_price_stored) || isSet(input.yield_stored) || input.fixed_field) {
        const priced = await priceQuote(
          current.finstrumentId,
          fixedField === 'price'
            ? { price: input.unit_price_stored ?? current.price, settlement: current.settlementDate }
            : { yield: input.yield_stored ?? current.yieldFraction, settlement: current.settlementDate },
        );
        price = priced.price;
        yieldFraction = priced.yield;
      }
      const now = deps.now();
      const expiresAt = input.expiry_date_stored
        ? new Date(input.expiry_date_stored)
        : input.validity
          ? new Date(now.getTime() + input.validity * 60_000)
          : current.expiresAt;
      if (expiresAt <= now) throw fieldError('expiry_date_stored', 'Expiry should be in the future.');
      return change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        // Cancel/replace loops: every change of a quote counts against the user's daily updates.
        await deps.quotas.charge(tx, [{ action: 'quote.update', scope: 'user', subjectId: p.userId }]);
        await r.lockBook(current.finstrumentId);
        const q = await ownQuote(tx, p, id);
        if (q.status !== 'open') throw new AppError('CONFLICT', MARKET_MESSAGES.quoteNotOpen);
        // A changed quote gives up its proposed clusters and is matched afresh.
        await releaseClusters(tx, q.id, emit);
        const fresh = (await r.findQuote(q.id))!;
        const quantum = input.quantum ?? fresh.quantum;
        const filled = fresh.quantum - fresh.remainingQuantum;
        if (quantum < filled) throw fieldError('quantum', `Cannot be below the ${formatFaceValue(filled)} already dealt.`);
        const updated = await r.updateQuote(q.id, {
          quantum,
          remainingQuantum: quantum - filled,
          price,
          yieldFraction,
          fixedField,
          priceOverridden: overridden,
          expiresAt,
          ...(input.validity ? { validityMinutes: input.validity } : {}),
          ...(input.is_best !== undefined ? { isBest: input.is_best } : {}),
          ...(input.whatsapp_consent !== undefined ? { whatsappConsent: input.whatsapp_consent } : {}),
        });
        await writeAudit(tx, audit, {
          action: 'quote.updated',
          entity: 'quote',
          entityId: q.id,
          before: { quantum: q.quantum, price: q.price, yield: q.yieldFraction, expires_at: q.expiresAt },
          after: { quantum, price, yield: yieldFraction, expires_at: expiresAt },
        });
        await match(tx, updated, audit, emit);
        const view = await viewOf(tx, q.id);
        await announce(tx, emit, view, 'updated');
        return quoteView(view, p);
      });
    },
  };
}
export type MarketQuotes = ReturnType<typeof createMarketQuotes>;
