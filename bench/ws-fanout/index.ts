/**
 * WebSocket fan-out benchmark: one public quote (POST /api/trade/eoi/) reaches 2,000 authenticated
 * sockets of `ws/trade/d/`. Measures publish→receive per socket (from the moment the quote request is
 * sent until the socket has the `market.public_run` event), p50/p99 over several quotes, and checks
 * every socket got every quote's event exactly once, in position order, at one position per quote.
 *
 * Modes: one node (in-memory PGlite, or a throwaway PostgreSQL database when DATABASE_URL is set), and
 * two nodes on one throwaway PostgreSQL database + the Redis bus when DATABASE_URL and REDIS_URL are
 * set (quotes posted on node A, sockets split evenly across A and B).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { createPostgresDatabase } from '../../apps/server/test/helpers';
import { serveScript, stopProcess, type ServedProcess } from '../lib/harness';
import type { BenchResult } from '../types';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 2000);
const USERS = Math.ceil(SOCKETS / 10); // the gateway allows 10 sockets per user and node
const QUOTES = Number(process.env.BENCH_QUOTES ?? 8);
const GSEC_2033 = 'IN0020220151';

type Node = ServedProcess;
const startNode = (env: NodeJS.ProcessEnv) => serveScript(path.join(import.meta.dirname, 'serve-node.ts'), env);
const stopNode = stopProcess;

interface Socket {
  ws: WebSocket;
  /** quote id → receive time (ms, performance clock) */
  received: Map<string, number>;
  positions: number[];
  quotePositions: Map<string, number[]>;
}

function connect(port: number, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/trade/d/`);
    const socket: Socket = { ws, received: new Map(), positions: [], quotePositions: new Map() };
    const timer = setTimeout(() => reject(new Error('auth timed out')), 20_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (raw: Buffer) => {
      const at = performance.now();
      const message = JSON.parse(raw.toString()) as { type: string; position?: number; topic?: string; payload?: { quote_id?: string } };
      if (message.type === 'auth_ok') {
        clearTimeout(timer);
        resolve(socket);
        return;
      }
      if (message.type !== 'event') return;
      socket.positions.push(message.position!);
      if (message.topic === 'market.public_run' && message.payload?.quote_id) {
        const id = message.payload.quote_id;
        if (!socket.received.has(id)) socket.received.set(id, at);
        socket.quotePositions.set(id, [...(socket.quotePositions.get(id) ?? []), message.position!]);
      }
    });
    ws.on('close', (code) => reject(new Error(`closed ${code}`)));
    ws.on('error', reject);
  });
}

async function connectAll(ports: number[], tokens: string[]): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const jobs = Array.from({ length: SOCKETS }, (_, i) => ({ port: ports[i % ports.length]!, token: tokens[Math.floor(i / 10)]! }));
  const BATCH = 50;
  for (let i = 0; i < jobs.length; i += BATCH)
    sockets.push(...(await Promise.all(jobs.slice(i, i + BATCH).map((job) => connect(job.port, job.token)))));
  return sockets;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function measure(label: string, nodes: Node[], tokens: string[]): Promise<BenchResult[]> {
  const base = `http://127.0.0.1:${nodes[0]!.port}`;
  const signIn = await fetch(`${base}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'dealer@demo.dart', password: 'Demo@12345' }),
  });
  const headers = { authorization: `Bearer ${((await signIn.json()) as { access: string }).access}`, 'content-type': 'application/json' };
  const bond = (await (await fetch(`${base}/api/finstrument/${GSEC_2033}/`)).json()) as { id: number };
  const connectStart = performance.now();
  const sockets = await connectAll(
    nodes.map((n) => n.port),
    tokens,
  );
  const connectMs = performance.now() - connectStart;
  const latencies: number[] = [];
  const quoteIds: string[] = [];
  try {
    for (let q = 0; q < QUOTES; q++) {
      const sent = performance.now();
      const response = await fetch(`${base}/api/trade/eoi/`, {
        method: 'POST',
        headers,
        // ₹5 Cr of the G-sec: face value in rupees (issue 12 §1).
        body: JSON.stringify({ quantum: 50_000_000, finstrument_id: bond.id, yield_stored: 0.07 + q / 10_000, validity: 60 }),
      });
      if (response.status !== 201) throw new Error(`quote: ${response.status} ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      const answered = performance.now() - sent;
      quoteIds.push(id);
      const deadline = performance.now() + 10_000;
      while (sockets.some((s) => !s.received.has(id)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const these: number[] = [];
      for (const s of sockets) {
        const at = s.received.get(id);
        if (at !== undefined) these.push(at - sent);
      }
      latencies.push(...these);
      if (process.env.BENCH_VERBOSE)
        console.error(
          `quote ${q}: http ${answered.toFixed(1)} ms, first ${Math.min(...these).toFixed(1)} ms, last ${Math.max(...these).toFixed(1)} ms`,
        );
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    for (const s of sockets) s.ws.terminate();
  }
  // Exactly once, in order, one position per quote, the same positions on every socket and node.
  const problems: string[] = [];
  const reference = new Map<string, number>();
  for (const s of sockets) {
    for (let i = 1; i < s.positions.length; i++) if (s.positions[i]! <= s.positions[i - 1]!) problems.push('out of order or duplicate');
    for (const id of quoteIds) {
      const got = s.quotePositions.get(id) ?? [];
      if (got.length !== 1) problems.push(got.length === 0 ? 'missed' : 'duplicate');
      else if ((reference.get(id) ?? got[0]) !== got[0]) problems.push('position differs');
      else reference.set(id, got[0]!);
    }
  }
  if (problems.length > 0) throw new Error(`${label}: ${problems.length} delivery problems, e.g. ${problems.slice(0, 5).join(', ')}`);
  latencies.sort((a, b) => a - b);
  return [
    {
      name: `ws-fanout: ${label}, ${sockets.length} sockets, public quote publish→receive p99`,
      value: percentile(latencies, 99),
      unit: 'ms',
      target: 150,
      note: `p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms over ${QUOTES} quotes (${latencies.length} deliveries, no gap/duplicate); ${sockets.length} sockets connected in ${(connectMs / 1000).toFixed(1)} s`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const secret = randomBytes(32).toString('hex');
  const tokensFile = path.join(tmpdir(), `dart-fanout-${process.pid}.json`);
  const seed = { JWT_SECRET: secret, SEED_USERS: String(USERS), TOKENS_FILE: tokensFile };

  // One node: memory bus; PostgreSQL (a throwaway database) when DATABASE_URL is set, else PGlite.
  {
    const scratch = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
    const node = await startNode({ ...seed, DATABASE_URL: scratch?.url ?? '', REDIS_URL: '' });
    try {
      const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as string[];
      results.push(...(await measure(`one node (${scratch ? 'postgres' : 'pglite'}, in-process bus)`, [node], tokens)));
    } finally {
      await stopNode(node);
      await scratch?.drop();
    }
  }
  // Two nodes sharing PostgreSQL and Redis.
  if (process.env.DATABASE_URL && process.env.REDIS_URL) {
    const scratch = await createPostgresDatabase();
    const nodes: Node[] = [];
    try {
      nodes.push(await startNode({ ...seed, DATABASE_URL: scratch.url }));
      nodes.push(await startNode({ JWT_SECRET: secret, DATABASE_URL: scratch.url, SEED_USERS: '0' }));
      const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as string[];
      results.push(...(await measure('two nodes (postgres + redis), sockets split A/B, quote on A', nodes, tokens)));
    } finally {
      for (const node of nodes) await stopNode(node);
      await scratch.drop();
    }
  }
  rmSync(tokensFile, { force: true });
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
