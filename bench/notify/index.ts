/**
 * Notification benchmark (issue 15 "Speed"): a burst of 1,000 deal events fanned out to 2,000 connected users
 * (100 firms × 20 trading users, one socket each, split across two app nodes on one throwaway PostgreSQL database
 * and the Redis bus). Each event concerns one firm, so it becomes 20 notifications: 20,000 in all, 10 per user.
 * Notifications fan out on read: 1,000 rows (one per event and firm), each the bell of 20 users. Measures
 * event→bell: from the event's commit on node A to its `notify.created` on the user's socket (epoch clock, the same
 * machine). A tenth of the sockets are terminated 300 ms into the burst and reconnect at once with their last
 * position; at the end each user's firm's notifications in the database are compared with what their socket
 * received: lost (never received), duplicated (received twice) and another firm's must all be 0. Needs DATABASE_URL
 * and REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { WebSocket } from 'ws';
import { createPostgresDatabase } from '../../apps/server/test/helpers';
import { serveScript, stopProcess, type ServedProcess } from '../lib/harness';
import type { BenchResult } from '../types';

const FIRMS = Number(process.env.BENCH_NOTIFY_FIRMS ?? 100);
const USERS_PER_FIRM = Number(process.env.BENCH_NOTIFY_USERS_PER_FIRM ?? 20);
const EVENTS = Number(process.env.BENCH_NOTIFY_EVENTS ?? 1000);
/** The share of sockets dropped mid-burst (0 measures the burst without the reconnect storm). */
const RECONNECT_SHARE = Number(process.env.BENCH_NOTIFY_RECONNECT_SHARE ?? 0.1);
const RECONNECT_AFTER_MS = 300;
const TARGET_P99_MS = 200;

const epochNow = () => performance.timeOrigin + performance.now();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Bell {
  token: string;
  /** Index of the user's firm (`Bench Firm <n>`). */
  firm: number;
  port: number;
  ws: WebSocket | null;
  position: number;
  /** notification id → receive times (more than one = a duplicate) */
  received: Map<string, number[]>;
  replayedIds: Set<string>;
  reconnected: boolean;
}

function open(bell: Bell, lastPosition?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${bell.port}/ws/trade/d/`);
    bell.ws = ws;
    /** On a reconnect: the position the server was at when it took us back; events up to it are the replay. */
    let replayUntil = 0;
    const timer = setTimeout(() => reject(new Error('auth timed out')), 30_000);
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'auth', token: bell.token, ...(lastPosition === undefined ? {} : { last_position: lastPosition }) })),
    );
    ws.on('message', (raw: Buffer) => {
      const at = epochNow();
      const message = JSON.parse(raw.toString()) as {
        type: string;
        position?: number;
        topic?: string;
        payload?: { notification?: { id: string } };
      };
      if (message.type === 'auth_ok') {
        clearTimeout(timer);
        if (lastPosition !== undefined) replayUntil = message.position!;
        resolve();
        return;
      }
      if (message.type !== 'event') return;
      bell.position = Math.max(bell.position, message.position!);
      if (message.topic !== 'notify.created' || !message.payload?.notification) return;
      const id = message.payload.notification.id;
      bell.received.set(id, [...(bell.received.get(id) ?? []), at]);
      if (message.position! <= replayUntil) bell.replayedIds.add(id);
    });
    ws.on('error', reject);
  });
}

async function measure(
  nodes: ServedProcess[],
  tokens: Array<{ token: string; firm: number }>,
  databaseUrl: string,
): Promise<BenchResult[]> {
  const bells: Bell[] = tokens.map((t, i) => ({
    token: t.token,
    firm: t.firm,
    port: nodes[i % nodes.length]!.port,
    ws: null,
    position: 0,
    received: new Map(),
    replayedIds: new Set(),
    reconnected: false,
  }));
  const connectStart = performance.now();
  for (let i = 0; i < bells.length; i += 50) await Promise.all(bells.slice(i, i + 50).map((b) => open(b)));
  const connectMs = performance.now() - connectStart;

  // The burst on node A; a tenth of the sockets drop and come back with their last position while it runs.
  const burst = fetch(`http://127.0.0.1:${nodes[0]!.port}/bench/burst`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ events: EVENTS }),
  });
  await new Promise((r) => setTimeout(r, RECONNECT_AFTER_MS));
  const dropped = RECONNECT_SHARE > 0 ? bells.filter((_, i) => i % Math.round(1 / RECONNECT_SHARE) === 0) : [];
  for (const bell of dropped) bell.ws!.terminate();
  await Promise.all(
    dropped.map((bell) => {
      bell.reconnected = true;
      return open(bell, bell.position);
    }),
  );
  const response = await burst;
  if (!response.ok) throw new Error(`burst: ${response.status} ${await response.text()}`);
  const emitted = (await response.json()) as Array<{ position: number; at: number }>;
  const emittedAt = new Map(emitted.map((e) => [e.position, e.at]));

  // Wait for the database's notifications to reach their sockets (or 30 s), then compare.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const expectedTotal = EVENTS * USERS_PER_FIRM;
  const deadline = Date.now() + 30_000;
  const receivedTotal = () => bells.reduce((n, b) => n + b.received.size, 0);
  while (receivedTotal() < expectedTotal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // One row per deal event and firm (fan-out on read): every trading user of the firm should have had it.
  const { rows } = await client.query<{ id: string; source_position: string; firm: string }>(
    `SELECT n.id, n.source_position, c.name AS firm FROM notifications n
       JOIN events e ON e.position = n.source_position JOIN clients c ON c.id = n.client_id
      WHERE e.topic = 'market.consideration_update' AND n.user_id IS NULL`,
  );
  await client.end();
  for (const bell of bells) bell.ws?.terminate();

  const sourceOf = new Map(rows.map((r) => [r.id, Number(r.source_position)]));
  const idsOfFirm = new Map<number, string[]>();
  for (const row of rows) {
    const firm = Number(row.firm.replace('Bench Firm ', ''));
    idsOfFirm.set(firm, [...(idsOfFirm.get(firm) ?? []), row.id]);
  }
  // Lost: a firm's notification its user's socket never had; misdelivered: one of another firm's (tenant isolation).
  let lost = 0;
  let misdelivered = 0;
  for (const bell of bells) {
    const own = idsOfFirm.get(bell.firm) ?? [];
    lost += own.filter((id) => !bell.received.has(id)).length;
    const ownSet = new Set(own);
    misdelivered += [...bell.received.keys()].filter((id) => !ownSet.has(id)).length;
  }
  let duplicated = 0;
  const live: number[] = [];
  const all: number[] = [];
  for (const bell of bells)
    for (const [id, times] of bell.received) {
      duplicated += times.length - 1;
      const source = emittedAt.get(sourceOf.get(id) ?? -1);
      if (source === undefined) continue;
      const latency = times[0]! - source;
      all.push(latency);
      if (!bell.replayedIds.has(id)) live.push(latency);
    }
  if (process.env.BENCH_VERBOSE) {
    // event→bell by position of the event in the burst, per tenth: where the tail comes from.
    const byTenth = Array.from({ length: 10 }, () => [] as number[]);
    const order = new Map(emitted.map((e, i) => [e.position, i]));
    for (const bell of bells)
      for (const [id, times] of bell.received) {
        const source = sourceOf.get(id);
        const at = source === undefined ? undefined : emittedAt.get(source);
        if (at !== undefined) byTenth[Math.floor((order.get(source!)! * 10) / emitted.length)]!.push(times[0]! - at);
      }
    for (const [i, tenth] of byTenth.entries()) {
      tenth.sort((a, b) => a - b);
      console.error(`tenth ${i}: p50 ${percentile(tenth, 50).toFixed(1)} ms, p99 ${percentile(tenth, 99).toFixed(1)} ms`);
    }
  }
  live.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  const fannedOut = bells.reduce((n, bell) => n + (idsOfFirm.get(bell.firm)?.length ?? 0), 0);
  const label = `two nodes (postgres + redis), ${bells.length} users on sockets split A/B, ${EVENTS} events → ${fannedOut} notifications (${rows.length} rows)`;
  return [
    {
      name: `notify: ${label}, event→bell p99`,
      value: percentile(all, 99),
      unit: 'ms',
      target: TARGET_P99_MS,
      note: `p50 ${percentile(all, 50).toFixed(1)} ms, max ${all.at(-1)?.toFixed(1)} ms; live only p99 ${percentile(live, 99).toFixed(1)} ms; burst ${((Math.max(...emitted.map((e) => e.at)) - Math.min(...emitted.map((e) => e.at))) / 1000).toFixed(2)} s; ${dropped.length} sockets reconnected mid-burst; lost ${lost}, duplicated ${duplicated}, another firm's ${misdelivered}; ${bells.length} sockets connected in ${(connectMs / 1000).toFixed(1)} s`,
    },
    { name: 'notify: notifications lost after a forced reconnect of 10% of sockets', value: lost, unit: 'notifications', target: 0 },
    {
      name: 'notify: notifications duplicated after a forced reconnect of 10% of sockets',
      value: duplicated,
      unit: 'notifications',
      target: 0,
    },
    { name: "notify: another firm's notifications on a socket", value: misdelivered, unit: 'notifications', target: 0 },
  ];
}

export async function run(): Promise<BenchResult[]> {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
    return [{ name: 'notify: two nodes over PostgreSQL + Redis', value: NaN, unit: 'ms', note: 'NOT RUN: set DATABASE_URL and REDIS_URL' }];
  const secret = randomBytes(32).toString('hex');
  const tokensFile = path.join(tmpdir(), `dart-notify-${process.pid}.json`);
  const scratch = await createPostgresDatabase();
  const nodes: ServedProcess[] = [];
  const script = path.join(import.meta.dirname, 'serve-node.ts');
  try {
    nodes.push(
      await serveScript(script, {
        JWT_SECRET: secret,
        DATABASE_URL: scratch.url,
        SEED_FIRMS: String(FIRMS),
        USERS_PER_FIRM: String(USERS_PER_FIRM),
        TOKENS_FILE: tokensFile,
      }),
    );
    nodes.push(await serveScript(script, { JWT_SECRET: secret, DATABASE_URL: scratch.url, SEED_FIRMS: '0' }));
    const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as Array<{ token: string; firm: number }>;
    return await measure(nodes, tokens, scratch.url);
  } finally {
    for (const node of nodes) await stopProcess(node);
    await scratch.drop();
    rmSync(tokensFile, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
