/**
 * `node --import tsx scripts/valuation-coverage.ts`: how many live bonds get a reference price, by source.
 * Imports the bond universe (full by default) into an in-memory PGlite, then counts, per security type and
 * overall, the live bonds whose coupon and maturity are known and which reference source priced them.
 * See apps/server/src/modules/finstruments/README.md "Valuation coverage".
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openPglite } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { importBonds } from '../apps/server/src/modules/finstruments';

const HELP = `Usage: node --import tsx scripts/valuation-coverage.ts [options]

Imports the bond universe into a throw-away in-memory database and reports the valuation coverage:
of the live bonds whose coupon and maturity are known (discount instruments count as known: no
coupon), how many have a reference price, and from which source (NSE close, NSE reported OTC trade,
mutual-fund valuation, matrix model). Types that can never be priced per Rs 100 (SGB, security
receipts, FRBs) are listed apart. Takes about a minute on the full universe.

Options:
  --data-dir <dir>   folder holding bonds/ and trades/ (default: BOND_DATA_DIR or reference-data/)
  --slice            the test slice instead of the full universe
  --as-of <date>     the day "live" is judged on (yyyy-mm-dd; default today in IST)
  --json             print the figures as JSON
  -h, --help         this text`;

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    slice: { type: 'boolean', default: false },
    'as-of': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
const asOf = values['as-of'] ?? new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf)) {
  process.stderr.write('--as-of must be yyyy-mm-dd\n');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = values['data-dir'] ?? process.env.BOND_DATA_DIR ?? path.join(root, 'reference-data');

/** PGlite's and node-postgres's results both carry `rows`. */
const rowsOf = (result: unknown): unknown[] => (result as { rows: unknown[] }).rows;

const database = await openPglite('memory://');
try {
  await migrate(database);
  const summary = await importBonds(database, { dataDir, slice: values.slice });
  const never = ['SGB', 'Security Receipt', 'G-Sec FRB'];
  const discount = ['T-Bill', 'Commercial Paper', 'Certificate of Deposit', 'G-Sec STRIPS'];
  const neverList = sql.join(
    never.map((t) => sql`${t}`),
    sql`, `,
  );
  const discountList = sql.join(
    discount.map((t) => sql`${t}`),
    sql`, `,
  );
  const live = sql`maturity_date IS NOT NULL AND maturity_date >= ${asOf}::date`;
  const known = sql`(coupon_rate > 0 OR security_type IN (${discountList}))`;
  const result = await database.db.execute(sql`
    SELECT security_type AS type,
           count(*) FILTER (WHERE security_type IN (${neverList}))::int AS never_priceable,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND NOT ${known})::int AS terms_unknown,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known})::int AS eligible,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known} AND reference_source = 'NSE_CM_CLOSE')::int AS close,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known} AND reference_source = 'NSE_OTC_TRADE')::int AS trade,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known} AND reference_source = 'MF_VALUATION')::int AS valuation,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known} AND reference_source = 'MATRIX')::int AS model,
           count(*) FILTER (WHERE security_type NOT IN (${neverList}) AND ${known} AND reference_source IS NULL)::int AS unpriced
      FROM finstruments WHERE ${live} GROUP BY security_type ORDER BY count(*) DESC`);
  type Line = Record<'never_priceable' | 'terms_unknown' | 'eligible' | 'close' | 'trade' | 'valuation' | 'model' | 'unpriced', number> & {
    type: string;
  };
  const rows = (rowsOf(result) as Line[]).map((r) => ({ ...r }));
  const keys = ['never_priceable', 'terms_unknown', 'eligible', 'close', 'trade', 'valuation', 'model', 'unpriced'] as const;
  const total = { type: 'All live bonds' } as Line;
  for (const k of keys) total[k] = rows.reduce((acc, r) => acc + Number(r[k]), 0);
  const priced = total.eligible - total.unpriced;
  const coverage = total.eligible ? priced / total.eligible : 0;
  const unpricedExamples = await database.db.execute(sql`
    SELECT isin, security_type, display_name, credit_rating FROM finstruments
     WHERE ${live} AND security_type NOT IN (${neverList}) AND ${known} AND reference_source IS NULL
     ORDER BY isin LIMIT 10`);
  const examples = rowsOf(unpricedExamples);
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ asOf, coverage, priced, total, byType: rows, curve: summary.curve, unpricedExamples: examples }, null, 2)}\n`,
    );
  } else {
    const pad = (v: unknown, n: number) => String(v).padStart(n);
    const head = `${'type'.padEnd(30)}${['eligible', 'close', 'trade', 'valuation', 'model', 'unpriced', 'no terms', 'never'].map((h) => pad(h, 10)).join('')}`;
    const line = (r: Line) =>
      `${r.type.padEnd(30)}${[r.eligible, r.close, r.trade, r.valuation, r.model, r.unpriced, r.terms_unknown, r.never_priceable].map((v) => pad(v, 10)).join('')}`;
    process.stdout.write(
      [
        `Valuation coverage of live bonds on ${asOf} (${values.slice ? 'slice' : 'full universe'}; G-sec curve ${summary.curve.date ?? 'none'}, ${summary.curve.points} points)`,
        head,
        ...rows.map(line),
        line(total),
        `Priced: ${priced} of ${total.eligible} live bonds with known coupon and maturity = ${(coverage * 100).toFixed(2)} %`,
        `  by source: close ${total.close}, trade ${total.trade}, valuation ${total.valuation}, model ${total.model}`,
        ...(examples.length ? ['Unpriced examples:', ...examples.map((e) => `  ${JSON.stringify(e)}`)] : []),
        '',
      ].join('\n'),
    );
  }
} finally {
  await database.close();
}
