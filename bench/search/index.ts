/**
 * Bond search benchmark (issue 4): 1,000 realistic queries drawn from the universe (full ISINs, ISIN
 * prefixes, coupon + year like "7.26 gs 2033", SDLs like "7.18 maharashtra sdl 2032" and
 * "maharashtra sdl", issuer words like "hdfc bank 2028") over the full imported universe.
 *
 * Measures, on PGlite and (when DATABASE_URL is set) on a throwaway PostgreSQL database:
 * - server-side p50/p99 of the search call (the service, no HTTP), against the SQL-only trigram
 *   search as the baseline;
 * - HTTP round-trip p50/p99 (`GET /api/finstruments/search/` over loopback, sequential, keep-alive);
 * - the hit rate of "expected bond in the top 5" for the queries whose answer is known.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
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
