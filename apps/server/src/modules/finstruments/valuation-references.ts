/**
 * The importer's MODEL step (issue 17 §3): fits the spread model from every observed non-sovereign yield,
 * then gives each live, buildable bond without an observation a reference yield: the G-sec curve at its
 * tenor plus its modelled spread, converted to the bond's own compounding. README.md "Reference prices".
 */
import { curveYield, type Curve } from './curve';
import {
  buildBond,
  getSettlementForDelta,
  parseDate,
  toBondCompounding,
  toSemiAnnual,
  yearsBetween,
  type PricingTerms,
} from './finstruments.pricing';
import {
  fitSpreadModel,
  modelSpread,
  ratingBucket,
  sectorOf,
  type ModelBond,
  type SpreadModel,
  type SpreadObservation,
} from './valuation-model';

interface BondFields {
  isin: string;
  securityType: string;
  issuerKey?: string | null;
  issuerName?: string | null;
  creditRating?: string | null;
  maturityDate?: string | null;
}
interface Reference {
  date: string;
  clean: number | null;
  yieldFraction: number;
  source: string;
  priority: number;
  detail: string;
}

const SOVEREIGN_TYPES = new Set(['G-Sec', 'SDL', 'T-Bill', 'G-Sec STRIPS']);

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let n = 0;
  for (const [v, c] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (c > n) [best, n] = [v, c];
  return best;
}

export function addModelReferences<F extends BondFields>(
  curve: Curve,
  input: {
    bonds: Map<string, F>;
    refs: Map<string, Reference[]>;
    ratings: Array<{ isin: string; rating: string }>;
    addRef: (isin: string, ref: Reference) => void;
    termsOf: (f: F) => PricingTerms;
  },
): SpreadModel {
  const asOf = parseDate(curve.date);
  const settlement = getSettlementForDelta(null, asOf, 1);
  // Grades: the bond's own rating, else the one most seen for it (fund portfolios), else its issuer's.
  const seen = new Map<string, string[]>();
  for (const r of input.ratings) {
    const g = ratingBucket(r.rating);
    if (g && g !== 'SOVEREIGN') seen.set(r.isin, [...(seen.get(r.isin) ?? []), g]);
  }
  const ownGrade = new Map<string, string>();
  const issuerGrades = new Map<string, string[]>();
  for (const f of input.bonds.values()) {
    if (SOVEREIGN_TYPES.has(f.securityType)) continue;
    const g = ratingBucket(f.creditRating ?? null) ?? mostCommon(seen.get(f.isin) ?? []);
    if (!g) continue;
    ownGrade.set(f.isin, g);
    if (f.issuerKey) issuerGrades.set(f.issuerKey, [...(issuerGrades.get(f.issuerKey) ?? []), g]);
  }
  const issuerGrade = new Map([...issuerGrades].map(([k, gs]) => [k, mostCommon(gs)!]));
  const describe = (f: F, tenor: number): ModelBond => {
    const own = ownGrade.get(f.isin) ?? null;
    const fromIssuer = !own && f.issuerKey ? (issuerGrade.get(f.issuerKey) ?? null) : null;
    return {
      securityType: f.securityType,
      issuerKey: f.issuerKey ?? null,
      sector: sectorOf(f.securityType, f.issuerName ?? null),
      grade: own ?? fromIssuer,
      gradeFrom: own ? 'bond' : fromIssuer ? 'issuer' : null,
      tenor,
    };
  };

  // Fit: every non-sovereign bond's best observation as a spread over the curve at its tenor.
  const observations: SpreadObservation[] = [];
  for (const [isin, list] of input.refs) {
    const f = input.bonds.get(isin);
    if (!f || SOVEREIGN_TYPES.has(f.securityType) || !f.maturityDate) continue;
    const best = [...list].sort((a, b) => a.priority - b.priority || (a.date < b.date ? 1 : -1))[0];
    if (!best) continue;
    const maturity = parseDate(f.maturityDate);
    if (maturity <= settlement) continue;
    const built = buildBond(input.termsOf(f), settlement);
    if (!built.ok) continue;
    const tenor = yearsBetween(asOf, maturity);
    const semiAnnual = built.bond.yieldCompounding === 'simple' ? best.yieldFraction : toSemiAnnual(built.bond, best.yieldFraction);
    const d = describe(f, tenor);
    observations.push({
      issuerKey: d.issuerKey,
      grade: d.gradeFrom === 'bond' ? d.grade : null,
      sector: d.sector,
      tenor,
      spreadBp: (semiAnnual - curveYield(curve, tenor)) * 10_000,
    });
  }
  const model = fitSpreadModel(observations);

  for (const f of input.bonds.values()) {
    if (input.refs.has(f.isin) || !f.maturityDate) continue;
    const maturity = parseDate(f.maturityDate);
    if (maturity <= settlement) continue;
    const built = buildBond(input.termsOf(f), settlement);
    if (!built.ok) continue;
    const tenor = yearsBetween(asOf, maturity);
    const spread = modelSpread(model, describe(f, tenor));
    const semiAnnual = curveYield(curve, tenor) + spread.bp / 10_000;
    // Simple (money-market) yields have no horizon-free equivalent: the short end is used as quoted.
    const rate = built.bond.yieldCompounding === 'simple' ? semiAnnual : toBondCompounding(built.bond, semiAnnual, 'semi-annual');
    input.addRef(f.isin, {
      date: curve.date,
      clean: null,
      yieldFraction: rate,
      source: 'MATRIX',
      priority: 4,
      detail: `G-sec curve ${curve.date} at ${tenor.toFixed(2)}y + ${spread.bp} bp (${spread.how})`.slice(0, 200),
    });
  }
  return model;
}
