/**
 * The bond universe importer: `bond_universe.csv`, `issuers.csv`, the ratings, and the price/yield/trade
 * files into the database. Idempotent: every row carries a content hash and an upsert only touches rows
 * whose hash changed, so a second run reports 0 inserted and 0 updated. Batches run in transactions.
 * Reference prices and the matrix method are described in README.md.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { getTableColumns, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Database } from '../../db/client';
import { finstrumentRatings, finstruments, finstrumentTrades, issuers, referencePrices } from '../../db/schema';
import {
  buildBond,
  dayCountFor,
  formatDate,
  getSettlementForDelta,
  parseDate,
  priceBond,
  yearsBetween,
  type PricingTerms,
} from './finstruments.pricing';
import { buildCurve, type Curve } from './curve';
import { buildSearchText } from './search-index';
import { addModelReferences } from './valuation-references';

export interface ImportOptions {
  /** Folder holding `bonds/` and `trades/` (each file as `.csv.gz` or `.csv`). */
  dataDir: string;
  /** A small deterministic slice (G-secs, T-bills, some SDLs, HDFC bonds, a few of every other type). */
  slice?: boolean;
  batchSize?: number;
  onProgress?: (phase: string, done: number, total: number) => void;
}

/**
 * `onProgress` that writes log lines for a long import (the first start's): one when a phase begins, then
 * at most one every `everyMs` within it, each with the rows done, the total and the time so far.
 */
export function logImportProgress(
  log: { info: (obj: object, msg: string) => void },
  everyMs = 2000,
): NonNullable<ImportOptions['onProgress']> {
  const started = Date.now();
  let phase = '';
  let last = 0;
  return (next, done, total) => {
    const now = Date.now();
    if (next === 'done' || (next === phase && now - last < everyMs)) return;
    phase = next;
    last = now;
    const counts = total > 1 ? ` ${done.toLocaleString('en-IN')}/${total.toLocaleString('en-IN')}` : '';
    log.info({ phase: next, done, total, elapsedMs: now - started }, `importing the bond universe (first start only): ${next}${counts}`);
  };
}

export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
}
export interface ImportSummary {
  issuers: ImportCounts;
  finstruments: ImportCounts;
  ratings: ImportCounts;
  trades: ImportCounts;
  referencePrices: ImportCounts;
  /** Reason → how many rows, across all files. */
  rejectedByReason: Record<string, number>;
  /** The first rejections with their file and key, for the report. */
  rejectedExamples: Array<{ file: string; key: string; reason: string }>;
  curve: { date: string | null; points: number };
  durationMs: number;
}

type Row = Record<string, string>;
const ISIN = /^IN[A-Z0-9]{10}$/;
const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** Face value (₹ per unit) assumed where the data has none (market-standard lot of one unit). */
const DEFAULT_FACE_VALUE: Record<string, number> = {
  'G-Sec': 100,
  SDL: 100,
  'T-Bill': 100,
  'G-Sec STRIPS': 100,
  'G-Sec FRB': 100,
  'Bond/NCD': 100_000,
  'Municipal Bond': 100_000,
  'Securitised Debt (PTC)': 100_000,
  'Commercial Paper': 500_000,
  'Certificate of Deposit': 100_000,
  'ZCZP (Social Stock Exchange)': 10_000,
};
/** Coupon frequency where the data is blank: annual for coupon-paying corporates (most SEBI NCDs pay annually). */
const ASSUMED_CORPORATE_FREQUENCY = 1;
const CORPORATE_COUPON_TYPES = new Set(['Bond/NCD', 'Municipal Bond', 'Securitised Debt (PTC)', 'ZCZP (Social Stock Exchange)']);
/** Trade date of the single-day NSE OTC file: the day it was committed (SOURCE.md). */
const OTC_TRADE_DATE = '2025-08-20';

export { MATRIX_SDL_SPREAD_BP, MATRIX_SPREADS_BP, ratingBucket } from './valuation-model';

/**
 * The data file for `name` (e.g. `bonds/bond_universe.csv`): the gzip copy `name.gz` when present (how
 * the repository keeps its reference data), else the plain `name`. Throws naming both when neither exists.
 */
export function resolveDataFile(dataDir: string, name: string): string {
  const plain = path.join(dataDir, name);
  if (existsSync(`${plain}.gz`)) return `${plain}.gz`;
  if (existsSync(plain)) return plain;
  throw Object.assign(new Error(`ENOENT: no ${name}.gz or ${name} in ${dataDir} (BOND_DATA_DIR)`), { code: 'ENOENT' });
}

/** The whole text of a data file, gunzipped when it is `.gz` (for tests and benchmarks that slice the files). */
export function readDataText(dataDir: string, name: string): string {
  const file = resolveDataFile(dataDir, name);
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Parses a CSV (header row) as it streams off the disk, through gunzip when the file is `.gz`. */
async function readCsv(dataDir: string, name: string): Promise<Row[]> {
  const file = resolveDataFile(dataDir, name);
  const rows: Row[] = [];
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { header: true, skipEmptyLines: true });
  parser.on('data', (row: Row) => rows.push(row));
  if (file.endsWith('.gz')) await pipeline(createReadStream(file), createGunzip(), parser);
  else await pipeline(createReadStream(file), parser);
  return rows;
}
const num = (v: string | undefined): number | null => {
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const str = (v: string | undefined): string | null => (v === undefined || v.trim() === '' ? null : v.trim());
const isoDate = (v: string | undefined): string | null => (v && ISO.test(v.trim()) ? v.trim() : null);
const hash = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex');
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function issuerKeyFor(isin: string): string {
  if (isin.startsWith('IN0')) return 'IN0-GOI';
  if (/^IN[1-4]/.test(isin)) return `SDL-${isin.slice(2, 4)}`;
  return isin.slice(0, 7);
}

class Rejections {
  readonly byReason: Record<string, number> = {};
  readonly examples: Array<{ file: string; key: string; reason: string }> = [];
  add(file: string, key: string, reason: string) {
    this.byReason[reason] = (this.byReason[reason] ?? 0) + 1;
    if (this.examples.length < 50) this.examples.push({ file, key, reason });
  }
}

type FinstrumentInsert = typeof finstruments.$inferInsert;

function selectSlice(rows: Row[]): Row[] {
  const picked = new Set<string>();
  const take = (predicate: (r: Row) => boolean, limit: number) => {
    let n = 0;
    for (const r of rows) {
      if (n >= limit) break;
      if (!picked.has(r.isin!) && predicate(r)) {
        picked.add(r.isin!);
        n++;
      }
    }
  };
  take((r) => r.security_type === 'G-Sec', 400);
  take((r) => r.security_type === 'T-Bill' && r.maturity_after_2026_01_17 === 'Y', 100);
  take((r) => r.security_type === 'T-Bill', 10);
  take((r) => r.security_type === 'SDL' && /maharashtra/i.test(r.issuer_name ?? '') && r.maturity_after_2026_01_17 === 'Y', 60);
  take((r) => r.security_type === 'SDL' && r.maturity_after_2026_01_17 === 'Y', 60);
  take((r) => r.security_type === 'SDL', 10);
  take((r) => /HDFC/i.test(r.issuer_name ?? ''), 120);
  for (const type of [
    'G-Sec STRIPS',
    'Commercial Paper',
    'Certificate of Deposit',
    'SGB',
    'Securitised Debt (PTC)',
    'Security Receipt',
    'Municipal Bond',
    'G-Sec FRB',
    'ZCZP (Social Stock Exchange)',
  ])
    take((r) => r.security_type === type, 8);
  take((r) => r.security_type === 'Bond/NCD' && r.maturity_after_2026_01_17 === 'Y' && r.credit_rating !== '' && r.coupon_rate !== '', 60);
  take((r) => r.perpetual === 'Y', 3);
  // Dated perpetuals (a redemption date in the name, one long past): the maturity rule's edge case (issue 12).
  take((r) => r.perpetual === 'Y' && Boolean(r.maturity_date), 2);
  return rows.filter((r) => picked.has(r.isin!));
}

function toTerms(f: FinstrumentInsert): PricingTerms {
  return {
    isin: f.isin,
    displayName: f.displayName,
    securityType: f.securityType,
    couponRate: f.couponRate ?? null,
    couponFrequency: f.couponFrequency ?? null,
    faceValue: f.faceValue ?? null,
    issueDate: f.issueDate ?? null,
    listingDate: f.listingDate ?? null,
    maturityDate: f.maturityDate ?? null,
    perpetual: f.perpetual ?? false,
    tenorDays: f.tenorDays ?? null,
    callSchedule: f.callSchedule ?? [],
    putSchedule: f.putSchedule ?? [],
  };
}

/** Builds a finstrument row from a universe row; null (with a rejection) when unusable. */
function toFinstrument(r: Row, rejections: Rejections): FinstrumentInsert | null {
  const isin = (r.isin ?? '').trim().toUpperCase();
  if (!ISIN.test(isin)) {
    rejections.add('bond_universe.csv', r.isin ?? '', 'invalid ISIN');
    return null;
  }
  const securityType = str(r.security_type);
  if (!securityType) {
    rejections.add('bond_universe.csv', isin, 'missing security type');
    return null;
  }
  const provenance: Record<string, string> = {};
  const assumed: string[] = [];
  const maturityDate = isoDate(r.maturity_date);
  if (r.maturity_date && !maturityDate) rejections.add('bond_universe.csv', isin, 'unparseable maturity date (kept without it)');
  const issuerName = str(r.issuer_name);
  let displayName = str(r.display_name);
  if (displayName) provenance.display_name = 'bond_universe.csv display_name (built by the conversion)';
  else {
    displayName = [str(r.security_name) ?? issuerName ?? isin, maturityDate ?? ''].join(' ').trim();
    provenance.display_name = 'security_name + maturity_date (no display_name in the data)';
  }
  const couponRate = num(r.coupon_rate);
  if (couponRate !== null) provenance.coupon_rate = `bond_universe.csv coupon_rate; source: ${str(r.coupon_source) ?? 'not stated'}`;
  let couponFrequency: number | null = null;
  if (r.coupon_frequency === 'Semi-annual') {
    couponFrequency = 2;
    provenance.coupon_frequency = `bond_universe.csv coupon_frequency (${str(r.coupon_frequency_basis) ?? 'market convention'})`;
  } else if (r.coupon_frequency?.startsWith('None')) {
    couponFrequency = 0;
    provenance.coupon_frequency = 'bond_universe.csv coupon_frequency (discount instrument)';
  } else if (CORPORATE_COUPON_TYPES.has(securityType) && couponRate !== null && couponRate > 0) {
    couponFrequency = ASSUMED_CORPORATE_FREQUENCY;
    assumed.push('coupon_frequency');
    provenance.coupon_frequency = 'assumed annual: no source gives corporate coupon frequencies';
  }
  let faceValue = num(r.face_value);
  if (faceValue !== null && faceValue > 0) provenance.face_value = 'bond_universe.csv face_value (NSE or NSDL "FV RS" text)';
  else if (DEFAULT_FACE_VALUE[securityType]) {
    faceValue = DEFAULT_FACE_VALUE[securityType]!;
    assumed.push('face_value');
    provenance.face_value = `assumed ₹${faceValue.toLocaleString('en-IN')} per unit (market-standard for ${securityType})`;
  } else faceValue = null;
  const dayCount = dayCountFor(securityType);
  if (dayCount) provenance.day_count = 'market convention for the security type (bond-math preset)';
  if (maturityDate) provenance.maturity_date = `bond_universe.csv maturity_date; source: ${str(r.maturity_source) ?? 'not stated'}`;
  if (isoDate(r.listing_date)) provenance.listing_date = 'NSE listing date';
  if (isoDate(r.issue_date)) provenance.issue_date = 'NSE allotment date or NSDL SGB issue date';
  if (issuerName) provenance.issuer_name = `bond_universe.csv issuer_name; source: ${str(r.issuer_name_source) ?? 'not stated'}`;
  if (str(r.credit_rating)) provenance.credit_rating = str(r.rating_source) ?? 'bond_universe.csv credit_rating';
  const exchanges = (r.listed_exchanges_latest ?? '')
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  provenance.is_listed = 'bond_universe.csv listed_exchanges_latest (NSE DEBT 2026-01-17, BSE scrips 2025-11-10)';
  provenance.call_schedule = 'none: no public call/put schedules were found';
  const row: FinstrumentInsert = {
    isin,
    displayName,
    longName: str(r.security_name),
    issuerKey: issuerKeyFor(isin),
    issuerName,
    securityType,
    couponRate,
    couponFrequency,
    dayCount,
    faceValue,
    paidUpValue: num(r.paid_up_value),
    issueDate: isoDate(r.issue_date),
    listingDate: isoDate(r.listing_date),
    maturityDate,
    maturityYear: num(r.maturity_year),
    perpetual: r.perpetual === 'Y',
    tenorDays: num(r.tenor_days),
    callSchedule: [],
    putSchedule: [],
    isListed: exchanges.length > 0,
    exchanges,
    nseSymbol: str(r.nse_symbol),
    nseSeries: str(r.nse_series),
    bseScripCode: str(r.bse_scrip_code),
    bseSymbol: str(r.bse_symbol),
    isinStatus: str(r.isin_status_nsdl),
    creditRating: str(r.credit_rating),
    ratingAgency: str(r.rating_agency),
    ratingAsOf: isoDate(r.rating_as_of),
    provenance,
    assumed,
    searchText: '',
    liquidity: 0,
    referenceYield: null,
    referenceSource: null,
    contentHash: '',
  };
  row.searchText = buildSearchText(row);
  return row;
}

interface RefCandidate {
  date: string;
  clean: number | null;
  yieldFraction: number;
  source: string;
  priority: number;
  detail: string;
}
interface TradeCandidate {
  isin: string;
  date: string;
  kind: string;
  price: number | null;
  yieldFraction: number | null;
  valueInr: number | null;
  numTrades: number | null;
  detail: string;
  source: string;
}

export { curveYield, type Curve } from './curve';

export async function importBonds(database: Database, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => {});
  const batchSize = options.batchSize ?? 500;
  const rejections = new Rejections();
  const db = database.db;

  progress('reading files', 0, 1);
  let universe = await readCsv(options.dataDir, 'bonds/bond_universe.csv');
  if (options.slice) universe = selectSlice(universe);
  const byIsin = new Map<string, FinstrumentInsert>();
  for (const r of universe) {
    const f = toFinstrument(r, rejections);
    if (!f) continue;
    if (byIsin.has(f.isin)) {
      rejections.add('bond_universe.csv', f.isin, 'duplicate ISIN');
      continue;
    }
    byIsin.set(f.isin, f);
  }
  const universeRows = new Map(universe.map((r) => [r.isin!.trim().toUpperCase(), r]));

  // Issuers: the issuer list, plus any issuer key a bond needs that the list lacks.
  const issuerRows = new Map<string, typeof issuers.$inferInsert>();
  for (const r of await readCsv(options.dataDir, 'bonds/issuers.csv')) {
    const key = str(r.issuer_key);
    const name = str(r.issuer_name);
    if (!key || !name) {
      rejections.add('issuers.csv', r.issuer_key ?? '', 'missing issuer key or name');
      continue;
    }
    issuerRows.set(key, { key, name, securityTypes: str(r.security_types), mostCommonRating: str(r.most_common_rating), contentHash: '' });
  }
  for (const f of byIsin.values()) {
    if (f.issuerKey && !issuerRows.has(f.issuerKey))
      issuerRows.set(f.issuerKey, {
        key: f.issuerKey,
        name: f.issuerName ?? f.issuerKey,
        securityTypes: f.securityType,
        mostCommonRating: null,
        contentHash: '',
      });
  }
  const neededIssuers = new Set([...byIsin.values()].map((f) => f.issuerKey));
  const issuerList = [...issuerRows.values()].filter((i) => !options.slice || neededIssuers.has(i.key));
  for (const i of issuerList) i.contentHash = hash([i.name, i.securityTypes, i.mostCommonRating]);

  // Ratings: every agency/rating pair seen (universe `ratings_seen`, MF ratings file).
  const ratings: Array<{ isin: string; agency: string; rating: string; asOf: string | null; source: string }> = [];
  const ratingKey = new Set<string>();
  const addRating = (isin: string, agency: string, rating: string, asOf: string | null, source: string) => {
    const k = `${isin}|${agency}|${rating}|${source}`;
    if (ratingKey.has(k)) return;
    ratingKey.add(k);
    ratings.push({ isin, agency, rating, asOf, source });
  };
  for (const [isin, r] of universeRows) {
    if (!byIsin.has(isin)) continue;
    for (const seen of (r.ratings_seen ?? '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const parts = seen.split(/\s+/);
      const rating = parts.pop()!;
      addRating(
        isin,
        parts.join(' ') || (rating === 'SOVEREIGN' ? 'Sovereign' : 'Not stated'),
        rating,
        isoDate(r.rating_as_of),
        str(r.rating_source) ?? 'bond_universe.csv ratings_seen',
      );
    }
  }
  for (const r of await readCsv(options.dataDir, 'bonds/ratings_from_mf_portfolios.csv')) {
    const isin = (r.isin ?? '').trim();
    if (!byIsin.has(isin)) {
      if (!options.slice) rejections.add('ratings_from_mf_portfolios.csv', isin, 'ISIN not in the universe');
      continue;
    }
    const rating = str(r.rating);
    if (!rating) continue;
    addRating(
      isin,
      str(r.rating_agency) ?? (rating === 'SOVEREIGN' ? 'Sovereign' : 'Not stated'),
      rating,
      isoDate(r.rating_as_of),
      `MF portfolios ${str(r.amcs) ?? ''}`.trim(),
    );
  }

  // Trades and observed prices.
  const trades: TradeCandidate[] = [];
  const tradeSeen = new Set<string>();
  const addTrade = (t: TradeCandidate) => {
    const k = `${t.isin}|${t.date}|${t.kind}|${t.detail}`;
    if (tradeSeen.has(k)) return;
    tradeSeen.add(k);
    trades.push(t);
  };
  const refs = new Map<string, RefCandidate[]>();
  const addRef = (isin: string, ref: RefCandidate) => {
    const list = refs.get(isin) ?? [];
    list.push(ref);
    refs.set(isin, list);
  };
  const liquidity = new Map<string, number>();

  const yieldAt = (f: FinstrumentInsert, tradeDate: string, per100: number): number | null => {
    try {
      const trade = parseDate(tradeDate);
      const settlement = getSettlementForDelta(null, trade, 1);
      const built = buildBond(toTerms(f), settlement);
      if (!built.ok) return null;
      return priceBond(built.bond, settlement, { price: per100 }).yieldRate;
    } catch {
      return null;
    }
  };

  const nse = await readCsv(options.dataDir, 'trades/nse_cm_debt_segment_prices_2025-12-16_to_18.csv');
  progress('pricing exchange closes', 0, nse.length);
  let n = 0;
  for (const r of nse) {
    if (++n % 100 === 0) progress('pricing exchange closes', n, nse.length);
    const isin = (r.isin ?? '').trim();
    const f = byIsin.get(isin);
    if (!f) {
      if (!options.slice) rejections.add('nse_cm_debt_segment_prices', isin, 'ISIN not in the universe');
      continue;
    }
    const date = isoDate(r.trade_date);
    const close = num(r.close);
    if (!date || close === null || close <= 0) {
      rejections.add('nse_cm_debt_segment_prices', isin, 'missing trade date or close');
      continue;
    }
    const value = num(r.traded_value_inr);
    liquidity.set(isin, (liquidity.get(isin) ?? 0) + (value ?? 0));
    const series = r.series ?? '';
    const detail = `${r.symbol ?? ''} ${series}`.trim();
    if (series === 'GB') {
      addTrade({
        isin,
        date,
        kind: 'NSE_CM_CLOSE',
        price: null,
        yieldFraction: null,
        valueInr: value,
        numTrades: num(r.num_trades),
        detail: `${detail}: close ₹${close} per gram of gold`,
        source: 'NSE CM bhavcopy (pd)',
      });
      continue;
    }
    // Retail NCD closes are per unit (₹1,000 or the face value): scale to per ₹100.
    const per100 = ['GS', 'SG', 'TB'].includes(series) || !f.faceValue ? close : (close / f.faceValue) * 100;
    if (per100 < 20 || per100 > 250) {
      rejections.add('nse_cm_debt_segment_prices', isin, 'price outside 20–250 per ₹100 after face-value scaling');
      addTrade({
        isin,
        date,
        kind: 'NSE_CM_CLOSE',
        price: null,
        yieldFraction: null,
        valueInr: value,
        numTrades: num(r.num_trades),
        detail: `${detail}: close ${close} per unit`,
        source: 'NSE CM bhavcopy (pd)',
      });
      continue;
    }
    const y = yieldAt(f, date, per100);
    addTrade({
      isin,
      date,
      kind: 'NSE_CM_CLOSE',
      price: per100,
      yieldFraction: y,
      valueInr: value,
      numTrades: num(r.num_trades),
      detail,
      source: 'NSE CM bhavcopy (pd)',
    });
    if (y !== null && y > 0 && y < 0.3 && (num(r.num_trades) ?? 0) > 0)
      addRef(isin, { date, clean: per100, yieldFraction: y, source: 'NSE_CM_CLOSE', priority: 1, detail: `NSE close ${date} (${detail})` });
  }

  for (const r of await readCsv(options.dataDir, 'trades/nse_corporate_bond_trades_one_day_2025-08.csv')) {
    const isin = (r.isin ?? '').trim();
    const f = byIsin.get(isin);
    if (!f) {
      if (!options.slice) rejections.add('nse_corporate_bond_trades', isin, 'ISIN not in the universe');
      continue;
    }
    const price = num(r.weighted_avg_price);
    const y = num(r.weighted_avg_yield_pct);
    const value = num(r.value_lakh);
    if (price === null || y === null) {
      rejections.add('nse_corporate_bond_trades', isin, 'missing price or yield');
      continue;
    }
    liquidity.set(isin, (liquidity.get(isin) ?? 0) + (value ?? 0) * 1e5);
    addTrade({
      isin,
      date: OTC_TRADE_DATE,
      kind: 'NSE_OTC_TRADE',
      price,
      yieldFraction: y / 100,
      valueInr: value === null ? null : value * 1e5,
      numTrades: num(r.num_trades),
      detail: 'weighted average',
      source: 'NSE reported OTC trades (date assumed: file committed 2025-08-20)',
    });
    if (y > 0 && y < 30)
      addRef(isin, {
        date: OTC_TRADE_DATE,
        clean: price,
        yieldFraction: y / 100,
        source: 'NSE_OTC_TRADE',
        priority: 2,
        detail: 'NSE reported OTC trades, weighted average',
      });
  }

  const mf = await readCsv(options.dataDir, 'trades/mf_portfolio_debt_valuations_2024-01_to_2025-09.csv');
  const mfByIsinDate = new Map<string, number[]>();
  progress('reading fund valuations', 0, mf.length);
  for (const r of mf) {
    const isin = (r.isin ?? '').trim();
    if (!byIsin.has(isin)) {
      if (!options.slice) rejections.add('mf_portfolio_debt_valuations', isin, 'ISIN not in the universe');
      continue;
    }
    const date = isoDate(r.as_of_date);
    const y = num(r.yield_pct);
    if (!date || y === null || y <= 0 || y > 30) {
      rejections.add('mf_portfolio_debt_valuations', isin, 'valuation yield missing, zero or above 30 %');
      continue;
    }
    const value = num(r.market_value_lakh);
    addTrade({
      isin,
      date,
      kind: 'MF_VALUATION',
      price: null,
      yieldFraction: y / 100,
      valueInr: value === null ? null : value * 1e5,
      numTrades: null,
      detail: `${r.amc ?? ''}: ${r.scheme ?? ''}`.slice(0, 200),
      source: 'SEBI MF portfolio disclosure',
    });
    const k = `${isin}|${date}`;
    const list = mfByIsinDate.get(k) ?? [];
    list.push(y / 100);
    mfByIsinDate.set(k, list);
  }
  const latestMf = new Map<string, { date: string; yields: number[] }>();
  for (const [k, yields] of mfByIsinDate) {
    const [isin, date] = k.split('|') as [string, string];
    const current = latestMf.get(isin);
    if (!current || date > current.date) latestMf.set(isin, { date, yields });
  }
  for (const [isin, { date, yields }] of latestMf)
    addRef(isin, {
      date,
      clean: null,
      yieldFraction: median(yields),
      source: 'MF_VALUATION',
      priority: 3,
      detail: `median of ${yields.length} fund valuation yield(s) on ${date}`,
    });

  // The G-sec curve from the latest exchange closes of dated G-secs (semi-annual street yields).
  const latestGsec = [...refs.entries()].filter(([isin]) => byIsin.get(isin)?.securityType === 'G-Sec');
  const curveDate =
    latestGsec
      .flatMap(([, list]) => list.filter((x) => x.source === 'NSE_CM_CLOSE').map((x) => x.date))
      .sort()
      .at(-1) ?? null;
  let curve: Curve | null = null;
  if (curveDate) {
    const asOf = parseDate(curveDate);
    const gsecPoints: Array<{ tenor: number; yieldRate: number }> = [];
    for (const [isin, list] of latestGsec) {
      const obs = list.filter((x) => x.source === 'NSE_CM_CLOSE' && x.date === curveDate)[0];
      const f = byIsin.get(isin)!;
      if (!obs || !f.maturityDate) continue;
      gsecPoints.push({ tenor: yearsBetween(asOf, parseDate(f.maturityDate)), yieldRate: obs.yieldFraction });
    }
    curve = buildCurve(curveDate, gsecPoints);
  }

  // Model yields for priceable bonds with no observation: curve + a spread fitted from our observations.
  if (curve) addModelReferences(curve, { bonds: byIsin, refs, ratings, addRef, termsOf: toTerms });

  // Denormalise the best reference yield and the liquidity onto the finstrument, then hash.
  for (const f of byIsin.values()) {
    const best = (refs.get(f.isin) ?? []).sort((a, b) => a.priority - b.priority || (a.date < b.date ? 1 : -1))[0];
    f.referenceYield = best?.yieldFraction ?? null;
    f.referenceSource = best?.source ?? null;
    f.liquidity = liquidity.get(f.isin) ?? 0;
    const { contentHash: _ignored, ...rest } = f;
    f.contentHash = hash(rest);
  }

  const summary: ImportSummary = {
    issuers: { inserted: 0, updated: 0, unchanged: 0, rejected: 0 },
    finstruments: { inserted: 0, updated: 0, unchanged: 0, rejected: universe.length - byIsin.size },
    ratings: { inserted: 0, updated: 0, unchanged: 0, rejected: 0 },
    trades: { inserted: 0, updated: 0, unchanged: 0, rejected: 0 },
    referencePrices: { inserted: 0, updated: 0, unchanged: 0, rejected: 0 },
    rejectedByReason: rejections.byReason,
    rejectedExamples: rejections.examples,
    curve: { date: curve?.date ?? null, points: curve?.points.length ?? 0 },
    durationMs: 0,
  };

  const inBatches = async <T>(
    phase: string,
    rows: T[],
    write: (batch: T[], tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<Array<{ inserted: boolean }>>,
    counts: ImportCounts,
  ) => {
    for (let i = 0; i < rows.length; i += batchSize) {
      const batch = rows.slice(i, i + batchSize);
      const changed = await db.transaction((tx) => write(batch, tx));
      const inserted = changed.filter((c) => c.inserted).length;
      counts.inserted += inserted;
      counts.updated += changed.length - inserted;
      counts.unchanged += batch.length - changed.length;
      progress(phase, Math.min(i + batchSize, rows.length), rows.length);
    }
  };
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  const wasInserted = sql<boolean>`(xmax = 0)`;

  await inBatches(
    'issuers',
    issuerList,
    (batch, tx) =>
      tx
        .insert(issuers)
        .values(batch)
        .onConflictDoUpdate({
          target: issuers.key,
          set: {
            name: excluded('name'),
            securityTypes: excluded('security_types'),
            mostCommonRating: excluded('most_common_rating'),
            contentHash: excluded('content_hash'),
            updatedAt: sql`now()`,
          },
          setWhere: sql`${issuers.contentHash} <> excluded.content_hash`,
        })
        .returning({ inserted: wasInserted }),
    summary.issuers,
  );

  const finstrumentList = [...byIsin.values()];
  const updatable = Object.entries(getTableColumns(finstruments)).filter(([key]) => !['id', 'isin', 'createdAt'].includes(key));
  const setAll = Object.fromEntries(updatable.map(([key, column]) => [key, key === 'updatedAt' ? sql`now()` : excluded(column.name)]));
  await inBatches(
    'finstruments',
    finstrumentList,
    (batch, tx) =>
      tx
        .insert(finstruments)
        .values(batch)
        .onConflictDoUpdate({
          target: finstruments.isin,
          set: setAll,
          setWhere: sql`${finstruments.contentHash} <> excluded.content_hash`,
        })
        .returning({ inserted: wasInserted }),
    summary.finstruments,
  );

  const idRows = await database.query<{ id: number; isin: string }>('SELECT id, isin FROM finstruments');
  const ids = new Map(idRows.map((r) => [r.isin, Number(r.id)]));

  const ratingRows = ratings.map((r) => ({
    finstrumentId: ids.get(r.isin)!,
    agency: r.agency,
    rating: r.rating,
    asOf: r.asOf,
    source: r.source.slice(0, 200),
  }));
  await inBatches(
    'ratings',
    ratingRows,
    (batch, tx) =>
      tx
        .insert(finstrumentRatings)
        .values(batch)
        .onConflictDoUpdate({
          target: [finstrumentRatings.finstrumentId, finstrumentRatings.agency, finstrumentRatings.rating, finstrumentRatings.source],
          set: { asOf: excluded('as_of') },
          setWhere: sql`${finstrumentRatings.asOf} IS DISTINCT FROM excluded.as_of`,
        })
        .returning({ inserted: wasInserted }),
    summary.ratings,
  );

  const tradeRows = trades.map((t) => ({
    finstrumentId: ids.get(t.isin)!,
    tradeDate: t.date,
    kind: t.kind,
    pricePer100: t.price,
    yieldFraction: t.yieldFraction,
    valueInr: t.valueInr,
    numTrades: t.numTrades,
    detail: t.detail,
    source: t.source,
  }));
  await inBatches(
    'trades',
    tradeRows,
    (batch, tx) =>
      tx
        .insert(finstrumentTrades)
        .values(batch)
        .onConflictDoUpdate({
          target: [finstrumentTrades.finstrumentId, finstrumentTrades.tradeDate, finstrumentTrades.kind, finstrumentTrades.detail],
          set: {
            pricePer100: excluded('price_per_100'),
            yieldFraction: excluded('yield_fraction'),
            valueInr: excluded('value_inr'),
            numTrades: excluded('num_trades'),
            source: excluded('source'),
          },
          setWhere: sql`(${finstrumentTrades.pricePer100}, ${finstrumentTrades.yieldFraction}, ${finstrumentTrades.valueInr}, ${finstrumentTrades.numTrades}, ${finstrumentTrades.source}) IS DISTINCT FROM (excluded.price_per_100, excluded.yield_fraction, excluded.value_inr, excluded.num_trades, excluded.source)`,
        })
        .returning({ inserted: wasInserted }),
    summary.trades,
  );

  const refRows = [...refs.entries()].flatMap(([isin, list]) => {
    // One row per source: its latest observation.
    const latest = new Map<string, RefCandidate>();
    for (const ref of list) if (!latest.has(ref.source) || latest.get(ref.source)!.date < ref.date) latest.set(ref.source, ref);
    return [...latest.values()].map((ref) => ({
      finstrumentId: ids.get(isin)!,
      priceDate: ref.date,
      cleanPrice: ref.clean,
      yieldFraction: ref.yieldFraction,
      source: ref.source,
      priority: ref.priority,
      detail: ref.detail,
    }));
  });
  await inBatches(
    'reference prices',
    refRows,
    (batch, tx) =>
      tx
        .insert(referencePrices)
        .values(batch)
        .onConflictDoUpdate({
          target: [referencePrices.finstrumentId, referencePrices.source, referencePrices.priceDate],
          set: {
            cleanPrice: excluded('clean_price'),
            yieldFraction: excluded('yield_fraction'),
            priority: excluded('priority'),
            detail: excluded('detail'),
          },
          setWhere: sql`(${referencePrices.cleanPrice}, ${referencePrices.yieldFraction}, ${referencePrices.detail}) IS DISTINCT FROM (excluded.clean_price, excluded.yield_fraction, excluded.detail)`,
        })
        .returning({ inserted: wasInserted }),
    summary.referencePrices,
  );

  // Without fresh statistics the planner ignores the trigram index after a bulk load (ARCHITECTURE pitfalls).
  if (summary.finstruments.inserted + summary.finstruments.updated > 0) {
    progress('vacuum analyze', 0, 1);
    for (const table of ['issuers', 'finstruments', 'finstrument_ratings', 'finstrument_trades', 'reference_prices'])
      await database.exec(`VACUUM ANALYZE ${table}`);
  }
  summary.durationMs = Date.now() - started;
  progress('done', 1, 1);
  return summary;
}

export { formatDate };
