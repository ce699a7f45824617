/**
 * API benchmark: throughput and p99 of authenticated GETs against a bare Fastify route, served side by
 * side on loopback under the same load (autocannon, 10 connections). Two authenticated routes:
 * `GET /api/trade/timings` (token check, principal, policy, rate limit, serialisation: the request
 * pipeline without domain SQL) and `GET /api/session/` (the same plus two queries).
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_CONNECTIONS, loadRoute, serveScript, stopProcess } from '../lib/harness';
import type { BenchResult } from '../types';

export async function run(): Promise<BenchResult[]> {
  const bare = await serveScript(path.join(import.meta.dirname, 'serve-bare.ts'));
  const app = await serveScript(path.join(import.meta.dirname, 'serve-app.ts'));
  try {
    const signIn = await fetch(`http://127.0.0.1:${app.port}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dealer@demo.dart', password: 'Demo@12345' }),
    });
    const headers = { authorization: `Bearer ${((await signIn.json()) as { access: string }).access}` };
    const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    const bareUrl = `http://127.0.0.1:${bare.port}/bare`;
    // Warm up, then measure one after the other under identical load.
    await autocannon({ url: bareUrl, connections: BENCH_CONNECTIONS, duration: 2 });
    const baseline = await loadRoute(bareUrl);
    const results: BenchResult[] = [];
    for (const route of ['/api/trade/timings', '/api/session/']) {
      const url = `http://127.0.0.1:${app.port}${route}`;
      await autocannon({ url, connections: BENCH_CONNECTIONS, duration: 2, headers });
      const measured = await loadRoute(url, headers);
      results.push(
        {
          name: `api: authenticated GET ${route} (${driver}) throughput`,
          value: measured.rps,
          unit: 'req/s',
          baseline: baseline.rps,
          note: 'baseline: bare Fastify route',
        },
        {
          name: `api: authenticated GET ${route} (${driver}) p99`,
          value: measured.p99,
          unit: 'ms',
          baseline: baseline.p99,
          note: `p50 ${measured.p50} ms vs ${baseline.p50} ms`,
        },
      );
    }
    return results;
  } finally {
    await Promise.all([stopProcess(bare), stopProcess(app)]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
