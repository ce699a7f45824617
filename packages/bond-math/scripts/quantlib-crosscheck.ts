/**
 * Dev-time cross-check of the `quantlib` yield mode (SPEC PY10) against QuantLib's own
 * FixedRateBond, on random bonds of six day counts (QuantLib has no SEBI day count).
 * Needs Debian's `quantlib-python` (`apt-get install -y quantlib-python`); the tests never do.
 *
 *   node --import tsx packages/bond-math/scripts/quantlib-crosscheck.ts [count] [seed]
 *
 * Prints, per day count, the largest |library − QuantLib| of the clean price and of
 * the accrued interest per 100, and the worst bonds.
 */
import { spawnSync } from 'node:child_process';
import type { CalendarDate } from '../src/time/calendar-date';
import { addDays, addYears, formatDate, makeDate } from '../src/time/calendar-date';
import type { CouponFrequency, DayCountName } from '../src/day-count/day-count';
import { ICMA_STREET } from '../src/conventions/market-conventions';
import { createFixedCouponBond } from '../src/instruments/fixed-coupon-bond';
import { getPriceFromYield } from '../src/pricing/price-yield';
import { getCompoundingForFrequency } from '../src/pricing/quote';

const PYTHON = `
import json, sys
import QuantLib as ql
def d(s):
    y, m, dd = map(int, s.split('-'))
    return ql.Date(dd, m, y)
out = []
for line in sys.stdin:
    c = json.loads(line)
    settle = d(c['settle'])
    ql.Settings.instance().evaluationDate = settle
    sched = ql.Schedule(d(c['issue']), d(c['maturity']), ql.Period(12 // c['frequency'], ql.Months), ql.NullCalendar(),
                        ql.Unadjusted, ql.Unadjusted, ql.DateGeneration.Backward, False)
    dc = {'30E/360': ql.Thirty360(ql.Thirty360.European), '30/360': ql.Thirty360(ql.Thirty360.BondBasis),
          'ACT/365F': ql.Actual365Fixed(), 'ACT/360': ql.Actual360(),
          'ACT/ACT-ISDA': ql.ActualActual(ql.ActualActual.ISDA)}.get(c['dayCount'])
    if dc is None:
        dc = ql.ActualActual(ql.ActualActual.ISMA, sched)
    bond = ql.FixedRateBond(0, 100.0, sched, [c['coupon']], dc)
    out.append({'clean': bond.cleanPrice(c['yield'], dc, ql.Compounded, c['frequency'], settle),
                'accrued': bond.accruedAmount(settle)})
print(json.dumps(out))
`;

const DAY_COUNTS: readonly DayCountName[] = ['30E/360', '30/360', 'ACT/365F', 'ACT/360', 'ACT/ACT-ISDA', 'ACT/ACT-ICMA'];
const FREQUENCIES: readonly CouponFrequency[] = [1, 2, 4, 12];

/** Small deterministic generator (mulberry32) so a run can be repeated with its seed. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  readonly dayCount: DayCountName;
  readonly frequency: CouponFrequency;
  readonly issue: string;
  readonly maturity: string;
  readonly settle: string;
  readonly coupon: number;
  readonly yield: number;
}

function main(): void {
  const count = Number(process.argv[2] ?? 300);
  const seed = Number(process.argv[3] ?? 17);
  const random = createRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const cases: Case[] = [];
  const library: { clean: number; accrued: number }[] = [];
  while (cases.length < count) {
    const issue = (makeDate(2000, 1, 1) + Math.floor(random() * 15000)) as CalendarDate;
    const maturity = addDays(addYears(issue, 1 + Math.floor(random() * 40)), Math.floor(random() * 365));
    const settle = addDays(issue, 1 + Math.floor(random() * (maturity - issue - 2)));
    const dayCount = pick(DAY_COUNTS);
    const frequency = pick(FREQUENCIES);
    const coupon = Math.round(random() * 1500) / 10000;
    const rate = Math.round((random() * 0.2 - 0.005) * 1e6) / 1e6;
    const bond = createFixedCouponBond({
      issueDate: issue,
      maturityDate: maturity,
      couponRate: coupon,
      frequency,
      convention: {
        ...ICMA_STREET,
        name: 'QUANTLIB',
        accrualDayCount: dayCount,
        yieldMethod: 'quantlib',
        couponAmount: 'day-count',
        endOfMonth: false,
      },
    });
    const price = getPriceFromYield(bond, settle, { rate, compounding: getCompoundingForFrequency(frequency) });
    cases.push({
      dayCount,
      frequency,
      issue: formatDate(issue),
      maturity: formatDate(maturity),
      settle: formatDate(settle),
      coupon,
      yield: rate,
    });
    library.push({ clean: price.cleanPrice.per100, accrued: price.accruedInterestPer100 });
  }
  const run = spawnSync('/usr/bin/python3', ['-c', PYTHON], {
    input: cases.map((c) => JSON.stringify(c)).join('\n'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    console.log(`QuantLib not available (${run.stderr.trim().split('\n').pop() ?? 'python3 failed'}); install quantlib-python`);
    process.exit(1);
  }
  const reference = JSON.parse(run.stdout) as { clean: number; accrued: number }[];
  const worst = new Map<string, { price: number; accrued: number; n: number; example: string }>();
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as Case;
    const ours = library[i] as { clean: number; accrued: number };
    const theirs = reference[i] as { clean: number; accrued: number };
    const dp = Math.abs(ours.clean - theirs.clean);
    const da = Math.abs(ours.accrued - theirs.accrued);
    const row = worst.get(c.dayCount) ?? { price: 0, accrued: 0, n: 0, example: '' };
    row.n++;
    if (dp > row.price) {
      row.price = dp;
      row.example = `${JSON.stringify(c)} library ${ours.clean} QuantLib ${theirs.clean}`;
    }
    row.accrued = Math.max(row.accrued, da);
    worst.set(c.dayCount, row);
  }
  console.log(`quantlib mode vs QuantLib FixedRateBond, ${count} bonds, seed ${seed}`);
  for (const [dayCount, row] of worst) {
    console.log(
      `${dayCount.padEnd(14)} n=${String(row.n).padStart(4)}  max|Δclean| ${row.price.toExponential(2)}  max|Δaccrued| ${row.accrued.toExponential(2)}`,
    );
    if (row.price > 1e-9) console.log(`  worst: ${row.example}`);
  }
}

main();
