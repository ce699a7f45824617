/**
 * Market API benchmark: throughput and p99 of `GET /api/trade/d/market/` (a page of 20, signed in as
 * another firm's dealer) with 5,000 open public quotes, against a bare Fastify route served side by
 * side under the same load (autocannon, 10 connections, loopback). The quotes are seeded into a
 * throwaway database (PGlite in memory; a fresh PostgreSQL database when DATABASE_URL is set). The
 * public page comes from the market service's shared page cache (cleared on every market change); the
 * uncached SQL path is measured too (`my_quotes`, per firm).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import type { BenchResult } from '../types';

const root = path.resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 10;

function serve(script: string): Promise<{ port: number; extra: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+) ?(\S*)/.exec(out);
      if (match) resolve({ port: Number(match[1]), extra: match[2] ?? '', child });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

export async function run(): Promise<BenchResult[]> {
  const bare = await serve(path.join(root, 'bench/api/serve-bare.ts'));
  const app = await serve(path.join(import.meta.dirname, 'serve.ts'));
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
    await autocannon({ url: `http://127.0.0.1:${bare.port}/bare`, connections: CONNECTIONS, duration: 2 });
    await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
    const baseline = await load(`http://127.0.0.1:${bare.port}/bare`);
    const measured = await load(url, headers);
    // my_quotes is per firm and never cached: every request runs the page and count queries.
    const uncached = await load(`${url}&my_quotes=true`, owner);
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
    ];
  } finally {
    bare.child.kill('SIGTERM');
    app.child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
