/**
 * The book as grid rows: holdings, optionally grouped (issuer, rating, maturity bucket) under a group row with the
 * group's subtotals, and the totals row. Figures shown in ₹ lakh/crore; P&L always with its sign (never colour
 * alone).
 */
import { formatRupeesCompact, MATURITY_BUCKETS, priceSourceLabel, type Inventory, type Position } from '@dart/contracts';

export const GROUPINGS = ['none', 'issuer', 'rating', 'maturity_bucket'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const GROUPING_LABELS: Record<Grouping, string> = {
  none: 'No grouping',
  issuer: 'Issuer',
  rating: 'Rating',
  maturity_bucket: 'Maturity bucket',
};

/** The figures a group row or the totals row adds up. */
export interface Subtotals {
  positions: number;
  face_value: number;
  cost: number;
  market_value: number;
  accrued_interest: number;
  unrealised_pnl: number;
  pv01: number;
}

export type BookRow =
  | { kind: 'position'; id: string; position: Position; depth: 0 | 1 }
  | { kind: 'group'; id: string; label: string; collapsed: boolean; totals: Subtotals }
  | { kind: 'total'; id: string; label: string; totals: Subtotals };

export function groupKeyOf(position: Position, grouping: Grouping): string {
  if (grouping === 'issuer') return position.issuer ?? 'Unknown issuer';
  if (grouping === 'rating') return position.rating ?? 'Unrated';
  if (grouping === 'maturity_bucket') return position.maturity_bucket ?? 'Not valued';
  return '';
}

export function subtotal(positions: readonly Position[]): Subtotals {
  const paise = (pick: (p: Position) => number | null) => positions.reduce((sum, p) => sum + Math.round((pick(p) ?? 0) * 100), 0) / 100;
  return {
    positions: positions.length,
    face_value: positions.reduce((sum, p) => sum + p.face_value, 0),
    cost: paise((p) => p.cost),
    market_value: paise((p) => p.market_value),
    accrued_interest: paise((p) => p.accrued_interest),
    unrealised_pnl: paise((p) => p.unrealised_pnl),
    pv01: paise((p) => p.pv01),
  };
}

/** Groups in a reading order: maturity buckets short to long, the rest by name. */
function orderGroups(keys: string[], grouping: Grouping): string[] {
  if (grouping === 'maturity_bucket') {
    const rank = (key: string) => {
      const at = (MATURITY_BUCKETS as readonly string[]).indexOf(key);
      return at < 0 ? MATURITY_BUCKETS.length : at;
    };
    return keys.sort((a, b) => rank(a) - rank(b));
  }
  return keys.sort((a, b) => a.localeCompare(b));
}

/** The grid's rows for a grouping; a collapsed group shows only its group row. */
export function bookRows(positions: readonly Position[], grouping: Grouping, collapsed: ReadonlySet<string>): BookRow[] {
  if (grouping === 'none') return positions.map((position) => ({ kind: 'position', id: position.id, position, depth: 0 }));
  const groups = new Map<string, Position[]>();
  for (const position of positions) {
    const key = groupKeyOf(position, grouping);
    groups.set(key, [...(groups.get(key) ?? []), position]);
  }
  const rows: BookRow[] = [];
  for (const key of orderGroups([...groups.keys()], grouping)) {
    const members = groups.get(key)!;
    const closed = collapsed.has(key);
    rows.push({ kind: 'group', id: `group:${key}`, label: key, collapsed: closed, totals: subtotal(members) });
    if (!closed) for (const position of members) rows.push({ kind: 'position', id: position.id, position, depth: 1 });
  }
  return rows;
}

/** The totals row (the whole book, from the server's totals). */
export function totalsRow(inventory: Inventory): BookRow {
  const t = inventory.totals;
  return {
    kind: 'total',
    id: 'total',
    label: `Total · ${t.positions} ${t.positions === 1 ? 'holding' : 'holdings'}`,
    totals: {
      positions: t.positions,
      face_value: t.face_value,
      cost: t.cost,
      market_value: t.market_value,
      accrued_interest: t.accrued_interest,
      unrealised_pnl: t.unrealised_pnl,
      pv01: t.pv01,
    },
  };
}

/** Rupees in lakh/crore ('₹1.25 Cr'); '—' for none. */
export const money = (value: number | null | undefined) => (value === null || value === undefined ? '—' : formatRupeesCompact(value));

export type PnlTone = 'gain' | 'loss' | 'flat';
export const pnlTone = (value: number | null | undefined): PnlTone =>
  value === null || value === undefined || Math.abs(value) < 0.005 ? 'flat' : value > 0 ? 'gain' : 'loss';

/** P&L with its sign spelled out: '+₹1.20 L', '−₹35,000.00', '₹0.00'. */
export function formatPnl(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const tone = pnlTone(value);
  if (tone === 'flat') return formatRupeesCompact(0);
  return `${tone === 'gain' ? '+' : '−'}${formatRupeesCompact(Math.abs(value))}`;
}

/** Where a holding's valuation comes from and how old it is: 'NSE closing price · 2 days old'. */
export function valuationSourceText(position: Position): string {
  const v = position.valuation;
  if (!v.source) return v.not_valued_reason ?? 'Not valued';
  const age = v.age_days === null ? '' : v.age_days === 0 ? ' · today' : ` · ${v.age_days} ${v.age_days === 1 ? 'day' : 'days'} old`;
  return `${priceSourceLabel(v.source)}${age}`;
}

/** Short source names for the dense grid (the tooltip has the full words). */
const SHORT_SOURCES: Record<string, string> = {
  NSE_CM_CLOSE: 'NSE close',
  NSE_OTC_TRADE: 'NSE OTC',
  MF_VALUATION: 'MF valuation',
  MATRIX: 'Matrix',
};
export function shortSource(position: Position): string {
  const v = position.valuation;
  if (!v.source) return 'Not valued';
  return SHORT_SOURCES[v.source] ?? priceSourceLabel(v.source);
}
