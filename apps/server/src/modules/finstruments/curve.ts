/**
 * The G-sec curve behind the model yields: medians of dated G-sec close yields (semi-annual street yields)
 * in tenor buckets, linear between the bucket medians, flat outside. README.md "Reference prices".
 */
export interface Curve {
  date: string;
  points: Array<{ tenor: number; yieldRate: number }>;
}

const BUCKETS = [0.5, 1, 2, 3, 4, 5, 7, 10, 12, 15, 20, 25, 30, 40, 60];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The curve from (tenor in years, yield fraction) observations of one date; null with fewer than two buckets. */
export function buildCurve(date: string, observations: Array<{ tenor: number; yieldRate: number }>): Curve | null {
  const points: Curve['points'] = [];
  let lower = 0;
  for (const upper of BUCKETS) {
    const inBucket = observations.filter((p) => p.tenor > lower && p.tenor <= upper);
    if (inBucket.length) points.push({ tenor: median(inBucket.map((p) => p.tenor)), yieldRate: median(inBucket.map((p) => p.yieldRate)) });
    lower = upper;
  }
  return points.length >= 2 ? { date, points } : null;
}

export function curveYield(curve: Curve, tenor: number): number {
  const p = curve.points;
  if (tenor <= p[0]!.tenor) return p[0]!.yieldRate;
  for (let i = 1; i < p.length; i++) {
    if (tenor <= p[i]!.tenor) {
      const a = p[i - 1]!;
      const b = p[i]!;
      return a.yieldRate + ((b.yieldRate - a.yieldRate) * (tenor - a.tenor)) / (b.tenor - a.tenor);
    }
  }
  return p[p.length - 1]!.yieldRate;
}
