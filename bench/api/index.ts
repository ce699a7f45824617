/**
 * API benchmark: throughput and p99 latency of an authenticated GET (GET /api/session/: token
 * verification, principal load, session query) against a bare Fastify route, served side by side on
 * loopback under the same load (autocannon, 10 connections). Prints the ratio app/bare.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import type { BenchResult } from '../types';

const root = path.resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 10;

function serve(script: string, env: NodeJS.ProcessEnv = {}): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
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
  const bare = await serve('serve-bare.ts');
  const app = await serve('serve-app.ts');
  try {
    const signIn = await fetch(`http://127.0.0.1:${app.port}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dealer@demo.dart', password: 'Demo@12345' }),
    });
    const { access } = (await signIn.json()) as { access: string };
    // Warm both up, then measure one after the other under identical load.
    await autocannon({ url: `http://127.0.0.1:${bare.port}/bare`, connections: CONNECTIONS, duration: 2 });
    await autocannon({
      url: `http://127.0.0.1:${app.port}/api/session/`,
      connections: CONNECTIONS,
      duration: 2,
      headers: { authorization: `Bearer ${access}` },
    });
    const baseline = await load(`http://127.0.0.1:${bare.port}/bare`);
    const measured = await load(`http://127.0.0.1:${app.port}/api/session/`, { authorization: `Bearer ${access}` });
    const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    return [
      {
        name: `api: authenticated GET /api/session/ (${driver}) throughput`,
        value: measured.rps,
        unit: 'req/s',
        baseline: baseline.rps,
        note: 'baseline: bare Fastify route',
      },
      {
        name: `api: authenticated GET /api/session/ (${driver}) p99`,
        value: measured.p99,
        unit: 'ms',
        baseline: baseline.p99,
        note: `p50 ${measured.p50} ms vs ${baseline.p50} ms`,
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
