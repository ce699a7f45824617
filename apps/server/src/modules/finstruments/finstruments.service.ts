/** Finstruments: search, detail, pricing, cash flows, related bonds, trades, ratings, documents. */
import type { z } from 'zod';
import {
  DEFAULT_SETTLEMENT_DELTA,
  PRICING_MESSAGES,
  type CashflowRequestSchema,
  type FinstrumentDetail,
  type FinstrumentListRequestSchema,
  type IssuerBondsRequestSchema,
  type PriceInfo,
  type PriceRequest,
  type TradesRequestSchema,
} from '@dart/contracts';
import { BondMathError, type CalendarDate } from '@dart/bond-math';
import { AppError, fieldError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import {
  buildBond,
  formatDate,
  getCashflowsRupees,
  getConsiderationRupees,
  getSettlementForDelta,
  getTradeDate,
  isBusinessDay,
  isInShutPeriod,
  parseDate,
  priceBond,
  type PricingTerms,
} from './finstruments.pricing';
import { createFinstrumentsRepository, type FinstrumentRow } from './finstruments.repository';
import { renderBondDetailsPdf, renderImPdf, renderQuotePdf } from './documents';
import { isMaturedOn, SearchIndex, toSummary } from './search-index';

/** How often each node checks whether the finstruments table changed (import on another node or by the script). */
const INDEX_SYNC_MS = 30_000;
const MAX_SETTLEMENT_DAYS_AHEAD = 365;
const MATURED_REASON = 'The bond has matured.';

const round = (value: number, places: number) => Number(value.toFixed(places));

export function termsOf(row: Pick<FinstrumentRow, keyof PricingTerms>): PricingTerms {
  return {
    isin: row.isin,
    displayName: row.displayName,
    securityType: row.securityType,
    couponRate: row.couponRate,
    couponFrequency: row.couponFrequency,
    faceValue: row.faceValue,
    issueDate: row.issueDate,
    listingDate: row.listingDate,
    maturityDate: row.maturityDate,
    perpetual: row.perpetual,
    tenorDays: row.tenorDays,
    callSchedule: row.callSchedule,
    putSchedule: row.putSchedule,
  };
}

function istToday(now: Date): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

export function createFinstrumentsService(deps: AppDeps) {
  const repository = createFinstrumentsRepository(deps.database.db);
  let index = new SearchIndex([]);
  let indexSignature = '';
  let timer: NodeJS.Timeout | null = null;
  let refreshing: Promise<void> | null = null;

  async function refreshIndex(force = false): Promise<void> {
    if (refreshing) return refreshing;
    refreshing = (async () => {
      const signature = await repository.signature();
      if (force || signature !== indexSignature) {
        index = new SearchIndex(await repository.loadIndex());
        indexSignature = signature;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function load(idOrIsin: string): Promise<FinstrumentRow> {
    const row = await repository.findByIdOrIsin(idOrIsin);
    if (!row) throw new AppError('NOT_FOUND', 'Bond not found.');
    return row;
  }

  function summaryOf(row: FinstrumentRow, today: string) {
    return toSummary(row, today);
  }

  function referenceOf(ref: Awaited<ReturnType<typeof repository.bestReference>>) {
    return ref
      ? {
          source: ref.source,
          price_date: ref.priceDate,
          clean_price: ref.cleanPrice,
          bond_yield: round(ref.yieldFraction, 6),
          detail: ref.detail,
        }
      : null;
  }

  /** Settlement from a date or a T+n delta (default T+1), validated against the Indian calendar. */
  function resolveSettlement(
    tradeDate: CalendarDate,
    input: { settlement_date?: string | undefined; settlement_delta?: number | undefined },
  ) {
    if (input.settlement_date) {
      const settlement = parseDate(input.settlement_date);
      if (settlement < tradeDate) throw fieldError('settlement_date', 'Settlement date cannot be before the trade date.');
      if (settlement - tradeDate > MAX_SETTLEMENT_DAYS_AHEAD)
        throw fieldError('settlement_date', 'Settlement date is too far in the future.');
      if (!isBusinessDay(settlement)) throw fieldError('settlement_date', 'Settlement date must be a business day.');
      return { settlement, delta: null };
    }
    const delta = input.settlement_delta ?? DEFAULT_SETTLEMENT_DELTA;
    return { settlement: getSettlementForDelta(null, tradeDate, delta), delta };
  }

  async function price(idOrIsin: string, input: PriceRequest): Promise<PriceInfo & { row: FinstrumentRow }> {
    return priceOf(await load(idOrIsin), input, true);
  }

  /** `readReference` false: the reference price is neither read nor reported (a quote given, a caller that read the row). */
  async function priceOf(row: FinstrumentRow, input: PriceRequest, readReference: boolean): Promise<PriceInfo & { row: FinstrumentRow }> {
    const now = deps.now();
    const tradeDate = getTradeDate(now);
    const { settlement, delta } = resolveSettlement(tradeDate, input);
    // One maturity rule: what the header, the search and the Find grid call matured, pricing calls matured too
    // (a dated perpetual past its date included); a live bond maturing before settlement keeps buildBond's reason.
    const built = isMaturedOn(row.maturityDate, istToday(now))
      ? ({ ok: false, reason: MATURED_REASON } as const)
      : buildBond(termsOf(row), settlement);
    const ref = readReference ? await repository.bestReference(row.id) : undefined;
    const warnings: string[] = [];
    const canBePriced = built.ok && ref !== undefined;
    const base = {
      finstrument_id: row.id,
      trade_date: formatDate(tradeDate),
      settlement_delta: delta,
      can_be_priced: canBePriced,
      allow_price_modification: built.ok,
      not_priceable_reason: built.ok ? (ref ? null : 'No traded price, valuation or matrix yield is available.') : built.reason,
      reference: referenceOf(ref),
      row,
    };
    const empty = {
      unit_clean_price: null,
      bond_yield: null,
      settlement_date: formatDate(settlement),
      dirty_price: null,
      accrued_interest: null,
      yield_compounding: null,
    };
    const quote: { yield: number } | { price: number } | null =
      input.yield !== undefined
        ? { yield: input.yield }
        : input.price !== undefined
          ? { price: input.price }
          : ref
            ? { yield: ref.yieldFraction }
            : null;
    const fixedField = input.price !== undefined ? 'price' : 'yield';
    if (!built.ok) {
      if (quote && (input.yield !== undefined || input.price !== undefined))
        throw new AppError('BAD_REQUEST', `${PRICING_MESSAGES.notPriceable} ${built.reason}`);
      return { ...base, price: empty, fixed_field: fixedField, consideration_details: null, warnings };
    }
    if (isInShutPeriod(built.bond, settlement)) {
      const message = 'Settlement falls in the shut period before a coupon date: no settlement is allowed on that day.';
      if (input.settlement_date) throw fieldError('settlement_date', message);
      warnings.push(message);
    }
    if (!quote) return { ...base, price: empty, fixed_field: fixedField, consideration_details: null, warnings };
    try {
      const point = priceBond(built.bond, settlement, quote);
      const clean = round(point.cleanPer100, 4);
      return {
        ...base,
        price: {
          unit_clean_price: clean,
          bond_yield: round(point.yieldRate, 6),
          settlement_date: formatDate(settlement),
          dirty_price: round(point.dirtyPer100, 6),
          accrued_interest: round(point.accruedPer100, 6),
          yield_compounding: point.compounding,
        },
        fixed_field: fixedField,
        consideration_details: clean > 0 ? getConsiderationRupees(built.bond, settlement, input.quantity ?? 1, clean) : null,
        warnings,
      };
    } catch (error) {
      if (error instanceof BondMathError) {
        // The stored reference does not price on this date: report NA rather than fail the page.
        if (input.yield === undefined && input.price === undefined)
          return {
            ...base,
            can_be_priced: false,
            not_priceable_reason: `The reference yield does not price on this date (${error.code}).`,
            price: empty,
            fixed_field: fixedField,
            consideration_details: null,
            warnings,
          };
        if (error.code === 'NO_YIELD_EXISTS') throw fieldError('price', 'No yield exists for this price.');
        throw new AppError('BAD_REQUEST', `The bond cannot be priced with these inputs (${error.code}).`);
      }
      throw error;
    }
  }

  return {
    get indexSize() {
      return index.size;
    },
    refreshIndex,
    /** Builds the index now and re-checks the table every 30 s. */
    async startIndexSync(): Promise<void> {
      await refreshIndex(true);
      timer = setInterval(() => void refreshIndex().catch(() => undefined), INDEX_SYNC_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
    },

    search(searchKey: string, limit: number) {
      return { finstruments: index.search(searchKey, limit, istToday(deps.now())) };
    },
    /**
     * Every bond matching `query`, best first, as ids: the Find grid's search and the market lists' `search`
     * (one search everywhere). Empty when nothing matches (a query of only punctuation or LIKE wildcards included).
     */
    searchIds(query: string): number[] {
      return index.rankAll(query, istToday(deps.now()));
    },
    /** The SQL-only search (benchmark baseline). */
    searchSql(searchKey: string, limit: number) {
      return repository.searchSql(searchKey, limit, istToday(deps.now()));
    },

    async detail(idOrIsin: string): Promise<FinstrumentDetail> {
      const info = await price(idOrIsin, {});
      const row = info.row;
      return {
        ...summaryOf(row, istToday(deps.now())),
        long_name: row.longName,
        issuer_key: row.issuerKey,
        coupon_frequency: row.couponFrequency,
        day_count: row.dayCount,
        face_value: row.faceValue,
        paid_up_value: row.paidUpValue,
        issue_date: row.issueDate,
        listing_date: row.listingDate,
        maturity_year: row.maturityYear,
        perpetual: row.perpetual,
        call_schedule: row.callSchedule,
        put_schedule: row.putSchedule,
        exchanges: row.exchanges,
        nse_symbol: row.nseSymbol,
        nse_series: row.nseSeries,
        bse_scrip_code: row.bseScripCode,
        bse_symbol: row.bseSymbol,
        isin_status: row.isinStatus,
        rating_agency: row.ratingAgency,
        rating_as_of: row.ratingAsOf,
        provenance: row.provenance,
        assumed: row.assumed,
        can_be_priced: info.can_be_priced,
        not_priceable_reason: info.not_priceable_reason,
        reference: info.reference,
      };
    },

    async price(idOrIsin: string, input: PriceRequest): Promise<PriceInfo> {
      const { row: _row, ...info } = await price(idOrIsin, input);
      return info;
    },

    /**
     * `price` of a bond row the caller has read, at the clean price or the yield it gives (a ticket's pricing):
     * neither the row nor the reference price is read, so `reference` is null and `can_be_priced` false; the
     * price, the yield and the consideration are `price`'s, from the same bond-math.
     */
    async priceRow(row: FinstrumentRow, input: PriceRequest & ({ price: number } | { yield: number })): Promise<PriceInfo> {
      const { row: _row, ...info } = await priceOf(row, input, false);
      return info;
    },

    async cashflows(idOrIsin: string, input: z.output<typeof CashflowRequestSchema>) {
      const row = await load(idOrIsin);
      const tradeDate = getTradeDate(deps.now());
      const settlement = input.ref_date ? parseDate(input.ref_date) : getSettlementForDelta(null, tradeDate, DEFAULT_SETTLEMENT_DELTA);
      const built = buildBond(termsOf(row), settlement);
      if (!built.ok) throw new AppError('BAD_REQUEST', `Cash flows are not available: ${built.reason}`);
      const cashflows = getCashflowsRupees(built.bond, settlement, input.quantity);
      // Totals summed in paise so the rupee figures add up exactly.
      const sum = (key: 'interest' | 'principal' | 'total') => cashflows.reduce((acc, c) => acc + Math.round(c[key] * 100), 0) / 100;
      return {
        finstrument_id: row.id,
        quantity: input.quantity,
        ref_date: formatDate(settlement),
        cashflows,
        totals: { interest: sum('interest'), principal: sum('principal'), total: sum('total') },
      };
    },

    async list(input: z.output<typeof FinstrumentListRequestSchema>, issuer?: { idOrIsin: string }) {
      const today = istToday(deps.now());
      let options: { issuerKey?: string | null; excludeId?: number; today: string } = { today };
      if (issuer) {
        const row = await load(issuer.idOrIsin);
        options = { issuerKey: row.issuerKey, excludeId: row.id, today };
      }
      // The search filter is the header search itself (same tokens, same ranking), not a second implementation.
      const search = 'search' in input && input.search ? input.search : '';
      const { rows, count } = await repository.list(input, search ? { ...options, searchIds: index.rankAll(search, today) } : options);
      return {
        count,
        page: input.pagination.page,
        page_size: input.pagination.page_size,
        results: rows.map((row) => ({
          ...summaryOf(row, today),
          face_value: row.faceValue,
          listing_date: row.listingDate,
          exchanges: row.exchanges,
          bond_yield: row.referenceYield === null ? null : round(row.referenceYield, 6),
          reference_source: row.referenceSource,
        })),
      };
    },

    async issuerBonds(idOrIsin: string, input: z.output<typeof IssuerBondsRequestSchema>) {
      return this.list(input, { idOrIsin });
    },

    async trades(idOrIsin: string, input: z.output<typeof TradesRequestSchema>) {
      const row = await load(idOrIsin);
      const { rows, count } = await repository.trades(row.id, input);
      return {
        count,
        page: input.pagination.page,
        page_size: input.pagination.page_size,
        results: rows.map((t) => ({
          trade_date: t.tradeDate,
          kind: t.kind,
          price: t.pricePer100,
          bond_yield: t.yieldFraction,
          value_inr: t.valueInr,
          num_trades: t.numTrades,
          detail: t.detail,
          source: t.source,
        })),
      };
    },

    async creditRationale(idOrIsin: string) {
      const row = await load(idOrIsin);
      const ratings = await repository.ratings(row.id);
      return {
        finstrument_id: row.id,
        ratings: ratings.map((r) => ({ agency: r.agency, rating: r.rating, as_of: r.asOf, source: r.source })),
      };
    },

    async imPdf(isin: string) {
      const info = await this.detail(isin);
      return { filename: `IM-${info.identifiers.ISIN}.pdf`, body: await renderImPdf(info, deps.config.productName, deps.now()) };
    },
    async bondDetailsPdf(idOrIsin: string) {
      const info = await this.detail(idOrIsin);
      const ratings = (await this.creditRationale(idOrIsin)).ratings;
      return {
        filename: `bond-details-${info.identifiers.ISIN}.pdf`,
        body: await renderBondDetailsPdf(info, ratings, deps.config.productName, deps.now()),
      };
    },
    async quotePdf(idOrIsin: string, input: PriceRequest) {
      const info = await this.detail(idOrIsin);
      const quote = await this.price(idOrIsin, input);
      if (quote.price.unit_clean_price === null)
        throw new AppError('BAD_REQUEST', `${PRICING_MESSAGES.notPriceable} ${quote.not_priceable_reason ?? ''}`.trim());
      return {
        filename: `quote-${info.identifiers.ISIN}.pdf`,
        body: await renderQuotePdf(info, quote, deps.config.productName, deps.now()),
      };
    },
  };
}
export type FinstrumentsService = ReturnType<typeof createFinstrumentsService>;
