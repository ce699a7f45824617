/**
 * The surveillance rules (README "Rules and thresholds"): pure functions over the rows the scanner reads. No clock,
 * no I/O: the scanner passes `now` and the rows; each rule answers whether the facts make an alert, and its score.
 */

/* ------------------------------------------------------------ off-market price ------------------------------------------------------------ */

const SOVEREIGN_TYPES = new Set(['G-Sec', 'SDL', 'T-Bill', 'G-Sec STRIPS']);

/** The yield band (bp either side of the reference) by rating group, for a bond of 1 to 5 years. */
export const OFF_MARKET_BAND_BP = {
  sovereign: 25,
  AAA: 40,
  AA: 75,
  A: 125,
  /** BBB and below, or unrated. */
  other: 200,
} as const;
export type RatingGroup = keyof typeof OFF_MARKET_BAND_BP;

/** Tenor factors on the band: short paper's yields move more per rupee of price, long paper's less. */
export const OFF_MARKET_TENOR_FACTORS = { underOneYear: 1.5, oneToFiveYears: 1, overFiveYears: 0.8 } as const;

/** The rating group of a bond: sovereign types first, then the agency grade without agency names and (CE)/(SO). */
export function ratingGroup(securityType: string, rating: string | null): RatingGroup {
  if (SOVEREIGN_TYPES.has(securityType)) return 'sovereign';
  const grade = (rating ?? '')
    .toUpperCase()
    .replace(/\s*\((CE|SO)\)\s*$/, '')
    .replace(/^(CRISIL|ICRA|CARE|IND|FITCH|BWR|ACUITE|INFOMERICS)\s*/, '')
    .trim();
  if (grade.startsWith('AAA')) return 'AAA';
  if (grade.startsWith('AA')) return 'AA';
  if (grade === 'A' || grade === 'A+' || grade === 'A-' || grade.startsWith('A1')) return 'A';
  return 'other';
}

/** The band in basis points for a rating group and tenor in years (years from `asOf` to maturity). */
export function offMarketBandBp(group: RatingGroup, tenorYears: number | null): number {
  const factor =
    tenorYears === null || (tenorYears >= 1 && tenorYears <= 5)
      ? OFF_MARKET_TENOR_FACTORS.oneToFiveYears
      : tenorYears < 1
        ? OFF_MARKET_TENOR_FACTORS.underOneYear
        : OFF_MARKET_TENOR_FACTORS.overFiveYears;
  return Math.round(OFF_MARKET_BAND_BP[group] * factor);
}

export interface OffMarketInput {
  /** The traded or quoted yield, fraction, in the bond's compounding. */
  yieldFraction: number;
  /** The bond's reference yield (finstruments.reference_yield), fraction, same compounding. */
  referenceYield: number | null;
  securityType: string;
  rating: string | null;
  /** Years to maturity; null for a perpetual or an unknown maturity. */
  tenorYears: number | null;
}

export interface OffMarketFinding {
  deviationBp: number;
  bandBp: number;
  group: RatingGroup;
  score: number;
}

/**
 * Off-market when |yield − reference| exceeds the band. Score 50 at the band's edge, rising linearly to 100 at three
 * times the band. Null when within the band or there is no reference yield.
 */
export function assessOffMarket(input: OffMarketInput): OffMarketFinding | null {
  if (input.referenceYield === null || !Number.isFinite(input.referenceYield) || !Number.isFinite(input.yieldFraction)) return null;
  const group = ratingGroup(input.securityType, input.rating);
  const bandBp = offMarketBandBp(group, input.tenorYears);
  const deviationBp = Math.round((input.yieldFraction - input.referenceYield) * 10_000 * 100) / 100;
  if (Math.abs(deviationBp) <= bandBp) return null;
  const excess = (Math.abs(deviationBp) - bandBp) / (2 * bandBp);
  return { deviationBp, bandBp, group, score: clampScore(50 + 50 * excess) };
}

/* ------------------------------------------------------------ exchange reporting ------------------------------------------------------------ */

/** SEBI: OTC trades in corporate bonds are reported to the exchange's platform within 15 minutes of the trade. */
export const REPORTING_DEADLINE_MS = 15 * 60_000;

export interface ReportingFinding {
  /** True when still unreported at `now`. */
  missing: boolean;
  minutesLate: number;
  score: number;
}

/**
 * Late when reported after the 15-minute deadline; missing when unreported and the deadline has passed. Score 60 at the
 * deadline, +2 per minute late, 100 from 35 minutes late on (a missing report scores at least 80).
 */
export function assessReporting(tradedAt: Date, reportedAt: Date | null, now: Date): ReportingFinding | null {
  const deadline = tradedAt.getTime() + REPORTING_DEADLINE_MS;
  const end = reportedAt ? reportedAt.getTime() : now.getTime();
  if (end <= deadline) return null;
  const minutesLate = Math.floor((end - deadline) / 60_000);
  const base = 60 + 2 * minutesLate;
  return { missing: reportedAt === null, minutesLate, score: clampScore(reportedAt ? base : Math.max(80, base)) };
}

/* ------------------------------------------------------------ chat lexicon ------------------------------------------------------------ */

export type LexiconCategory =
  'assured_returns' | 'parking' | 'window_dressing' | 'off_the_books' | 'cash_component' | 'side_deal' | 'kickback' | 'front_running';

export interface LexiconTerm {
  /** The phrase as the evidence names it. */
  term: string;
  category: LexiconCategory;
  /** Score of one hit of this phrase (the alert takes the highest, +10 per further category). */
  weight: number;
  pattern: RegExp;
}

/** Word-boundary, case-insensitive, spaces matching any run of spaces, hyphens or dots ("off-the-books"). */
function phrase(words: string): RegExp {
  const body = words
    .split(' ')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\-.]*');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu');
}

const term = (words: string, category: LexiconCategory, weight: number): LexiconTerm => ({
  term: words,
  category,
  weight,
  pattern: phrase(words),
});

/**
 * The Indian-market lexicon: English phrases and their common Hinglish spellings as dealers type them on chat.
 * Single words that are everyday trading talk ("setting" alone, "cash") are only matched in a phrase.
 */
export const LEXICON: readonly LexiconTerm[] = [
  term('assured return', 'assured_returns', 70),
  term('assured returns', 'assured_returns', 70),
  term('guaranteed return', 'assured_returns', 70),
  term('guaranteed returns', 'assured_returns', 70),
  term('guaranteed yield', 'assured_returns', 70),
  term('pakka return', 'assured_returns', 70),
  term('pakka returns', 'assured_returns', 70),
  term('pucca return', 'assured_returns', 70),
  term('guarantee hai', 'assured_returns', 65),
  term('guaranteed hai', 'assured_returns', 65),
  term('fixed return milega', 'assured_returns', 65),
  term('parking', 'parking', 60),
  term('park kar', 'parking', 60),
  term('park karo', 'parking', 60),
  term('park the bonds', 'parking', 60),
  term('buy back later', 'parking', 55),
  term('window dressing', 'window_dressing', 70),
  term('quarter end dressing', 'window_dressing', 65),
  term('off the books', 'off_the_books', 80),
  term('off book', 'off_the_books', 70),
  term('book ke bahar', 'off_the_books', 80),
  term('under the table', 'off_the_books', 85),
  term('cash component', 'cash_component', 80),
  term('cash mein', 'cash_component', 70),
  term('cash me dena', 'cash_component', 70),
  term('side deal', 'side_deal', 75),
  term('side arrangement', 'side_deal', 70),
  term('setting hai', 'side_deal', 65),
  term('setting kar', 'side_deal', 65),
  term('setting karo', 'side_deal', 65),
  term('setting ho gayi', 'side_deal', 65),
  term('kickback', 'kickback', 90),
  term('kick back', 'kickback', 90),
  term('cut milega', 'kickback', 80),
  term('commission under', 'kickback', 75),
  term('before the client order', 'front_running', 80),
  term('ahead of the client', 'front_running', 80),
  term('ahead of the order', 'front_running', 75),
  term('client ka order aane se pehle', 'front_running', 85),
  term('order aane se pehle', 'front_running', 80),
  term('front run', 'front_running', 85),
  term('front running', 'front_running', 85),
];

/** Any lexicon phrase at all: one test per message before the phrases are told apart (the scanner's pre-filter). */
export const LEXICON_ANY = new RegExp(LEXICON.map((t) => `(?:${t.pattern.source})`).join('|'), 'iu');

/**
 * The database's pre-filter of the lexicon, for PostgreSQL's case-insensitive `~*`: each phrase with anything but ASCII
 * letters and digits (or nothing) between its words and no word boundaries, so it matches wherever LEXICON_ANY does, and
 * more (the scanner confirms every candidate with LEXICON_ANY). `k` and `s` also take the Kelvin sign and the long s,
 * which JavaScript's case-insensitive Unicode matching folds to them.
 */
export const LEXICON_SQL_PREFILTER = LEXICON.map((t) =>
  t.term
    .split(' ')
    .map((word) =>
      [...word].map((ch) => (ch === 'k' ? '[k\u212A]' : ch === 's' ? '[s\u017F]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join(''),
    )
    .join('[^a-z0-9]*'),
).join('|');

/**
 * The database's cheap first test, before LEXICON_SQL_PREFILTER: each phrase's longest word (`%word%` patterns for
 * `LIKE ANY`, over the text lower-cased with the Kelvin sign and the long s read as k and s). Every text the rule
 * matches holds one of them, whole.
 */
export const LEXICON_SQL_KEYWORDS: readonly string[] = (() => {
  const longest = [...new Set(LEXICON.map((t) => t.term.split(' ').reduce((a, b) => (b.length > a.length ? b : a))))];
  // A word containing another keyword adds nothing ("guaranteed" holds "guarantee").
  return longest.filter((w) => !longest.some((other) => other !== w && w.includes(other))).map((w) => `%${w}%`);
})();

export interface LexiconHit {
  term: string;
  category: LexiconCategory;
  weight: number;
}

/** Every lexicon phrase in `text` (one hit per phrase). */
export function findLexiconHits(text: string): LexiconHit[] {
  if (!text) return [];
  return LEXICON.filter((t) => t.pattern.test(text)).map(({ term: found, category, weight }) => ({ term: found, category, weight }));
}

/** The highest hit's weight, +10 for each further category matched. */
export function lexiconScore(hits: readonly LexiconHit[]): number {
  if (hits.length === 0) return 0;
  const categories = new Set(hits.map((h) => h.category));
  return clampScore(Math.max(...hits.map((h) => h.weight)) + 10 * (categories.size - 1));
}

/* ------------------------------------------------------------ chat before trade ------------------------------------------------------------ */

/** A deal this long after a chat naming its bond makes a chat-before-trade alert. */
export const CHAT_BEFORE_TRADE_WINDOW_MS = 24 * 60 * 60_000;

/** Whether `text` names the bond: its ISIN, or one of its short names (at least 4 characters), case-insensitive. */
export function mentionsBond(text: string, bond: { isin: string; names: readonly (string | null)[] }): boolean {
  const lower = text.toLowerCase();
  if (lower.includes(bond.isin.toLowerCase())) return true;
  return bond.names.some((name) => {
    const n = name?.trim().toLowerCase();
    return Boolean(n && n.length >= 4 && lower.includes(n));
  });
}

/** Score 70, +10 per further message naming the bond, +10 when the deal came within an hour of the first. */
export function chatBeforeTradeScore(messages: number, minutesBeforeDeal: number): number {
  return clampScore(70 + 10 * Math.max(0, messages - 1) + (minutesBeforeDeal <= 60 ? 10 : 0));
}

/* ------------------------------------------------------------ spoofing / layering ------------------------------------------------------------ */

/** A quote closed or replaced this soon after it was placed, with nothing filled, was "pulled". */
export const SPOOF_PULL_WITHIN_MS = 10_000;
/** This many pulled quotes of one firm on one bond within the window make an alert. */
export const SPOOF_MIN_PULLS = 3;
export const SPOOF_WINDOW_MS = 5 * 60_000;

export interface QuoteLife {
  id: string;
  createdAt: Date;
  /** When it was closed or replaced. */
  endedAt: Date;
  quantum: number;
  remainingQuantum: number;
}

export const isPulled = (q: QuoteLife): boolean =>
  q.remainingQuantum === q.quantum && q.endedAt.getTime() - q.createdAt.getTime() <= SPOOF_PULL_WITHIN_MS;

/**
 * Clusters of pulled quotes (one firm, one bond): a run of at least SPOOF_MIN_PULLS pulled quotes whose placements
 * all fall within SPOOF_WINDOW_MS of the run's first. Runs do not overlap; quotes in any order.
 */
export function findSpoofRuns(quotes: readonly QuoteLife[]): QuoteLife[][] {
  const pulled = quotes.filter(isPulled).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const runs: QuoteLife[][] = [];
  let i = 0;
  while (i < pulled.length) {
    const start = pulled[i]!.createdAt.getTime();
    let j = i;
    while (j + 1 < pulled.length && pulled[j + 1]!.createdAt.getTime() - start <= SPOOF_WINDOW_MS) j++;
    if (j - i + 1 >= SPOOF_MIN_PULLS) {
      runs.push(pulled.slice(i, j + 1));
      i = j + 1;
    } else i++;
  }
  return runs;
}

/** Score 60 at the minimum run, +10 per further pulled quote. */
export const spoofScore = (pulls: number): number => clampScore(60 + 10 * (pulls - SPOOF_MIN_PULLS));

/* ------------------------------------------------------------ wash / circular trades ------------------------------------------------------------ */

/** A deal reversed between the same two firms on the same bond within this long is a wash trade. */
export const WASH_WINDOW_MS = 24 * 60 * 60_000;

export interface DealLeg {
  id: string;
  finstrumentId: number;
  buyerClientId: string;
  sellerClientId: string;
  quantum: number;
  createdAt: Date;
}

/** Whether `b` reverses `a`: same bond, buyer and seller swapped, within the window of each other. */
export function isWashPair(a: DealLeg, b: DealLeg): boolean {
  return (
    a.id !== b.id &&
    a.finstrumentId === b.finstrumentId &&
    a.buyerClientId === b.sellerClientId &&
    a.sellerClientId === b.buyerClientId &&
    Math.abs(a.createdAt.getTime() - b.createdAt.getTime()) <= WASH_WINDOW_MS
  );
}

/** Score 70, 90 when the two legs are the same size (a full round trip). */
export const washScore = (a: DealLeg, b: DealLeg): number => (a.quantum === b.quantum ? 90 : 70);

/* ------------------------------------------------------------ shared ------------------------------------------------------------ */

export const clampScore = (score: number): number => Math.max(0, Math.min(100, Math.round(score)));

/** The link between two firms, whichever trades first: alerts of one firm with the same key are linked. */
export const pairKey = (a: string, b: string): string => (a < b ? `pair:${a}:${b}` : `pair:${b}:${a}`);

/** Years between two dates (actual / 365.25), for the band's tenor. */
export function yearsBetween(from: Date, toIsoDate: string | null): number | null {
  if (!toIsoDate) return null;
  const to = Date.parse(`${toIsoDate}T00:00:00Z`);
  if (!Number.isFinite(to)) return null;
  return (to - from.getTime()) / (365.25 * 86_400_000);
}
