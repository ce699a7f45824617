/**
 * Find's remaining calls (issue 17 §3): market quote, quote calculation, master quote, info v2, the
 * client's finstrument list and the category facets. Pricing goes through the finstruments service (one
 * settlement rule, one NA rule) and bond-math; README.md "Find calls" says what each returns.
 */
import type { z } from 'zod';
import {
  FIND_CATEGORIES,
  FIND_CATEGORY_LABELS,
  NOT_RATED,
  priceSourceLabel,
  type CategoriesRequestSchema,
  type ClientFinstrumentListRequestSchema,
  type PriceRequest,
} from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { Principal } from '../auth/principal';
import type { AppDeps } from '../../types';
import { buildCurve, curveYield, type Curve } from './curve';
import { createFindCallsRepository } from './find-calls.repository';
import { buildBond, formatDate, parseDate, priceBond, riskAt, toSemiAnnual, yearsBetween } from './finstruments.pricing';
import { createFinstrumentsRepository } from './finstruments.repository';
import { termsOf, type FinstrumentsService } from './finstruments.service';
import { toSummary } from './search-index';

const DAY_MS = 86_400_000;
const CURVE_TTL_MS = 60_000;
const round = (value: number, places: number) => Number(value.toFixed(places));
const istToday = (now: Date) => new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
const ageDays = (date: string, today: string) => Math.max(0, Math.round((Date.parse(today) - Date.parse(date)) / DAY_MS));

type Ref = { source: string; priceDate: string; cleanPrice: number | null; yieldFraction: number; detail: string | null };

export function createFindCallsService(deps: AppDeps, finstruments: FinstrumentsService) {
  const repository = createFindCallsRepository(deps.database.db);
  const bonds = createFinstrumentsRepository(deps.database.db);
  let curveCache: { at: number; curve: Curve | null } | null = null;

  async function curve(): Promise<Curve | null> {
    if (curveCache && Date.now() - curveCache.at < CURVE_TTL_MS) return curveCache.curve;
    const closes = await repository.gsecCloses();
    const date = closes[0]?.date;
    const built = date
      ? buildCurve(
          date,
          closes.map((c) => ({ tenor: yearsBetween(parseDate(date), parseDate(c.maturityDate)), yieldRate: c.yieldFraction })),
        )
      : null;
    curveCache = { at: Date.now(), curve: built };
    return built;
  }

  const mark = (ref: Ref | undefined, today: string) =>
    ref
      ? {
          source: ref.source,
          source_label: priceSourceLabel(ref.source),
          price_date: ref.priceDate,
          age_days: ageDays(ref.priceDate, today),
          bond_yield: round(ref.yieldFraction, 6),
          clean_price: ref.cleanPrice,
          detail: ref.detail,
        }
      : null;

  async function load(idOrIsin: string) {
    const row = await bonds.findByIdOrIsin(idOrIsin);
    if (!row) throw new AppError('NOT_FOUND', 'Bond not found.');
    return row;
  }

  /** Spread (bp) of a yield in the bond's compounding over the G-sec curve at its tenor from settlement. */
  async function spreadBp(row: Awaited<ReturnType<typeof load>>, settlementText: string | null, rate: number | null) {
    const c = await curve();
    if (!c || rate === null || !settlementText || !row.maturityDate) return null;
    const settlement = parseDate(settlementText);
    const built = buildBond(termsOf(row), settlement);
    if (!built.ok) return null;
    const semiAnnual = built.bond.yieldCompounding === 'simple' ? rate : toSemiAnnual(built.bond, rate);
    return round((semiAnnual - curveYield(c, yearsBetween(settlement, parseDate(row.maturityDate)))) * 10_000, 1);
  }

  function risk(row: Awaited<ReturnType<typeof load>>, settlementText: string | null, rate: number | null) {
    if (rate === null || !settlementText) return null;
    const settlement = parseDate(settlementText);
    const built = buildBond(termsOf(row), settlement);
    if (!built.ok) return null;
    try {
      const r = riskAt(built.bond, settlement, rate);
      return {
        macaulay_duration: round(r.macaulay, 6),
        modified_duration: round(r.modified, 6),
        convexity: round(r.convexity, 6),
        pv01_per_100: round(r.pv01Per100, 8),
      };
    } catch {
      return null;
    }
  }

  function scopeOf(input: {
    category_values: z.output<typeof CategoriesRequestSchema>['category_values'];
    filters: z.output<typeof CategoriesRequestSchema>['filters'];
    include_matured: boolean;
  }) {
    return {
      categoryValues: input.category_values,
      filters: input.filters,
      includeMatured: input.include_matured,
      today: istToday(deps.now()),
    };
  }

  return {
    async categories(input: z.output<typeof CategoriesRequestSchema>) {
      const scope = scopeOf(input);
      const names = FIND_CATEGORIES.filter((c) => input.category_list.includes(c));
      const categories = [];
      for (const name of names) {
        const values = await repository.facet(name, scope);
        categories.push({
          name,
          label: FIND_CATEGORY_LABELS[name],
          values: values.map((v) => ({
            value: v.value,
            label:
              name === 'reference_source'
                ? priceSourceLabel(v.value)
                : name === 'credit_rating' && v.value === NOT_RATED
                  ? 'Not rated'
                  : v.value,
            count: v.count,
          })),
        });
      }
      return { categories };
    },

    async clientList(principal: Principal, input: z.output<typeof ClientFinstrumentListRequestSchema>) {
      const scope = scopeOf(input);
      const { rows, count } = await repository.clientList(scope, {
        clientId: principal.clientId,
        mineOnly: input.mine_only,
        ...(input.search ? { searchIds: finstruments.searchIds(input.search) } : {}),
        ...(input.sort ? { sort: input.sort } : {}),
        page: input.pagination_params.page,
        pageSize: input.pagination_params.page_size,
      });
      return {
        count,
        page: input.pagination_params.page,
        page_size: input.pagination_params.page_size,
        results: rows.map((row) => ({
          ...toSummary(row, scope.today),
          face_value: row.faceValue,
          listing_date: row.listingDate,
          exchanges: row.exchanges,
          bond_yield: row.referenceYield === null ? null : round(row.referenceYield, 6),
          reference_source: row.referenceSource,
          reference_date: row.referenceDate,
          reference_age_days: row.referenceDate ? ageDays(row.referenceDate, scope.today) : null,
          client_open_quotes: Number(row.openQuotes),
        })),
      };
    },

    async marketQuote(idOrIsin: string, input: { settlement_date?: string | undefined; settlement_delta?: 0 | 1 | 2 | undefined }) {
      const info = await finstruments.price(idOrIsin, input);
      const row = await load(String(info.finstrument_id));
      const today = istToday(deps.now());
      const ref = await bonds.bestReference(row.id);
      const last = await repository.lastObservation(row.id);
      const p = info.price;
      const priced = info.can_be_priced && p.unit_clean_price !== null && p.bond_yield !== null;
      return {
        finstrument_id: row.id,
        isin: row.isin,
        display_name: row.displayName,
        settlement_date: p.settlement_date,
        can_be_priced: priced,
        not_priceable_reason: priced ? null : info.not_priceable_reason,
        mid: priced
          ? {
              clean_price: p.unit_clean_price!,
              bond_yield: p.bond_yield!,
              dirty_price: p.dirty_price!,
              accrued_interest: p.accrued_interest!,
              yield_compounding: p.yield_compounding!,
            }
          : null,
        mark: mark(ref, today),
        spread_to_gsec_bp: priced ? await spreadBp(row, p.settlement_date, p.bond_yield) : null,
        last_observation: last
          ? { kind: last.kind, trade_date: last.tradeDate, price: last.pricePer100, bond_yield: last.yieldFraction }
          : null,
      };
    },

    async quote(idOrIsin: string, input: PriceRequest) {
      const info = await finstruments.price(idOrIsin, input);
      const row = await load(String(info.finstrument_id));
      const rate = info.price.bond_yield;
      const r = info.allow_price_modification ? risk(row, info.price.settlement_date, rate) : null;
      const units = input.quantity ?? 1;
      const face = info.consideration_details?.face_value_per_unit ?? row.faceValue ?? 100;
      return {
        ...info,
        risk: r,
        pv01_rupees: r ? round((r.pv01_per_100 * face * units) / 100, 2) : null,
        spread_to_gsec_bp: info.allow_price_modification ? await spreadBp(row, info.price.settlement_date, rate) : null,
        vs_mark_bp: info.reference && rate !== null ? round((rate - info.reference.bond_yield) * 10_000, 1) : null,
      };
    },

    async masterQuote(idOrIsin: string, input: { settlement_date?: string | undefined; settlement_delta?: 0 | 1 | 2 | undefined }) {
      const info = await finstruments.price(idOrIsin, input);
      const row = await load(String(info.finstrument_id));
      const today = istToday(deps.now());
      const refs = await repository.references(row.id);
      const settlementText = info.price.settlement_date!;
      const settlement = parseDate(settlementText);
      const built = info.allow_price_modification ? buildBond(termsOf(row), settlement) : null;
      const sources = refs.map((ref, i) => {
        let priced: number | null = null;
        if (built?.ok)
          try {
            priced = round(priceBond(built.bond, settlement, { yield: ref.yieldFraction }).cleanPer100, 4);
          } catch {
            priced = null;
          }
        return { ...mark(ref, today)!, priority: ref.priority, chosen: i === 0, priced_clean_price: priced };
      });
      return { finstrument_id: row.id, isin: row.isin, settlement_date: formatDate(settlement), chosen: mark(refs[0], today), sources };
    },

    async infoV2(idOrIsin: string) {
      const detail = await finstruments.detail(idOrIsin);
      const pricing = await finstruments.price(String(detail.id), {});
      const ref = await bonds.bestReference(detail.id);
      return { ...detail, mark: mark(ref, istToday(deps.now())), pricing };
    },
  };
}
export type FindCallsService = ReturnType<typeof createFindCallsService>;
