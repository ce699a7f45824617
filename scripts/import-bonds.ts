/**
 * `npm run import:bonds`: loads the Indian bond universe (bond_universe.csv, issuers, ratings, exchange
 * closes, reported trades, fund valuations) into the configured database. Idempotent: run it again and
 * it reports 0 inserted, 0 updated. See apps/server/src/modules/finstruments/README.md.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config';
import { openPglite, openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { createLogger } from '../apps/server/src/lib/logger';
import { importBonds } from '../apps/server/src/modules/finstruments';

const HELP = `Usage: npm run import:bonds -- [options]

Imports reference-data/bonds and reference-data/trades into the database: finstruments, issuers,
ratings, trades and reference prices (exchange closes, reported trades, fund valuations, and the
matrix method for the rest). Upserts are idempotent; a summary of inserted / updated / unchanged /
rejected rows (with reasons) is printed at the end. A progress bar goes to stderr.

Options:
  --data-dir <dir>   folder holding bonds/ and trades/, files as .csv.gz or .csv
                     (default: BOND_DATA_DIR or the repository's reference-data/)
  --slice            import a small slice (a few hundred rows: G-secs, T-bills, SDLs, HDFC bonds, ...)
  --batch <n>        rows per transaction (default 500)
  --json             print the summary as JSON
  -h, --help         this text

Database: DATABASE_URL when set, otherwise the embedded PGlite database in DATA_DIR/db (stop the
server first: the embedded database allows one process).`;

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    slice: { type: 'boolean', default: false },
    batch: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}

const config = loadConfig();
const batchSize = values.batch ? Number(values.batch) : 500;
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 5000) {
  process.stderr.write('--batch must be an integer 1–5000\n');
  process.exit(2);
}
const database = config.databaseUrl
  ? await openPostgres(config.databaseUrl, createLogger('silent'), 120_000)
  : await openPglite(path.join(config.dataDir, 'db'));

const tty = process.stderr.isTTY;
let lastLine = '';
function progress(phase: string, done: number, total: number): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  const line = `${phase.padEnd(24)} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`;
  if (line === lastLine) return;
  lastLine = line;
  if (tty) process.stderr.write(`\r${line}\x1b[K`);
  else if (done === total) process.stderr.write(`${line}\n`);
}

try {
  await migrate(database);
  const summary = await importBonds(database, {
    dataDir: values['data-dir'] ?? config.bondDataDir,
    slice: values.slice,
    batchSize,
    onProgress: progress,
  });
  if (tty) process.stderr.write('\n');
  if (values.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    const line = (name: string, c: { inserted: number; updated: number; unchanged: number; rejected: number }) =>
      `  ${name.padEnd(18)} inserted ${String(c.inserted).padStart(6)}  updated ${String(c.updated).padStart(6)}  unchanged ${String(c.unchanged).padStart(6)}  rejected ${String(c.rejected).padStart(5)}`;
    const out = [
      `Imported into ${database.driver} in ${(summary.durationMs / 1000).toFixed(1)} s`,
      line('issuers', summary.issuers),
      line('finstruments', summary.finstruments),
      line('ratings', summary.ratings),
      line('trades', summary.trades),
      line('reference prices', summary.referencePrices),
      `  G-sec curve: ${summary.curve.date ?? 'none'} (${summary.curve.points} points)`,
      'Rejected rows by reason:',
      ...Object.entries(summary.rejectedByReason)
        .sort((a, b) => b[1] - a[1])
        .map(([reason, n]) => `  ${String(n).padStart(6)}  ${reason}`),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  }
} finally {
  await database.close();
}
