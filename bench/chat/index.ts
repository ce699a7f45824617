/**
 * Chat benchmark (issue 6 speed bar): 1,000 connected users in 200 group channels (5 members each)
 * send 500 messages/s in total over the chat socket for CHAT_BENCH_SECONDS (default 60). Prints
 * send→deliver p50/p95/p99 (from the sender's `send` frame to each other member's `message` frame),
 * and per channel the lost, duplicated and reordered deliveries (must all be 0). Halfway through,
 * 10% of the clients are force-disconnected for 2 s and reconnect with their per-channel cursors;
 * each must get exactly the positions it missed (cursor+1 … in order, once) before `resumed`.
 *
 * Modes (CHAT_BENCH_MODES, default all that apply): `pglite` (one node, in-memory PGlite),
 * `postgres` (one node on a throwaway PostgreSQL database, when DATABASE_URL is set) and `two-nodes`
 * (two app processes on one throwaway PostgreSQL database + Redis, clients split across them, when
 * DATABASE_URL and REDIS_URL are set). Knobs: CHAT_BENCH_USERS (1000), CHAT_BENCH_CHANNELS (200),
 * CHAT_BENCH_RATE (500 msgs/s).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { createPostgresDatabase } from '../../apps/server/test/helpers';
import { serveScript, stopProcess, type ServedProcess } from '../lib/harness';
import type { BenchResult } from '../types';

const SECONDS = Number(process.env.CHAT_BENCH_SECONDS ?? 60);
const USERS = Number(process.env.CHAT_BENCH_USERS ?? 1000);
const CHANNELS = Number(process.env.CHAT_BENCH_CHANNELS ?? 200);
const RATE = Number(process.env.CHAT_BENCH_RATE ?? 500);
const DISCONNECT_SHARE = 0.1;
const DISCONNECT_MS = 2000;

interface Seed {
  users: Array<{ id: string; token: string }>;
  channels: Array<{ url: string; members: number[] }>;
}

interface Client {
  index: number;
  userId: string;
  token: string;
  channel: string;
  port: number;
  ws: WebSocket | null;
  connected: boolean;
  /** Positions of message frames of the client's channel, in arrival order, over all its connections. */
  positions: number[];
  last: number;
  resync: number;
}

interface Stats {
  sentAt: Map<string, { at: number; sender: number }>;
  latencies: number[];
  acked: Map<string, number>;
  nacks: number;
  resumeChecks: { ok: number; bad: string[] };
  resumeMs: number[];
  /** [sent at, latency] per delivery, to split the steady state from the disconnect phase. */
  timeline: Array<[number, number]>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens the client's socket with `cursors`, resolves with the positions replayed before `resumed`. */
function open(client: Client, stats: Stats, cursors: Record<string, number>): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${client.port}/ws/chat/`);
    client.ws = ws;
    const replayed: number[] = [];
    let resumed = false;
    const timer = setTimeout(() => reject(new Error(`client ${client.index}: no resumed within 120 s`)), 120_000);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: client.token, cursors })));
    ws.on('message', (raw: Buffer) => {
      const at = performance.now();
      const frame = JSON.parse(raw.toString()) as {
        type: string;
        channel_url?: string;
        position?: number;
        reqId?: string;
        message?: { reqId: string | null; position: number; channelUrl: string };
      };
      switch (frame.type) {
        case 'message': {
          if (frame.channel_url !== client.channel) return;
          client.positions.push(frame.position!);
          client.last = Math.max(client.last, frame.position!);
          if (!resumed) replayed.push(frame.position!);
          const sent = frame.message?.reqId ? stats.sentAt.get(frame.message.reqId) : undefined;
          if (sent && sent.sender !== client.index && resumed) {
            stats.latencies.push(at - sent.at);
            stats.timeline.push([sent.at, at - sent.at]);
          }
          return;
        }
        case 'ack':
          stats.acked.set(client.channel, Math.max(stats.acked.get(client.channel) ?? 0, frame.message!.position));
          return;
        case 'nack':
          stats.nacks++;
          return;
        case 'resync':
          client.resync++;
          return;
        case 'resumed':
          resumed = true;
          client.connected = true;
          clearTimeout(timer);
          resolve(replayed);
          return;
        default:
          return;
      }
    });
    ws.on('close', () => {
      client.connected = false;
    });
    ws.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export async function measure(label: string, ports: number[], seed: Seed): Promise<BenchResult[]> {
  const stats: Stats = {
    sentAt: new Map(),
    latencies: [],
    acked: new Map(),
    nacks: 0,
    resumeChecks: { ok: 0, bad: [] },
    resumeMs: [],
    timeline: [],
  };
  const channelOf = new Map<number, string>();
  for (const channel of seed.channels) for (const m of channel.members) channelOf.set(m, channel.url);
  const clients: Client[] = seed.users
    .map((u, index) => ({
      index,
      userId: u.id,
      token: u.token,
      channel: channelOf.get(index) ?? '',
      port: ports[index % ports.length]!,
      ws: null,
      connected: false,
      positions: [],
      last: 0,
      resync: 0,
    }))
    .filter((c) => c.channel);
  const connectStart = performance.now();
  for (let i = 0; i < clients.length; i += 100) await Promise.all(clients.slice(i, i + 100).map((c) => open(c, stats, {})));
  const connectMs = performance.now() - connectStart;

  // Senders in round robin: with 1,000 users at 500/s each sends once per 2 s (the limit is 5/s).
  let sent = 0;
  let skipped = 0;
  let pointer = 0;
  const started = performance.now();
  const durationMs = SECONDS * 1000;
  let disconnectedAt = -1;
  const victims = clients.filter((c) => c.index % Math.round(1 / DISCONNECT_SHARE) === 0);
  const reconnects: Array<Promise<void>> = [];
  while (performance.now() - started < durationMs) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    while (sent + skipped < due) {
      const client = clients[pointer++ % clients.length]!;
      if (!client.connected || !client.ws) {
        skipped++;
        continue;
      }
      const reqId = `b${sent}`;
      stats.sentAt.set(reqId, { at: performance.now(), sender: client.index });
      client.ws.send(JSON.stringify({ type: 'send', channel_url: client.channel, reqId, message: `bench message ${sent}` }));
      sent++;
    }
    if (disconnectedAt < 0 && performance.now() - started >= durationMs / 2) {
      disconnectedAt = performance.now();
      // Force-disconnect 10%; each comes back after 2 s with its cursor and must get exactly what it missed.
      for (const victim of victims) {
        victim.connected = false;
        victim.ws?.terminate();
        const cursor = victim.last;
        reconnects.push(
          sleep(DISCONNECT_MS).then(async () => {
            const before = victim.positions.length;
            const resumeStart = performance.now();
            const replayed = await open(victim, stats, { [victim.channel]: cursor });
            stats.resumeMs.push(performance.now() - resumeStart);
            const expected = replayed.map((_, i) => cursor + 1 + i);
            const consecutive = replayed.every((p, i) => p === expected[i]);
            // Exactly what was missed: everything after the cursor up to the channel's position at resume,
            // and nothing that was delivered before the disconnect.
            const overlap = victim.positions.slice(0, before).some((p) => replayed.includes(p));
            if (consecutive && !overlap) stats.resumeChecks.ok++;
            else stats.resumeChecks.bad.push(`client ${victim.index}: cursor ${cursor}, replayed ${replayed.slice(0, 8).join(',')}`);
          }),
        );
      }
    }
    await sleep(5);
  }
  await Promise.all(reconnects);
  await sleep(3000);
  for (const c of clients) c.ws?.terminate();

  // Exactly once and in order per channel: every client must hold 1..last, each once, ascending.
  let lost = 0;
  let duplicated = 0;
  let reordered = 0;
  let resyncs = 0;
  const perChannelBad = new Set<string>();
  for (const c of clients) {
    const final = stats.acked.get(c.channel) ?? 0;
    const seen = new Set<number>();
    for (let i = 0; i < c.positions.length; i++) {
      const p = c.positions[i]!;
      if (seen.has(p)) duplicated++;
      seen.add(p);
      if (i > 0 && p < c.positions[i - 1]!) reordered++;
    }
    for (let p = 1; p <= final; p++) if (!seen.has(p)) lost++;
    resyncs += c.resync;
    if (seen.size !== final || c.positions.length !== final) perChannelBad.add(c.channel);
  }
  const latencies = stats.latencies.toSorted((x, y) => x - y);
  // The disconnect phase (from the forced disconnect until 2 s after the last resume) apart from the steady state.
  const phaseEnd = disconnectedAt + DISCONNECT_MS + Math.max(0, ...stats.resumeMs) + 2000;
  const inPhase = (t: number) => disconnectedAt >= 0 && t >= disconnectedAt && t <= phaseEnd;
  const steady = stats.timeline
    .filter(([t]) => !inPhase(t))
    .map(([, l]) => l)
    .toSorted((x, y) => x - y);
  const phase = stats.timeline
    .filter(([t]) => inPhase(t))
    .map(([, l]) => l)
    .toSorted((x, y) => x - y);
  const windows: string[] = [];
  for (let w = 0; w < SECONDS; w += 5) {
    const slice = stats.timeline
      .filter(([t]) => t >= started + w * 1000 && t < started + (w + 5) * 1000)
      .map(([, l]) => l)
      .toSorted((x, y) => x - y);
    if (slice.length) windows.push(`${w}s:${percentile(slice, 99).toFixed(0)}`);
  }
  console.error(`chat ${label}: p99 per 5 s window (ms) ${windows.join(' ')}`);
  const wall = (performance.now() - started) / 1000;
  const note = [
    `${clients.length} users, ${seed.channels.length} channels, ${sent} sent in ${SECONDS} s (${(sent / SECONDS).toFixed(0)}/s), ${skipped} skipped while disconnected, ${stats.nacks} nacks, ${resyncs} resyncs`,
    `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms over ${latencies.length} deliveries`,
    `steady state p99 ${percentile(steady, 99).toFixed(1)} ms (${steady.length}), disconnect phase p99 ${percentile(phase, 99).toFixed(1)} ms (${phase.length})`,
    `lost ${lost}, duplicated ${duplicated}, reordered ${reordered} (channels with a problem: ${perChannelBad.size})`,
    `resume after forced disconnect of ${victims.length}: ${stats.resumeChecks.ok} exact, ${stats.resumeChecks.bad.length} wrong, connect→resumed max ${Math.max(...stats.resumeMs).toFixed(0)} ms${stats.resumeChecks.bad.length ? ` e.g. ${stats.resumeChecks.bad.slice(0, 3).join('; ')}` : ''}`,
    `connected in ${(connectMs / 1000).toFixed(1)} s, run ${wall.toFixed(0)} s`,
  ].join('; ');
  console.error(`chat ${label}: ${note}`);
  return [
    { name: `chat: ${label}, send→deliver p99`, value: percentile(latencies, 99), unit: 'ms', target: 100, note },
    { name: `chat: ${label}, lost+duplicated+reordered`, value: lost + duplicated + reordered, unit: 'deliveries', target: 0 },
    { name: `chat: ${label}, resumes not exact`, value: stats.resumeChecks.bad.length, unit: 'clients', target: 0 },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const modes = (process.env.CHAT_BENCH_MODES ?? 'baseline,pglite,postgres,two-nodes').split(',');
  const results: BenchResult[] = [];
  let baselineP99: number | undefined;
  const secret = randomBytes(32).toString('hex');
  const seedFile = path.join(tmpdir(), `dart-chat-bench-${process.pid}.json`);
  const seedEnv = { JWT_SECRET: secret, SEED_USERS: String(USERS), SEED_CHANNELS: String(CHANNELS), SEED_FILE: seedFile };
  const startNode = (env: NodeJS.ProcessEnv) => serveScript(path.join(import.meta.dirname, 'serve-node.ts'), env);
  const readSeed = () => JSON.parse(readFileSync(seedFile, 'utf8')) as Seed;

  if (modes.includes('baseline')) {
    // The same users and channels, served by the in-memory relay (bare-relay.ts): the transport floor.
    const baselineSeed: Seed = {
      users: Array.from({ length: USERS }, (_, i) => ({ id: `bare-${i}`, token: randomBytes(16).toString('hex') })),
      channels: Array.from({ length: CHANNELS }, (_, c) => {
        const perChannel = Math.floor(USERS / Math.max(1, CHANNELS));
        return { url: `bare_group_${c}`, members: Array.from({ length: perChannel }, (_member, k) => c * perChannel + k) };
      }),
    };
    const baselineFile = `${seedFile}.baseline`;
    writeFileSync(baselineFile, JSON.stringify(baselineSeed));
    const relay = await serveScript(path.join(import.meta.dirname, 'bare-relay.ts'), { SEED_FILE: baselineFile });
    try {
      const measured = await measure('baseline (bare in-memory ws relay)', [relay.port], baselineSeed);
      baselineP99 = measured[0]!.value;
      results.push(...measured);
    } finally {
      await stopProcess(relay);
      rmSync(baselineFile, { force: true });
    }
  }
  if (modes.includes('pglite')) {
    const node = await startNode({ ...seedEnv, DATABASE_URL: '', REDIS_URL: '' });
    try {
      results.push(...(await measure('one node (pglite, in-process bus)', [node.port], readSeed())));
    } finally {
      await stopProcess(node);
    }
  }
  if (modes.includes('postgres') && process.env.DATABASE_URL) {
    const scratch = await createPostgresDatabase();
    const node = await startNode({ ...seedEnv, DATABASE_URL: scratch.url, REDIS_URL: '' });
    try {
      results.push(...(await measure('one node (postgres, in-process bus)', [node.port], readSeed())));
    } finally {
      await stopProcess(node);
      await scratch.drop();
    }
  }
  if (modes.includes('two-nodes') && process.env.DATABASE_URL && process.env.REDIS_URL) {
    const scratch = await createPostgresDatabase();
    const nodes: ServedProcess[] = [];
    try {
      nodes.push(await startNode({ ...seedEnv, DATABASE_URL: scratch.url }));
      nodes.push(await startNode({ JWT_SECRET: secret, DATABASE_URL: scratch.url, SEED_USERS: '0' }));
      results.push(
        ...(await measure(
          'two nodes (postgres + redis), clients split',
          nodes.map((n) => n.port),
          readSeed(),
        )),
      );
    } finally {
      for (const node of nodes) await stopProcess(node);
      await scratch.drop();
    }
  }
  rmSync(seedFile, { force: true });
  // Each Dart p99 is read against the relay's, measured in the same run.
  if (baselineP99 !== undefined)
    for (const r of results) if (r.name.endsWith('send→deliver p99') && !r.name.includes('baseline')) r.baseline = baselineP99;
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
