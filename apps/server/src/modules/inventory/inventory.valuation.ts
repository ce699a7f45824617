/**
 * Values a book (README "Valuation"): every figure from bond-math through the finstruments module's bond
 * builder. The valuation yield is the reference price waterfall's pick (NSE close → OTC trades → MF valuations
 * → matrix); the valuation date is the pricing panel's default settlement (T+1 of today's trade date in IST).
 * Pure apart from the inputs: no database, no clock.
 */
import { DEFAULT_SETTLEMENT_DELTA, MATURITY_BUCKETS, type MaturityBucket, type Position, type InventorySchema } from '@dart/contracts';
import {
  BondMathError,
  cleanPrice,
  getConsideration,
  getRiskMeasures,
  makeYield,
  roundRupeesToPaise,
  type CalendarDate,
} from '@dart/bond-math';
import type { z } from 'zod';
import {
  buildBond,
  formatDate,
  getSettlementForDelta,
  getTradeDate,
  parseDate,
  priceBond,
  yearsBetween,
} from '../finstruments/finstruments.pricing';
import { termsOf } from '../finstruments/finstruments.service';
import { perBondOf } from '../market';
import type { BookBond, PositionRow, ReferenceRow } from './inventory.repository';

const NO_REFERENCE = 'No traded price, valuation or matrix yield is available.';
const round = (value: number, places: number) => Number(value.toFixed(places));
export const rupees = (paise: number) => paise / 100;

export interface ValuationDates {
  tradeDate: CalendarDate;
  settlement: CalendarDate;
}

export function valuationDates(now: Date): ValuationDates {
  const tradeDate = getTradeDate(now);
  return { tradeDate, settlement: getSettlementForDelta(null, tradeDate, DEFAULT_SETTLEMENT_DELTA) };
}

/** One valued holding, in paise for the sums (the wire view divides by 100). */
export interface ValuedPosition {
  view: Position;
  marketValuePaise: number | null;
  accruedPaise: number | null;
  unrealisedPaise: number | null;
  pv01Paise: number | null;
  yield: number | null;
  modifiedDuration: number | null;
}

function bucketOf(bond: BookBond, settlement: CalendarDate): MaturityBucket | null {
  if (bond.perpetual) return 'Perpetual';
  if (!bond.maturityDate) return null;
  const years = yearsBetween(settlement, parseDate(bond.maturityDate));
  if (years < 1) return '< 1Y';
  if (years < 3) return '1-3Y';
  if (years < 5) return '3-5Y';
  if (years < 10) return '5-10Y';
  return '10Y+';
}

/** The bond built for a date, once per bond of the book (the cash-flow calendar's builds). */
export function createBondCache(settlement: CalendarDate) {
  const built = new Map<number, ReturnType<typeof buildBond>>();
  return (row: BookBond) => {
    let result = built.get(row.id);
    if (!result) {
      result = buildBond(termsOf(row), settlement);
      built.set(row.id, result);
    }
    return result;
  };
}

/**
 * A bond's figures on the valuation date at its reference yield: the same for every holding of it. The money of
 * one holding is then two roundings (`holdingMoney`), so a book of 10,000 holdings over 5,000 bonds prices 5,000
 * bonds, not 10,000.
 */
export interface BondValuation {
  perBond: number;
  bucket: MaturityBucket | null;
  reference: { source: string | null; price_date: string | null; age_days: number | null };
  priced:
    | {
        clean: number;
        bondYield: number;
        modifiedDuration: number;
        pv01Per100: number;
        /** `getConsideration`'s face per unit (outstanding under the outstanding basis) and accrued per ₹100. */
        faceValuePerUnit: number;
        accruedPer100: number;
      }
    | { reason: string };
}

/** Enough for every bond of the universe (about 32,000); past it the cache starts again (README "Speed"). */
const BOND_CACHE_LIMIT = 100_000;

interface CachedValuation {
  /** What the valuation depends on: the bond's terms (content hash), the trade date and the reference row. */
  contentHash: string;
  tradeDate: CalendarDate;
  ref: ReferenceRow | undefined;
  value: BondValuation;
}

const sameReference = (a: ReferenceRow | undefined, b: ReferenceRow | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.id === b.id &&
    a.source === b.source &&
    a.priceDate === b.priceDate &&
    a.yieldFraction === b.yieldFraction);

/**
 * Values bonds for holdings, each (bond, terms, date, reference) once per node: a book of 10,000 holdings over
 * 5,000 bonds builds and prices 5,000 bonds the first time and none after, until a term, the date or the
 * reference changes (each is compared, so a stale figure is never served). One entry per bond: its latest.
 */
export function createBondValuer(limit = BOND_CACHE_LIMIT) {
  const cache = new Map<number, CachedValuation>();
  return (row: BookBond, ref: ReferenceRow | undefined, dates: ValuationDates): BondValuation => {
    const hit = cache.get(row.id);
    if (hit && hit.contentHash === row.contentHash && hit.tradeDate === dates.tradeDate && sameReference(hit.ref, ref)) return hit.value;
    const value = valueBond(row, ref, dates);
    if (!hit && cache.size >= limit) cache.clear();
    cache.set(row.id, { contentHash: row.contentHash, tradeDate: dates.tradeDate, ref, value });
    return value;
  };
}
export type BondValuer = ReturnType<typeof createBondValuer>;

function valueBond(row: BookBond, ref: ReferenceRow | undefined, dates: ValuationDates): BondValuation {
  const common = {
    perBond: perBondOf(row),
    bucket: bucketOf(row, dates.settlement),
    reference: {
      source: ref?.source ?? null,
      price_date: ref?.priceDate ?? null,
      age_days: ref ? Math.max(0, dates.tradeDate - parseDate(ref.priceDate)) : null,
    },
  };
  // The bond's own reason first (never priceable, no maturity), then a missing reference.
  const built = buildBond(termsOf(row), dates.settlement);
  if (!built.ok) return { ...common, priced: { reason: built.reason } };
  if (!ref) return { ...common, priced: { reason: NO_REFERENCE } };
  try {
    const bond = built.bond;
    const point = priceBond(bond, dates.settlement, { yield: ref.yieldFraction });
    const risk = getRiskMeasures(bond, dates.settlement, makeYield(ref.yieldFraction, bond.yieldCompounding));
    const clean = round(point.cleanPer100, 4);
    // One unit's consideration gives the per-unit terms every holding of the bond scales (holdingMoney).
    const unit = getConsideration(bond, dates.settlement, 1, cleanPrice(clean));
    return {
      ...common,
      priced: {
        clean,
        bondYield: round(ref.yieldFraction, 6),
        modifiedDuration: round(risk.modifiedDuration, 4),
        pv01Per100: risk.pv01Per100,
        faceValuePerUnit: unit.faceValuePerUnit,
        accruedPer100: unit.accruedInterestPer100,
      },
    };
  } catch (error) {
    if (error instanceof BondMathError)
      return { ...common, priced: { reason: `The reference yield does not price on this date (${error.code}).` } };
    throw error;
  }
}

/**
 * A holding's consideration from its bond's per-unit terms: bond-math's `getConsideration` rule (total =
 * units × face per unit × (clean + accrued) ÷ 100 half-up to the paisa; accrued the same way; principal the
 * difference) without building the pricing set-up again for every holding. The unit test holds it to
 * `getConsideration` on every size.
 */
export function holdingMoney(units: number, faceValuePerUnit: number, clean: number, accruedPer100: number) {
  const faceAmount = units * faceValuePerUnit;
  const totalPaise = roundRupeesToPaise((faceAmount * (clean + accruedPer100)) / 100);
  const accruedPaise = roundRupeesToPaise((faceAmount * accruedPer100) / 100);
  return { totalPaise, accruedPaise, principalPaise: totalPaise - accruedPaise };
}

export function valuePosition(
  position: PositionRow,
  row: BookBond,
  ref: ReferenceRow | undefined,
  dates: ValuationDates,
  valueBondOf: BondValuer,
): ValuedPosition {
  const { perBond, bucket, reference, priced } = valueBondOf(row, ref, dates);
  const valued = 'clean' in priced ? priced : null;
  const money = valued && holdingMoney(position.faceValue / perBond, valued.faceValuePerUnit, valued.clean, valued.accruedPer100);
  // PV01 per ₹100 of face × (face ÷ 100) rupees = × face paise.
  const pv01Paise = valued && Math.round(valued.pv01Per100 * position.faceValue);
  const unrealisedPaise = money && money.principalPaise - position.costPaise;
  // One object literal, no spreads: spreading a 20-field object into another costs V8 ~10 µs a holding.
  const view: Position = {
    id: position.id,
    finstrument_id: row.id,
    isin: row.isin,
    display_name: row.displayName,
    issuer: row.issuerName,
    rating: row.creditRating,
    security_type: row.securityType,
    maturity_date: row.maturityDate,
    maturity_bucket: bucket,
    account: position.account,
    face_value: position.faceValue,
    number_of_bonds: position.faceValue / perBond,
    average_cost: position.faceValue > 0 ? round(position.costPaise / position.faceValue, 4) : 0,
    cost: rupees(position.costPaise),
    as_of: position.asOf,
    realised_pnl: rupees(position.realisedPnlPaise),
    updated_at: position.updatedAt.toISOString(),
    valuation: {
      source: reference.source,
      price_date: reference.price_date,
      age_days: reference.age_days,
      clean_price: valued ? valued.clean : null,
      bond_yield: valued ? valued.bondYield : null,
      not_valued_reason: 'reason' in priced ? priced.reason : null,
    },
    market_value: money && rupees(money.principalPaise),
    accrued_interest: money && rupees(money.accruedPaise),
    dirty_value: money && rupees(money.totalPaise),
    unrealised_pnl: unrealisedPaise === null ? null : rupees(unrealisedPaise),
    modified_duration: valued && valued.modifiedDuration,
    pv01: pv01Paise === null ? null : rupees(pv01Paise),
  };
  return {
    view,
    marketValuePaise: money && money.principalPaise,
    accruedPaise: money && money.accruedPaise,
    unrealisedPaise,
    pv01Paise,
    yield: valued && valued.bondYield,
    modifiedDuration: valued && valued.modifiedDuration,
  };
}

type Totals = z.infer<typeof InventorySchema>['totals'];
type Breakdowns = z.infer<typeof InventorySchema>['breakdowns'];

/** Portfolio totals and breakdowns by issuer, rating, sector (security type) and maturity bucket. */
export function summarise(valued: ValuedPosition[]): { totals: Totals; breakdowns: Breakdowns } {
  let face = 0;
  let cost = 0;
  let mv = 0;
  let accrued = 0;
  let unrealised = 0;
  let realised = 0;
  let pv01 = 0;
  let weightedYield = 0;
  let weightedDuration = 0;
  let notValued = 0;
  type Group = { positions: number; face: number; mv: number; unrealised: number; pv01: number };
  const groups: Record<keyof Breakdowns, Map<string, Group>> = {
    issuer: new Map(),
    rating: new Map(),
    sector: new Map(),
    maturity_bucket: new Map(),
  };
  const add = (map: Map<string, Group>, key: string, v: ValuedPosition) => {
    let g = map.get(key);
    if (!g) map.set(key, (g = { positions: 0, face: 0, mv: 0, unrealised: 0, pv01: 0 }));
    g.positions++;
    g.face += v.view.face_value;
    g.mv += v.marketValuePaise ?? 0;
    g.unrealised += v.unrealisedPaise ?? 0;
    g.pv01 += v.pv01Paise ?? 0;
  };
  for (const v of valued) {
    const p = v.view;
    face += p.face_value;
    cost += Math.round(p.cost * 100);
    realised += Math.round(p.realised_pnl * 100);
    if (v.marketValuePaise === null) notValued++;
    else {
      mv += v.marketValuePaise;
      accrued += v.accruedPaise!;
      unrealised += v.unrealisedPaise!;
      pv01 += v.pv01Paise!;
      weightedYield += v.yield! * v.marketValuePaise;
      weightedDuration += v.modifiedDuration! * v.marketValuePaise;
    }
    add(groups.issuer, p.issuer ?? 'Unknown', v);
    add(groups.rating, p.rating ?? 'Unrated', v);
    add(groups.sector, p.security_type, v);
    add(groups.maturity_bucket, p.maturity_bucket ?? 'Unknown', v);
  }
  const rowsOf = (dimension: keyof Breakdowns) => {
    const order = dimension === 'maturity_bucket' ? (key: string) => MATURITY_BUCKETS.indexOf(key as MaturityBucket) : null;
    return [...groups[dimension].entries()]
      .map(([key, g]) => ({
        key,
        positions: g.positions,
        face_value: g.face,
        market_value: rupees(g.mv),
        unrealised_pnl: rupees(g.unrealised),
        pv01: rupees(g.pv01),
      }))
      .sort((a, b) => (order ? order(a.key) - order(b.key) : b.market_value - a.market_value || a.key.localeCompare(b.key)));
  };
  return {
    totals: {
      positions: valued.length,
      face_value: face,
      cost: rupees(cost),
      market_value: rupees(mv),
      accrued_interest: rupees(accrued),
      unrealised_pnl: rupees(unrealised),
      realised_pnl: rupees(realised),
      pv01: rupees(pv01),
      bond_yield: mv > 0 ? round(weightedYield / mv, 6) : null,
      modified_duration: mv > 0 ? round(weightedDuration / mv, 4) : null,
      not_valued: notValued,
    },
    breakdowns: {
      issuer: rowsOf('issuer'),
      rating: rowsOf('rating'),
      sector: rowsOf('sector'),
      maturity_bucket: rowsOf('maturity_bucket'),
    },
  };
}

export { formatDate };
