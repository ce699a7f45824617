/**
 * The MODEL reference yield (issue 17 §3): for a live bond with no exchange close, reported trade or fund
 * valuation, the G-sec curve at its tenor plus a spread fitted from our own observations. README.md
 * "Reference prices" documents the steps; the importer calls `fitSpreadModel` once per import and
 * `modelSpread` per bond. Spreads are in basis points over the semi-annual G-sec curve.
 */
import { curveYield, type Curve } from './curve';

/** Fallback spreads (bp, ≤ 3 y / > 3 y) where a grade has too few observations to fit. */
export const MATRIX_SPREADS_BP: Record<string, [number, number]> = {
  SOVEREIGN: [0, 0],
  AAA: [75, 65],
  'AA+': [100, 95],
  AA: [130, 125],
  'AA-': [170, 165],
  'A+': [230, 225],
  A: [290, 285],
  'A-': [350, 340],
  'BBB+': [425, 415],
  BBB: [500, 490],
  'BBB-': [575, 565],
  'A1+': [90, 90],
  A1: [140, 140],
};
export const MATRIX_SDL_SPREAD_BP = 35;
/** Fewest observations a (grade, tenor band) or sector cell needs before its median replaces the fallback. */
export const MIN_FIT_SAMPLES = 5;
/** Fitted spreads are kept within these bounds (bp): one odd fund mark must not price a whole bucket. */
const SPREAD_FLOOR_BP = 0;
const SPREAD_CAP_BP = 1_500;

export const SECTORS = ['PSU / AIFI', 'Bank', 'NBFC / HFC', 'Municipal', 'Securitised', 'Corporate'] as const;
export type Sector = (typeof SECTORS)[number];

const PSU =
  /\b(NABARD|NATIONAL BANK FOR AGRICULTURE|SMALL INDUSTRIES DEVELOPMENT|SIDBI|EXPORT.IMPORT|EXIM|NATIONAL HOUSING BANK|REC LIMITED|RURAL ELECTRIFICATION|POWER FINANCE|INDIAN RAILWAY|IRFC|NTPC|POWER GRID|NATIONAL HIGHWAYS|NHAI|HUDCO|HOUSING AND URBAN|NHPC|INDIAN OIL|BHARAT PETROLEUM|HINDUSTAN PETROLEUM|OIL AND NATURAL GAS|GAIL|AIRPORTS AUTHORITY|NUCLEAR POWER|FOOD CORPORATION|IIFCL|INDIA INFRASTRUCTURE FINANCE|STEEL AUTHORITY|NLC INDIA|IREDA|RENEWABLE ENERGY DEVELOPMENT)\b/;
const BANK = /\bBANK\b/;
const NBFC = /\b(FINANCE|FINANCIAL|FINCORP|FINSERV|CAPITAL|CREDIT|HOUSING|LEASING|INVESTMENTS?|MICROFIN\w*|HOME LOANS|LOANS)\b/;

/** The sector of a bond, from its type and issuer name (the data carries no sector column). */
export function sectorOf(securityType: string, issuerName: string | null): Sector {
  if (securityType === 'Municipal Bond') return 'Municipal';
  if (securityType === 'Securitised Debt (PTC)') return 'Securitised';
  const name = (issuerName ?? '').toUpperCase();
  if (PSU.test(name)) return 'PSU / AIFI';
  if (BANK.test(name)) return 'Bank';
  if (NBFC.test(name)) return 'NBFC / HFC';
  return 'Corporate';
}

/** Rating grade for the matrix: the agency grade without (CE)/(SO) suffixes or agency prefixes. */
export function ratingBucket(rating: string | null): string | null {
  if (!rating) return null;
  const grade = rating
    .replace(/\s*\((CE|SO)\)\s*$/i, '')
    .replace(/^(CRISIL|ICRA|CARE|IND|FITCH|BWR|ACUITE|INFOMERICS)\s*/i, '')
    .trim()
    .toUpperCase();
  return grade || null;
}

export const tenorBand = (tenor: number): 0 | 1 => (tenor <= 3 ? 0 : 1);

/** One observed corporate yield, as a spread over the curve at its tenor. */
export interface SpreadObservation {
  issuerKey: string | null;
  grade: string | null;
  sector: Sector;
  tenor: number;
  spreadBp: number;
}

export interface SpreadModel {
  /** grade → [≤ 3 y, > 3 y] fitted (or fallback) spread and the sample count behind each. */
  grades: Record<string, { bp: [number, number]; n: [number, number] }>;
  /** Sector → median residual (bp) of its rated observations over their grade's spread. */
  sectorAdjustBp: Record<string, { bp: number; n: number }>;
  /** Unrated bonds with no rated sibling: sector → median spread of unrated observations. */
  unrated: Record<string, { bp: number; n: number }>;
  /** All unrated observations, for a sector with too few of its own. */
  unratedAll: { bp: number; n: number };
  /** Issuer key → median spread of its observed bonds (the issuer curve). */
  issuers: Record<string, { bp: number; n: number }>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const clamp = (bp: number) => Math.round(Math.min(SPREAD_CAP_BP, Math.max(SPREAD_FLOOR_BP, bp)));

/** Fits the spread model from every observed non-sovereign yield (closes, reported trades, fund valuations). */
export function fitSpreadModel(observations: SpreadObservation[]): SpreadModel {
  const grades: SpreadModel['grades'] = {};
  const cells = new Map<string, number[]>();
  for (const o of observations) {
    if (!o.grade) continue;
    const k = `${o.grade}|${tenorBand(o.tenor)}`;
    cells.set(k, [...(cells.get(k) ?? []), o.spreadBp]);
  }
  const allGrades = new Set([...Object.keys(MATRIX_SPREADS_BP), ...observations.flatMap((o) => (o.grade ? [o.grade] : []))]);
  for (const grade of allGrades) {
    if (grade === 'SOVEREIGN') continue;
    const fallback = MATRIX_SPREADS_BP[grade];
    const entry = { bp: [0, 0] as [number, number], n: [0, 0] as [number, number] };
    let usable = true;
    for (const band of [0, 1] as const) {
      const xs = cells.get(`${grade}|${band}`) ?? [];
      entry.n[band] = xs.length;
      if (xs.length >= MIN_FIT_SAMPLES) entry.bp[band] = clamp(median(xs));
      else if (fallback) entry.bp[band] = fallback[band];
      else if (xs.length) entry.bp[band] = clamp(median(xs));
      else usable = false;
    }
    if (!usable) {
      // A grade seen in one band only: use that band's figure for both.
      const seen = entry.n[0] ? 0 : 1;
      entry.bp = [entry.bp[seen], entry.bp[seen]];
    }
    grades[grade] = entry;
  }
  const residuals = new Map<string, number[]>();
  const unratedBySector = new Map<string, number[]>();
  const byIssuer = new Map<string, number[]>();
  const unratedAll: number[] = [];
  for (const o of observations) {
    if (o.issuerKey) byIssuer.set(o.issuerKey, [...(byIssuer.get(o.issuerKey) ?? []), o.spreadBp]);
    if (o.grade && grades[o.grade]) {
      residuals.set(o.sector, [...(residuals.get(o.sector) ?? []), o.spreadBp - grades[o.grade]!.bp[tenorBand(o.tenor)]]);
    } else if (!o.grade) {
      unratedAll.push(o.spreadBp);
      unratedBySector.set(o.sector, [...(unratedBySector.get(o.sector) ?? []), o.spreadBp]);
    }
  }
  const sectorAdjustBp: SpreadModel['sectorAdjustBp'] = {};
  for (const [sector, xs] of residuals)
    sectorAdjustBp[sector] = { bp: xs.length >= MIN_FIT_SAMPLES ? Math.round(median(xs)) : 0, n: xs.length };
  const unrated: SpreadModel['unrated'] = {};
  for (const [sector, xs] of unratedBySector) if (xs.length >= MIN_FIT_SAMPLES) unrated[sector] = { bp: clamp(median(xs)), n: xs.length };
  const issuers: SpreadModel['issuers'] = {};
  for (const [key, xs] of byIssuer) issuers[key] = { bp: clamp(median(xs)), n: xs.length };
  return {
    grades,
    sectorAdjustBp,
    unrated,
    // With no unrated observation at all, the weakest investment grade's figure (documented fallback).
    unratedAll: unratedAll.length ? { bp: clamp(median(unratedAll)), n: unratedAll.length } : { bp: MATRIX_SPREADS_BP['A-']![1], n: 0 },
    issuers,
  };
}

export interface ModelBond {
  securityType: string;
  issuerKey: string | null;
  sector: Sector;
  /** The bond's own grade, else the grade most seen on its issuer's other bonds. */
  grade: string | null;
  gradeFrom: 'bond' | 'issuer' | null;
  tenor: number;
}

/** The spread (bp over the semi-annual G-sec curve) the model gives a bond, and how it was found. */
export function modelSpread(model: SpreadModel, bond: ModelBond): { bp: number; how: string } {
  const band = tenorBand(bond.tenor);
  if (['G-Sec', 'T-Bill', 'G-Sec STRIPS'].includes(bond.securityType)) return { bp: 0, how: 'sovereign' };
  if (bond.securityType === 'SDL') return { bp: MATRIX_SDL_SPREAD_BP, how: 'SDL' };
  const issuer = bond.issuerKey ? model.issuers[bond.issuerKey] : undefined;
  if (issuer) return { bp: issuer.bp, how: `issuer curve: median of ${issuer.n} observed bond(s) of the issuer` };
  const fitted = bond.grade ? model.grades[bond.grade] : undefined;
  if (fitted) {
    const adjust = model.sectorAdjustBp[bond.sector]?.bp ?? 0;
    const from = bond.gradeFrom === 'issuer' ? "issuer's " : '';
    return {
      bp: clamp(fitted.bp[band] + adjust),
      how: `${from}${bond.grade} ${band ? '> 3y' : '≤ 3y'} (${fitted.n[band]} obs) ${adjust >= 0 ? '+' : '−'} ${Math.abs(adjust)} bp ${bond.sector}`,
    };
  }
  const unrated = model.unrated[bond.sector] ?? model.unratedAll;
  const scope = model.unrated[bond.sector] ? bond.sector : 'all sectors';
  return { bp: unrated.bp, how: `unrated ${scope} (${unrated.n} obs)` };
}

/** The curve yield (semi-annual fraction) plus the spread: the model yield before conversion to the bond's compounding. */
export function modelYield(curve: Curve, tenor: number, spreadBp: number): number {
  return curveYield(curve, tenor) + spreadBp / 10_000;
}
