/**
 * Surveillance benchmark (issue 16 "Speed"; README.md beside this file). On a throwaway PostgreSQL database next to
 * DATABASE_URL (the real app's migrations and bond import, NODE_ENV=test: no timers), seeds `BENCH_SURV_MESSAGES` chat
 * messages (default 1,000,000) and `BENCH_SURV_QUOTES` + `BENCH_SURV_DEALS` quotes and trades (80,000 + 20,000) with
 * their tickets, orders and audit rows (seed.ts), then:
 *
 * 1. **Baseline, plain read**: every source row read into the app (keyset batches, one transaction per pass; no
 *    rule, look-up or write): what a scanner that reads every row costs before it does anything.
 * 2. **Full scan**: `scanOnce()` from empty watermarks until caught up: seconds (target 60 s), rows/s, alerts by kind;
 *    the lexicon, spoofing and wash alerts are checked against the counts the seed planted.
 * 3. **Incremental**: the scanner on its timer as on the elected node (1 s interval, 2 s settle on PostgreSQL), while
 *    a second connection inserts `BENCH_SURV_RATE` chat messages a second (default 500) for `BENCH_SURV_SECONDS`
 *    (default 20), 2% of them lexicon hits; message → alert latency p50/p99 (target 5 s), seen by polling the alerts
 *    every 100 ms. No baseline: the design floor (settle + interval) is in the note.
 *
 * Without DATABASE_URL: NOT RUN (the target is PostgreSQL's). `node --import tsx bench/surveillance/index.ts`.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { sqlRows } from '../../apps/server/src/db/client';
import { createSurveillanceScanner } from '../../apps/server/src/modules/surveillance/surveillance.scanner';
import * as src from '../../apps/server/src/modules/surveillance/surveillance.sources';
import { createPostgresDatabase } from '../../apps/server/test/helpers';
import { printTable, type BenchResult } from '../types';
import { CHANNELS, LEXICON_LINES, seedSurveillanceData, type SeedCounts } from './seed';

const MESSAGES = Number(process.env.BENCH_SURV_MESSAGES ?? 1_000_000);
const QUOTES = Number(process.env.BENCH_SURV_QUOTES ?? 80_000);
const DEALS = Number(process.env.BENCH_SURV_DEALS ?? 20_000);
const RATE = Number(process.env.BENCH_SURV_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SURV_SECONDS ?? 20);
const BATCH = 5_000;

const loadNote = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-IN');

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

export async function run(): Promise<BenchResult[]> {
  if (!process.env.DATABASE_URL) {
    return [
      { name: 'surveillance: full scan and incremental scan (PostgreSQL)', value: NaN, unit: 's', note: 'NOT RUN: set DATABASE_URL' },
    ];
  }
  const scratch = await createPostgresDatabase();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: scratch.url,
    REDIS_URL: '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DEMO_SEED: '1',
    BOND_IMPORT: 'slice',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'dart-bench-surveillance-')),
  });
  const app = await buildApp({ config });
  try {
    await app.ready();
    console.error(`bench/surveillance: seeding ${fmt(MESSAGES)} messages, ${fmt(QUOTES)} quotes, ${fmt(DEALS)} deals …`);
    const seeded = await seedSurveillanceData(scratch.url, { messages: MESSAGES, quotes: QUOTES, deals: DEALS });
    console.error(`bench/surveillance: seeded in ${(seeded.seedMs / 1000).toFixed(1)} s: ${JSON.stringify(seeded)}`);
    const baseline = await plainRead(app.deps);
    console.error(`bench/surveillance: plain read ${baseline.seconds.toFixed(1)} s (${fmt(baseline.rows)} rows); full scan …`);
    const full = await fullScan(app.deps, seeded);
    console.error(`bench/surveillance: full scan ${full.seconds.toFixed(1)} s; incremental phase …`);
    const incremental = await incrementalScan(app.deps, scratch.url);
    return [...fullResults(full, baseline, seeded), ...incremental];
  } finally {
    await app.close();
    await scratch.drop();
  }
}

type Deps = Parameters<typeof createSurveillanceScanner>[0];

/**
 * Reading every source row into the app, no rules, look-ups or writes: chat messages (id, channel, sender, text, file,
 * time) and the scanner's own reads of quotes, deals (with ticket and orders) and tickets, keyset batches of BATCH,
 * one transaction per pass.
 */
async function plainRead(deps: Deps): Promise<{ seconds: number; rows: number }> {
  const started = performance.now();
  let rows = 0;
  const epoch = { at: new Date(0), id: '' };
  const marks: Record<src.Source, src.Watermark> = { chat: epoch, quotes: epoch, deals: epoch, tickets: epoch };
  for (let full = true; full;) {
    full = await deps.database.db.transaction(async (tx) => {
      const at = marks.chat.at.toISOString();
      const chat = await sqlRows<{ id: string; created_at: Date }>(
        tx,
        sql`SELECT m.id, m.channel_id, m.sender_id, m.message, m.file_id, m.created_at FROM chat_messages m
            WHERE m.created_at >= ${at}::timestamptz AND (m.created_at, m.id::text) > (${at}::timestamptz, ${marks.chat.id})
            ORDER BY m.created_at, m.id::text LIMIT ${BATCH}`,
      );
      const quotes = await src.quotesAfter(tx, marks.quotes, BATCH, 0);
      const deals = await src.dealsAfter(tx, marks.deals, BATCH, 0);
      const tickets = await src.ticketsAfter(tx, marks.tickets, BATCH, 0);
      if (chat.length) marks.chat = { at: new Date(chat.at(-1)!.created_at), id: chat.at(-1)!.id };
      if (quotes.length) marks.quotes = { at: quotes.at(-1)!.updated_at, id: quotes.at(-1)!.id };
      if (deals.length) marks.deals = { at: deals.at(-1)!.created_at, id: deals.at(-1)!.id };
      if (tickets.length) marks.tickets = { at: tickets.at(-1)!.updated_at, id: tickets.at(-1)!.id };
      rows += chat.length + quotes.length + deals.length + tickets.length;
      return [chat, quotes, deals, tickets].some((r) => r.length >= BATCH);
    });
  }
  return { seconds: (performance.now() - started) / 1000, rows };
}

interface FullScan {
  seconds: number;
  read: number;
  alerts: number;
  passes: number;
  byKind: Record<string, number>;
  load: string;
}

async function fullScan(deps: Deps, seeded: SeedCounts): Promise<FullScan> {
  const scanner = createSurveillanceScanner(deps);
  const load = loadNote();
  const started = performance.now();
  const summary = await scanner.scanOnce();
  const seconds = (performance.now() - started) / 1000;
  const rows = await sqlRows<{ kind: string; n: number }>(
    deps.database.db,
    sql`SELECT kind, count(*)::int AS n FROM surveillance_alerts GROUP BY kind ORDER BY kind`,
  );
  const byKind = Object.fromEntries(rows.map((r) => [r.kind, r.n]));
  // What the seed planted, exactly: one lexicon alert per hit (the sender's firm), one spoofing alert per cluster of
  // four pulled quotes, a wash alert for each firm of each reversed deal (at least).
  const expected = {
    chat_lexicon: seeded.lexiconMessages,
    spoofing: Math.ceil(QUOTES / 4 / 100),
    wash_trade: 2 * Math.ceil((DEALS - Math.floor(DEALS / 200)) / 200),
  };
  for (const [kind, n] of Object.entries(expected)) {
    // Random pairs of deals may reverse each other by chance: the planted wash alerts are a lower bound.
    const found = byKind[kind] ?? 0;
    if (kind === 'wash_trade' ? found < n : found !== n) throw new Error(`full scan: ${found} ${kind} alerts, the seed planted ${n}`);
  }
  if (!byKind.chat_before_trade || !byKind.off_market || !byKind.late_report)
    throw new Error(`full scan: missing kinds ${JSON.stringify(byKind)}`);
  // A second scan from the same watermarks reads nothing new.
  const again = await scanner.scanOnce();
  if (again.alerts !== 0) throw new Error(`a scan after catching up raised ${again.alerts} alerts`);
  return { seconds, read: summary.read, alerts: summary.alerts, passes: summary.passes, byKind, load };
}

function fullResults(full: FullScan, baseline: { seconds: number; rows: number }, seeded: SeedCounts): BenchResult[] {
  const volume = `${fmt(seeded.messages)} messages, ${fmt(seeded.quotes)} quotes, ${fmt(seeded.deals)} deals, ${fmt(seeded.tickets)} tickets, ${fmt(seeded.orders)} orders`;
  return [
    {
      name: `surveillance: full scan from empty watermarks (${volume}; PostgreSQL)`,
      value: full.seconds,
      unit: 's',
      target: 60,
      baseline: baseline.seconds,
      note: `${full.passes} passes; baseline = reading every source row into the app (keyset batches of ${fmt(BATCH)}, no rules, look-ups or writes) (${fmt(baseline.rows)} rows); ${full.load}`,
    },
    {
      name: 'surveillance: full scan, source rows per second',
      value: full.read / full.seconds,
      unit: 'rows/s',
      baseline: baseline.rows / baseline.seconds,
      note: `${fmt(full.read)} rows read (late orders included)`,
    },
    {
      name: 'surveillance: full scan, alerts raised',
      value: full.alerts,
      unit: 'alerts',
      note: Object.entries(full.byKind)
        .map(([k, n]) => `${k} ${fmt(n)}`)
        .join(', '),
    },
  ];
}

/** The scanner on its timer; chat messages inserted at RATE/s by another connection; message → alert latency. */
async function incrementalScan(deps: Deps, url: string): Promise<BenchResult[]> {
  const writer = new pg.Client({ connectionString: url });
  const poller = new pg.Client({ connectionString: url });
  await Promise.all([writer.connect(), poller.connect()]);
  const scanner = createSurveillanceScanner(deps);
  const load = loadNote();
  const hits = new Map<string, number>();
  const seen = new Map<string, number>();
  let positions = 1_000_000;
  let inserted = 0;
  let insertLag = 0;
  try {
    scanner.start(() => true);
    const polling = setInterval(() => {
      void poller
        .query<{ id: string }>(
          `SELECT substr(dedupe_key, 14) AS id FROM surveillance_alerts WHERE kind = 'chat_lexicon' AND created_at > now() - interval '10 minutes'`,
        )
        .then(({ rows }) => {
          const at = Date.now();
          for (const r of rows) if (hits.has(r.id) && !seen.has(r.id)) seen.set(r.id, at);
        })
        .catch(() => undefined);
    }, 100);
    const tick = 100;
    const perTick = Math.max(1, Math.round((RATE * tick) / 1000));
    const started = Date.now();
    for (let t = 0; t < (SECONDS * 1000) / tick; t++) {
      const due = started + t * tick;
      if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
      insertLag = Math.max(insertLag, Date.now() - due);
      const base = positions;
      positions += perTick;
      // 2% lexicon hits (one message in 50), the rest ordinary talk; each message in one of the desk chats.
      const { rows } = await writer.query<{ id: string; message: string; at: Date }>(
        `INSERT INTO chat_messages (channel_id, position, sender_id, message_type, message, created_at)
         SELECT c.id, $1 + g, m.user_id, 'user',
                CASE WHEN ($1 + g) % 50 = 0 THEN ($2::text[])[1 + (($1 + g) / 50) % array_length($2::text[], 1)] ELSE 'Bid 7.80 for 5 cr, T+1' END,
                clock_timestamp()
         FROM generate_series(0, $3 - 1) g
         JOIN chat_channels c ON c.url = 'bench_' || (($1 + g) % ${CHANNELS})
         JOIN LATERAL (SELECT user_id FROM chat_members WHERE channel_id = c.id ORDER BY user_id LIMIT 1) m ON true
         RETURNING id, message, created_at AS at`,
        [base, LEXICON_LINES, perTick],
      );
      inserted += rows.length;
      for (const r of rows) if (LEXICON_LINES.includes(r.message)) hits.set(r.id, new Date(r.at).getTime());
    }
    const sendSeconds = (Date.now() - started) / 1000;
    const deadline = Date.now() + 30_000;
    while (seen.size < hits.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    clearInterval(polling);
    const latencies = [...seen].map(([id, at]) => at - hits.get(id)!);
    const missing = hits.size - seen.size;
    const note = `${fmt(inserted)} messages in ${sendSeconds.toFixed(1)} s (${fmt(inserted / sendSeconds)}/s, inserter lag max ${insertLag} ms), ${hits.size} lexicon hits, ${missing} not alerted within 30 s; alert seen by a 100 ms poll; design floor = 2 s settle + up to 1 s interval; ${load}`;
    return [
      {
        name: `surveillance: incremental, chat message → lexicon alert p50 (${RATE} messages/s)`,
        value: percentile(latencies, 50),
        unit: 'ms',
        note,
      },
      {
        name: `surveillance: incremental, chat message → lexicon alert p99 (${RATE} messages/s)`,
        value: percentile(latencies, 99),
        unit: 'ms',
        target: 5_000,
        note: `max ${Math.max(...latencies)} ms`,
      },
    ];
  } finally {
    await scanner.stop();
    await Promise.all([writer.end(), poller.end()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await run());
