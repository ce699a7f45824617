/**
 * Bond search benchmark (issue 4): 1,000 realistic queries drawn from the universe (full ISINs, ISIN
 * prefixes, coupon + year like "7.26 gs 2033", SDLs like "7.18 maharashtra sdl 2032" and
 * "maharashtra sdl", issuer words like "hdfc bank 2028") over the full imported universe.
 *
 * Measures, on PGlite and (when DATABASE_URL is set) on a throwaway PostgreSQL database:
 * - server-side p50/p99 of the search call (the service, no HTTP), against the SQL-only trigram
 *   search as the baseline;
 * - HTTP round-trip p50/p99 (`GET /api/finstruments/search/` over loopback, sequential, keep-alive);
 * - the hit rate of "expected bond in the top 5" for the queries whose answer is known;
 * - the Find grid (`POST /api/finstruments/`, first page of 20 and the count, issue 12): its default order
 *   (no search) and broad searches ("gs", "2030", "hdfc": thousands of matches passed to SQL as one int[]):
 *   server-side p50/p99 against the grid's SQL before issue 12 (`search_text LIKE '%term%'`, maturity order)
 *   as the baseline, HTTP p50/p99 (sequential) and req/s (autocannon in its own process, 10 connections).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { FinstrumentListRequestSchema } from '@dart/contracts';
import Papa from 'papaparse';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite, openPostgres, type Database } from '../../apps/server/src/db/client';
import { migrate } from '../../apps/server/src/db/migrate';
import { createLogger } from '../../apps/server/src/lib/logger';
import { createFinstrumentsService, importBonds } from '../../apps/server/src/modules/finstruments';
import { readDataText } from '../../apps/server/src/modules/finstruments/importer';
import { createPostgresDatabase } from '../../apps/server/test/helpers';
import type { BenchResult } from '../types';

const QUERIES = 1000;
interface Query {
  text: string;
  expected?: string;
  kind: string;
}

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Queries drawn from the data with a fixed seed; `expected` only where the answer is unique. */
export function buildQueries(dataDir: string, today: string): Query[] {
  type Row = Record<string, string>;
  const rows = Papa.parse<Row>(readDataText(dataDir, 'bonds/bond_universe.csv'), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const live = rows.filter((r) => r.maturity_date && r.maturity_date > today);
  const random = rng(42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const queries: Query[] = [];
  const unique = (list: Row[], key: (r: Row) => string) => {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    return list.filter((r) => counts.get(key(r)) === 1);
  };
  const gsecs = unique(
    live.filter((r) => r.security_type === 'G-Sec' && r.coupon_rate),
    (r) => `G|${Number(r.coupon_rate)}|${r.maturity_date!.slice(0, 4)}`,
  );
  const sdls = live.filter((r) => r.security_type === 'SDL' && r.coupon_rate);
  const sdlUnique = unique(sdls, (r) => `S|${r.issuer_name}|${Number(r.coupon_rate)}|${r.maturity_date!.slice(0, 4)}`);
  const corporates = live.filter(
    (r) => r.security_type === 'Bond/NCD' && r.coupon_rate && r.issuer_name_source !== 'BSE short name (abbreviation)',
  );
  const corpUnique = unique(
    corporates,
    (r) => `C|${(r.issuer_name ?? '').split(/\s+/)[0]!.toLowerCase()}|${Number(r.coupon_rate)}|${r.maturity_date!.slice(0, 4)}`,
  );
  const states = [...new Set(sdls.map((r) => r.issuer_name!.replace(/^State of |Government of /i, '').toLowerCase()))];
  for (let i = 0; i < QUERIES; i++) {
    const kind = i % 7;
    if (kind === 0) {
      const r = pick(live);
      queries.push({ text: r.isin!, expected: r.isin, kind: 'isin' });
    } else if (kind === 1) {
      const r = pick(live);
      queries.push({ text: r.isin!.slice(0, 6 + Math.floor(random() * 5)), kind: 'isin-prefix' });
    } else if (kind === 2 && gsecs.length) {
      const r = pick(gsecs);
      queries.push({ text: `${Number(r.coupon_rate)} gs ${r.maturity_date!.slice(0, 4)}`, expected: r.isin, kind: 'coupon-year' });
    } else if (kind === 3 && sdlUnique.length) {
      const r = pick(sdlUnique);
      queries.push({
        text: `${Number(r.coupon_rate)} ${r.issuer_name!.toLowerCase()} sdl ${r.maturity_date!.slice(0, 4)}`,
        expected: r.isin,
        kind: 'sdl-coupon-year',
      });
    } else if (kind === 4) {
      queries.push({ text: `${pick(states)} sdl`, kind: 'state-sdl' });
    } else if (kind === 5 && corpUnique.length) {
      const r = pick(corpUnique);
      queries.push({
        text: `${r.issuer_name!.split(/\s+/)[0]!.toLowerCase()} ${Number(r.coupon_rate)} ${r.maturity_date!.slice(0, 4)}`,
        expected: r.isin,
        kind: 'issuer-coupon-year',
      });
    } else {
      const r = pick(corporates);
      const words = r
        .issuer_name!.toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length >= 3)
        .slice(0, 2);
      queries.push({ text: `${words.join(' ')} ${random() < 0.5 ? r.maturity_date!.slice(0, 4) : ''}`.trim(), kind: 'issuer-words' });
    }
  }
  return queries;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** The Find grid cases: its default order (no search) and broad terms. */
const FIND_CASES: Array<{ label: string; search?: string }> = [
  { label: 'default order' },
  { label: '"gs"', search: 'gs' },
  { label: '"2030"', search: '2030' },
  { label: '"hdfc"', search: 'hdfc' },
];
const FIND_SAMPLES = 200;
const FIND_LOAD_SECONDS = Number(process.env.BENCH_DURATION_S ?? 3);
const execFileAsync = promisify(execFile);

/**
 * The Find grid's SQL before issue 12 (the baseline): a substring LIKE on `search_text` (trigram-indexed),
 * live or perpetual bonds, maturity order, one page and the count, as two queries like the repository's.
 */
async function legacyFindPage(database: Database, today: string, search: string | undefined) {
  const where = ['(perpetual OR maturity_date IS NULL OR maturity_date >= $1)'];
  const params: unknown[] = [today];
  if (search) {
    params.push(`%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`search_text LIKE $2`);
  }
  const condition = where.join(' AND ');
  const [rows, total] = await Promise.all([
    database.query(`SELECT * FROM finstruments WHERE ${condition} ORDER BY maturity_date ASC NULLS LAST, id ASC LIMIT 20`, params),
    database.query<{ n: number }>(`SELECT count(*)::int AS n FROM finstruments WHERE ${condition}`, params),
  ]);
  return { rows: rows.length, count: Number(total[0]?.n ?? 0) };
}

/** Requests per second on one POST route: autocannon in a child process (off the server's event loop). */
async function loadPost(url: string, body: object): Promise<{ rps: number; p99: number }> {
  const bin = path.resolve(import.meta.dirname, '../../node_modules/.bin/autocannon');
  const args = ['-c', '10', '-d', String(FIND_LOAD_SECONDS), '-m', 'POST', '-H', 'content-type=application/json'];
  const { stdout } = await execFileAsync(bin, [...args, '-b', JSON.stringify(body), '--json', url], { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url} ${JSON.stringify(body)}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The Find grid over the full universe: server-side against the pre-issue-12 SQL, then over HTTP. */
async function measureFind(
  database: Database,
  service: ReturnType<typeof createFinstrumentsService>,
  port: number,
  driver: string,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
  const url = `http://127.0.0.1:${port}/api/finstruments/`;
  for (const c of FIND_CASES) {
    const body = c.search ? { search: c.search } : {};
    const input = FinstrumentListRequestSchema.parse(body);
    const time = async (call: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await call();
      const samples: number[] = [];
      for (let i = 0; i < FIND_SAMPLES; i++) {
        const t0 = performance.now();
        await call();
        samples.push(performance.now() - t0);
      }
      return stats(samples);
    };
    const matches = (await service.list(input)).count;
    const legacyMatches = (await legacyFindPage(database, today, c.search)).count;
    const server = await time(() => service.list(input));
    const legacy = await time(() => legacyFindPage(database, today, c.search));
    const http = await time(async () => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`find ${JSON.stringify(body)} answered ${response.status}`);
    });
    const load = await loadPost(url, body);
    // What a market list's `search` pays on a cache miss before its SQL: every match of the index, as ids.
    const ids = c.search ? await time(async () => service.searchIds(c.search!)) : null;
    const baselineNote = `baseline: the grid's SQL before issue 12 (${c.search ? `LIKE '%${c.search}%', ${legacyMatches} rows` : 'maturity order'})`;
    results.push(
      {
        name: `find grid ${c.label}: server-side p50 (${driver})`,
        value: server.p50,
        unit: 'ms',
        baseline: legacy.p50,
        note: `${matches} live bonds; ${baselineNote}`,
      },
      {
        name: `find grid ${c.label}: server-side p99 (${driver})`,
        value: server.p99,
        unit: 'ms',
        baseline: legacy.p99,
        note: baselineNote,
      },
      {
        name: `find grid ${c.label}: HTTP p50 (${driver})`,
        value: http.p50,
        unit: 'ms',
        note: 'page of 20 + count, sequential, keep-alive',
      },
      { name: `find grid ${c.label}: HTTP p99 (${driver})`, value: http.p99, unit: 'ms', note: 'sequential, keep-alive' },
      {
        name: `find grid ${c.label}: HTTP throughput (${driver})`,
        value: load.rps,
        unit: 'req/s',
        note: `autocannon, 10 connections, ${FIND_LOAD_SECONDS} s; p99 under load ${load.p99} ms`,
      },
    );
    if (ids)
      results.push({
        name: `market-list search ${c.label}: index ids p50 / p99 (${driver})`,
        value: ids.p50,
        unit: 'ms',
        note: `p99 ${ids.p99.toFixed(3)} ms; ${service.searchIds(c.search!).length} ids (matured included) for the int[] filter`,
      });
  }
  return results;
}

async function measure(database: Database, driver: 'pglite' | 'postgres', dataDir: string, databaseUrl?: string): Promise<BenchResult[]> {
  const started = performance.now();
  await migrate(database);
  const summary = await importBonds(database, { dataDir });
  const importSeconds = (performance.now() - started) / 1000;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'b'.repeat(48),
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dart-bench-search-')),
    DEMO_SEED: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    BOND_IMPORT: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const service = createFinstrumentsService(app.deps);
  await service.startIndexSync();
  try {
    const today = new Date().toISOString().slice(0, 10);
    const queries = buildQueries(dataDir, today);
    // Warm up (JIT, plan cache), then measure.
    for (const q of queries.slice(0, 100)) {
      service.search(q.text, 20);
      await service.searchSql(q.text, 20);
    }
    const server: number[] = [];
    let known = 0;
    let hits = 0;
    for (const q of queries) {
      const t0 = performance.now();
      const result = service.search(q.text, 20);
      server.push(performance.now() - t0);
      if (q.expected) {
        known++;
        if (result.finstruments.slice(0, 5).some((f) => f.identifiers.ISIN === q.expected)) hits++;
      }
    }
    const sqlSamples: number[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      await service.searchSql(q.text, 20);
      sqlSamples.push(performance.now() - t0);
    }
    const http: number[] = [];
    for (const q of queries.slice(0, 50))
      await fetch(`http://127.0.0.1:${port}/api/finstruments/search/?searchKey=${encodeURIComponent(q.text)}`).then((r) => r.arrayBuffer());
    for (const q of queries) {
      const t0 = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/api/finstruments/search/?searchKey=${encodeURIComponent(q.text)}`);
      await response.arrayBuffer();
      http.push(performance.now() - t0);
      if (response.status !== 200) throw new Error(`search "${q.text}" answered ${response.status}`);
    }
    const s = stats(server);
    const b = stats(sqlSamples);
    const h = stats(http);
    const n = summary.finstruments.inserted + summary.finstruments.unchanged + summary.finstruments.updated;
    const find = await measureFind(database, service, port, driver);
    return [
      {
        name: `search: server-side p50 (${driver}, ${n} bonds)`,
        value: s.p50,
        unit: 'ms',
        baseline: b.p50,
        note: 'baseline: SQL trigram LIKE search',
      },
      {
        name: `search: server-side p99 (${driver})`,
        value: s.p99,
        unit: 'ms',
        baseline: b.p99,
        target: driver === 'pglite' ? 10 : 5,
        note: 'baseline: SQL trigram LIKE search',
      },
      { name: `search: HTTP round trip p50 (${driver})`, value: h.p50, unit: 'ms' },
      { name: `search: HTTP round trip p99 (${driver})`, value: h.p99, unit: 'ms', target: 25, note: 'sequential, loopback, keep-alive' },
      {
        name: `search: expected bond in top 5 (${driver})`,
        value: (100 * hits) / Math.max(known, 1),
        unit: '%',
        note: `${hits}/${known} known-answer queries of ${queries.length}`,
      },
      {
        name: `search: full import (${driver})`,
        value: importSeconds,
        unit: 's',
        note: `${n} finstruments, ${summary.trades.inserted} trades, ${summary.referencePrices.inserted} reference prices`,
      },
      ...find,
    ];
  } finally {
    service.stop();
    await app.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'b'.repeat(48), DATA_DIR: tmpdir() }).bondDataDir;
  const results: BenchResult[] = [];
  results.push(...(await measure(await openPglite('memory://'), 'pglite', dataDir)));
  if (process.env.DATABASE_URL) {
    // A throwaway database next to DATABASE_URL: never writes into an existing one.
    const scratch = await createPostgresDatabase();
    try {
      results.push(...(await measure(await openPostgres(scratch.url, createLogger('silent'), 120_000), 'postgres', dataDir, scratch.url)));
    } finally {
      await scratch.drop();
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
