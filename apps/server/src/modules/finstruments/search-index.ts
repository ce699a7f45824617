/**
 * The in-memory token index behind the bond search: the header search box and the Find grid's search
 * filter both ask it (one search, one ranking). The database holds the truth; each node keeps this
 * read-only copy built from it at start and rebuilt when the table's signature (row count, last update)
 * changes. One search is a few binary searches over a sorted token list plus a scored sort of the
 * candidates: well under a millisecond on 32,000 bonds.
 *
 * Ranking (issue 4, issue 12): an exact ISIN first; then live bonds before matured ones (which cannot be
 * selected); within each, ISIN prefix, then exchange symbol, then name/issuer tokens (every query token
 * must prefix-match a token of the bond, in any order), then the better token match, then listed bonds,
 * bonds with a reference price, liquid bonds, nearer maturities (matured: the most recent first), and
 * the ISIN. Without a query the Find grid orders by the same static keys (`FIND_DEFAULT_ORDER` in the
 * repository).
 */
import type { FinstrumentSummary } from '@dart/contracts';
import { MATURED_LABEL, UNLISTED_LABEL } from '@dart/contracts';

export interface IndexedBond {
  id: number;
  isin: string;
  displayName: string;
  securityType: string;
  issuerName: string | null;
  couponRate: number | null;
  maturityDate: string | null;
  maturityYear: number | null;
  isListed: boolean;
  creditRating: string | null;
  liquidity: number;
  nseSymbol: string | null;
  bseSymbol: string | null;
  bseScripCode: string | null;
  longName: string | null;
  perpetual: boolean;
  /** A reference yield is stored (the grid shows a price, the pricing panel has a default). */
  hasPrice: boolean;
}

/**
 * The one maturity rule (search labels, the Find grid, the security page): a bond is matured when its
 * maturity date is known and before today (IST). A perpetual with a date in the data (a redemption or call
 * date in its name, e.g. "9.48% NCD 02-Feb-2015") follows that date; an undated perpetual never matures.
 */
export function isMaturedOn(maturityDate: string | null, today: string): boolean {
  return maturityDate !== null && maturityDate < today;
}

const TYPE_SYNONYMS: Record<string, string[]> = {
  'G-Sec': ['gs', 'gsec', 'govt', 'government', 'goi', 'gilt'],
  SDL: ['sdl', 'state', 'sgs'],
  'T-Bill': ['tbill', 'tb', 'dtb', 'treasury'],
  'G-Sec STRIPS': ['strips', 'gsec', 'goi'],
  'G-Sec FRB': ['frb', 'gsec', 'floating'],
  SGB: ['sgb', 'gold'],
  'Bond/NCD': ['ncd', 'bond'],
  'Commercial Paper': ['cp'],
  'Certificate of Deposit': ['cd'],
  'Securitised Debt (PTC)': ['ptc'],
  'Municipal Bond': ['municipal', 'muni'],
  'Security Receipt': ['sr', 'arc'],
};

/** Lower-case tokens: words, numbers and decimals ("7.26"); "g-sec"/"t-bill" kept whole. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\bg-sec\b/g, 'gsec')
    .replace(/\bt-bill\b/g, 'tbill')
    .replace(/[^a-z0-9.]+/g, ' ')
    .split(' ')
    .map((t) => t.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);
}

function couponText(rate: number | null): string | null {
  if (rate === null || rate <= 0) return null;
  return String(Number(rate.toFixed(4)));
}

function tokensOf(b: IndexedBond): Set<string> {
  const tokens = new Set<string>([
    ...tokenize(b.displayName),
    ...tokenize(b.issuerName ?? ''),
    ...tokenize(b.longName ?? ''),
    ...(TYPE_SYNONYMS[b.securityType] ?? []),
  ]);
  const coupon = couponText(b.couponRate);
  if (coupon) tokens.add(coupon);
  const year = b.maturityDate ? b.maturityDate.slice(0, 4) : b.maturityYear ? String(b.maturityYear) : null;
  if (year) tokens.add(year);
  if (b.perpetual) tokens.add('perpetual');
  return tokens;
}

/** The text stored in `finstruments.search_text` (trigram-indexed for the Find grid and SQL fallback). */
export function buildSearchText(row: {
  isin: string;
  displayName: string;
  longName?: string | null;
  issuerName?: string | null;
  nseSymbol?: string | null;
  bseSymbol?: string | null;
  bseScripCode?: string | null;
  securityType: string;
}): string {
  return [
    row.isin,
    row.displayName,
    row.issuerName,
    row.longName,
    row.nseSymbol,
    row.bseSymbol,
    row.bseScripCode,
    ...(TYPE_SYNONYMS[row.securityType] ?? []),
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

type SummaryInput = Pick<
  IndexedBond,
  'id' | 'isin' | 'displayName' | 'securityType' | 'issuerName' | 'couponRate' | 'maturityDate' | 'isListed' | 'creditRating'
>;

export function toSummary(b: SummaryInput, today: string): FinstrumentSummary {
  const isMatured = isMaturedOn(b.maturityDate, today);
  const label = (isMatured ? MATURED_LABEL : !b.isListed ? UNLISTED_LABEL : '') + b.displayName;
  return {
    id: b.id,
    display_name: b.displayName,
    label,
    available: !isMatured && b.isListed,
    identifiers: { ISIN: b.isin },
    contract_parameters: { is_listed: b.isListed, maturity_date: b.maturityDate },
    security_type: b.securityType,
    issuer_name: b.issuerName,
    coupon_rate: b.couponRate,
    credit_rating: b.creditRating,
    is_matured: isMatured,
  };
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

/** One candidate of a query: the bond's position in the index and its numeric rank (higher is better). */
interface Ranked {
  i: number;
  rank: number;
}
/** Best first; equal ranks by ISIN (the index is sorted by ISIN), so ties resolve the same on every node. */
const byRank = (a: Ranked, b: Ranked) => b.rank - a.rank || a.i - b.i;

export class SearchIndex {
  readonly size: number;
  private readonly bonds: IndexedBond[];
  private readonly sortedIsins: string[];
  private readonly isinToIndex = new Map<string, number>();
  private readonly symbols = new Map<string, number[]>();
  private readonly sortedSymbols: string[];
  private readonly sortedTokens: string[];
  private readonly postings = new Map<string, Int32Array>();
  /** Per bond: maturity as a day number (0 = unknown), and the static part of the rank. */
  private readonly maturityDays: Int32Array;
  private readonly staticRank: Float64Array;
  /** Scratch arrays reused by every query (no allocation per candidate). */
  private readonly epoch: Int32Array;
  private readonly matched: Int32Array;
  private readonly tokenQuality: Int32Array;
  private readonly score: Int32Array;
  private currentEpoch = 0;

  constructor(input: IndexedBond[]) {
    // Sorted by ISIN so ties resolve the same way on every node.
    const bonds = [...input].sort((a, b) => (a.isin < b.isin ? -1 : a.isin > b.isin ? 1 : 0));
    this.bonds = bonds;
    this.size = bonds.length;
    const n = bonds.length;
    this.maturityDays = new Int32Array(n);
    this.staticRank = new Float64Array(n);
    this.epoch = new Int32Array(n);
    this.matched = new Int32Array(n);
    this.tokenQuality = new Int32Array(n);
    this.score = new Int32Array(n);
    const lists = new Map<string, number[]>();
    bonds.forEach((b, i) => {
      // The maturity rule (isMaturedOn): a known date counts, perpetual or not.
      this.maturityDays[i] = b.maturityDate ? dayNumber(b.maturityDate) : 0;
      // Listed, then priced, then liquid (each outweighs all below it; the maturity part stays under 1e6).
      this.staticRank[i] = (b.isListed ? 1e8 : 0) + (b.hasPrice ? 1e7 : 0) + (b.liquidity > 0 ? 1e6 : 0);
      this.isinToIndex.set(b.isin.toLowerCase(), i);
      for (const symbol of [b.nseSymbol, b.bseSymbol, b.bseScripCode]) {
        if (!symbol) continue;
        const key = symbol.toLowerCase();
        const list = this.symbols.get(key) ?? [];
        list.push(i);
        this.symbols.set(key, list);
      }
      for (const token of tokensOf(b)) {
        const list = lists.get(token);
        if (list) list.push(i);
        else lists.set(token, [i]);
      }
    });
    for (const [token, list] of lists) this.postings.set(token, Int32Array.from(list));
    this.sortedIsins = [...this.isinToIndex.keys()].sort();
    this.sortedSymbols = [...this.symbols.keys()].sort();
    this.sortedTokens = [...this.postings.keys()].sort();
  }

  /** The header search: the best `limit` matches (the first `limit` of `rankAll`). */
  search(query: string, limit: number, today: string): FinstrumentSummary[] {
    const top: Ranked[] = [];
    for (const entry of this.match(query, today)) {
      if (top.length === limit && byRank(entry, top[top.length - 1]!) >= 0) continue;
      let at = top.length;
      while (at > 0 && byRank(entry, top[at - 1]!) < 0) at--;
      top.splice(at, 0, entry);
      if (top.length > limit) top.pop();
    }
    return top.map((entry) => toSummary(this.bonds[entry.i]!, today));
  }

  /** Every match of `query`, best first, as finstrument ids: the Find grid's search filter and its order. */
  rankAll(query: string, today: string): number[] {
    return this.match(query, today)
      .sort(byRank)
      .map((entry) => this.bonds[entry.i]!.id);
  }

  /** All candidates of a query with their rank, unsorted. */
  private match(query: string, today: string): Ranked[] {
    const q = query.trim().toLowerCase();
    const todayDays = dayNumber(today);
    // tier: 4 exact ISIN, 3 ISIN prefix, 2 symbol, 1 tokens; score: token match quality.
    const found = new Map<number, { tier: number; score: number }>();
    const offer = (i: number, tier: number, score: number) => {
      const current = found.get(i);
      if (!current || current.tier < tier || (current.tier === tier && current.score < score)) found.set(i, { tier, score });
    };
    const compact = q.replace(/\s+/g, '');
    if (/^in[a-z0-9]{1,10}$/.test(compact)) {
      const exact = this.isinToIndex.get(compact);
      if (exact !== undefined) offer(exact, 4, 0);
      for (let k = lowerBound(this.sortedIsins, compact), n = 0; k < this.sortedIsins.length && n < 2000; k++, n++) {
        const isin = this.sortedIsins[k]!;
        if (!isin.startsWith(compact)) break;
        offer(this.isinToIndex.get(isin)!, 3, 0);
      }
    }
    if (compact.length >= 3) {
      for (let k = lowerBound(this.sortedSymbols, compact), n = 0; k < this.sortedSymbols.length && n < 200; k++, n++) {
        const symbol = this.sortedSymbols[k]!;
        if (!symbol.startsWith(compact)) break;
        for (const i of this.symbols.get(symbol)!) offer(i, 2, symbol === compact ? 2 : 1);
      }
    }

    // Numeric rank: tier, live, token score, listed, priced, liquid, nearer maturity.
    const out: Ranked[] = [];
    const consider = (i: number, tier: number, score: number) => {
      const maturity = this.maturityDays[i]!;
      const live = maturity === 0 || maturity >= todayDays;
      // Live: nearer first; matured: most recent first; unknown maturities last.
      const maturityRank = maturity === 0 ? 0 : live ? 200_000 - (maturity - todayDays) : maturity - todayDays + 200_000;
      // An exact ISIN always wins; otherwise live bonds come before matured ones (which cannot be
      // selected anyway), then ISIN prefix > symbol > tokens, then token quality.
      const rank =
        (tier === 4 ? 2e15 : 0) + (live ? 1e15 : 0) + tier * 1e14 + score * 1e10 + this.staticRank[i]! + Math.max(0, maturityRank);
      out.push({ i, rank });
    };
    for (const [i, m] of found) consider(i, m.tier, m.score);

    const qTokens = [...new Set(tokenize(q))];
    if (qTokens.length) {
      const epoch = ++this.currentEpoch;
      const ranges = qTokens.map((t) => {
        const from = lowerBound(this.sortedTokens, t);
        let to = from;
        while (to < this.sortedTokens.length && this.sortedTokens[to]!.startsWith(t)) to++;
        return { t, from, to };
      });
      for (let j = 0; j < ranges.length; j++) {
        const { t, from, to } = ranges[j]!;
        // Best quality per bond for this query token (2 exact, 1 prefix), only for bonds matching all previous tokens.
        for (let k = from; k < to; k++) {
          const token = this.sortedTokens[k]!;
          const quality = token === t ? 2 : 1;
          for (const i of this.postings.get(token)!) {
            if (j === 0) {
              if (this.epoch[i] !== epoch) {
                this.epoch[i] = epoch;
                this.matched[i] = 1;
                this.tokenQuality[i] = quality;
                this.score[i] = 0;
              } else if (this.tokenQuality[i]! < quality) this.tokenQuality[i] = quality;
            } else if (this.epoch[i] === epoch) {
              if (this.matched[i] === j) {
                this.score[i] = this.score[i]! + this.tokenQuality[i]!;
                this.matched[i] = j + 1;
                this.tokenQuality[i] = quality;
              } else if (this.matched[i] === j + 1 && this.tokenQuality[i]! < quality) this.tokenQuality[i] = quality;
            }
          }
        }
      }
      const last = ranges.length;
      for (let k = ranges[last - 1]!.from; k < ranges[last - 1]!.to; k++) {
        for (const i of this.postings.get(this.sortedTokens[k]!)!) {
          if (this.epoch[i] !== epoch || this.matched[i] !== last) continue;
          this.matched[i] = last + 1; // considered once
          if (!found.has(i)) consider(i, 1, this.score[i]! + this.tokenQuality[i]!);
        }
      }
    }
    return out;
  }
}
