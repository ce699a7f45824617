/**
 * Market API benchmark: throughput and p99 of `GET /api/trade/d/market/` (a page of 20, signed in as
 * another firm's dealer) with 5,000 open public quotes, against a bare Fastify route served side by
 * side under the same load (autocannon, 10 connections, loopback). The quotes are seeded into a
 * throwaway database (PGlite in memory; a fresh PostgreSQL database when DATABASE_URL is set). The
 * public page comes from the market service's shared page cache (cleared on every market change); the
 * uncached SQL path is measured too (`my_quotes`, per firm), and so are the aggregates: the market depth
 * of the most quoted bond (`GET /api/quote/depth/`) and the instruments in the market
 * (`GET /api/trade/finstrument/`, a page of 20 bonds over all 5,000 quotes), both from the service's
 * shared aggregate cache (one SQL run per second at most while nothing changes).
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_CONNECTIONS, loadRoute, REPO_ROOT, serveScript, stopProcess } from '../lib/harness';
import type { BenchResult } from '../types';

export async function run(): Promise<BenchResult[]> {
  const bare = await serveScript(path.join(REPO_ROOT, 'bench/api/serve-bare.ts'));
  const app = await serveScript(path.join(import.meta.dirname, 'serve.ts'));
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const signIn = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dealer@second.dart', password: 'Demo@12345' }),
    });
    const { access } = (await signIn.json()) as { access: string };
    const headers = { authorization: `Bearer ${access}` };
    const ownerSignIn = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dealer@demo.dart', password: 'Demo@12345' }),
    });
    const owner = { authorization: `Bearer ${((await ownerSignIn.json()) as { access: string }).access}` };
    const url = `${base}/api/trade/d/market/?page=1&page_size=20`;
    const page = (await (await fetch(url, { headers })).json()) as { count: number; results: unknown[] };
    if (page.count < 5000 || page.results.length !== 20)
      throw new Error(`unexpected page: count ${page.count}, ${page.results.length} rows`);
    await autocannon({ url: `http://127.0.0.1:${bare.port}/bare`, connections: BENCH_CONNECTIONS, duration: 2 });
    await autocannon({ url, connections: BENCH_CONNECTIONS, duration: 2, headers });
    const baseline = await loadRoute(`http://127.0.0.1:${bare.port}/bare`);
    const measured = await loadRoute(url, headers);
    // my_quotes is per firm and never cached: every request runs the page and count queries.
    const uncached = await loadRoute(`${url}&my_quotes=true`, owner);
    const instrumentsUrl = `${base}/api/trade/finstrument/?page=1&page_size=20`;
    const instruments = (await (await fetch(instrumentsUrl, { headers })).json()) as {
      count: number;
      results: Array<{ finstrument_id: number }>;
    };
    if (instruments.results.length !== 20) throw new Error(`unexpected instruments page: ${instruments.results.length} rows`);
    const depthUrl = `${base}/api/quote/depth/?finstrument_id=${instruments.results[0]!.finstrument_id}`;
    const depthPage = (await (await fetch(depthUrl, { headers })).json()) as { bid_count: number; ask_count: number };
    const depth = await loadRoute(depthUrl, headers);
    const instrumentList = await loadRoute(instrumentsUrl, headers);
    const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    const label = `market-api: GET /api/trade/d/market/ page of 20, ${page.count} open quotes (${driver})`;
    return [
      {
        name: `${label} throughput`,
        value: measured.rps,
        unit: 'req/s',
        baseline: baseline.rps,
        ...(driver === 'postgres' ? { target: 2000 } : {}),
        note: `baseline: bare Fastify route; seeding took ${app.extra} ms`,
      },
      {
        name: `${label} p99`,
        value: measured.p99,
        unit: 'ms',
        baseline: baseline.p99,
        ...(driver === 'postgres' ? { target: 50 } : {}),
        note: `p50 ${measured.p50} ms vs ${baseline.p50} ms; shared page cache, cleared on every market change`,
      },
      {
        name: `market-api: same page with my_quotes=true, 5000 own quotes, uncached (${driver}) throughput`,
        value: uncached.rps,
        unit: 'req/s',
        baseline: baseline.rps,
        note: `p99 ${uncached.p99} ms, p50 ${uncached.p50} ms: the SQL path (page + count) on every request`,
      },
      {
        name: `market-api: GET /api/quote/depth/ of the most quoted bond (${depthPage.bid_count + depthPage.ask_count} quotes), shared cache (${driver}) throughput`,
        value: depth.rps,
        unit: 'req/s',
        baseline: baseline.rps,
        note: `p99 ${depth.p99} ms, p50 ${depth.p50} ms: bond lookup per request; the grouped levels query at most once a second`,
      },
      {
        name: `market-api: GET /api/trade/finstrument/ page of 20 of ${instruments.count} bonds, shared cache (${driver}) throughput`,
        value: instrumentList.rps,
        unit: 'req/s',
        baseline: baseline.rps,
        note: `p99 ${instrumentList.p99} ms, p50 ${instrumentList.p50} ms: the aggregate over every open public quote at most once a second`,
      },
    ];
  } finally {
    await Promise.all([stopProcess(bare), stopProcess(app)]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
