/**
 * A real kill -9 of a server process mid-report (issue 13, "Bad input and faults"; PostgreSQL only: two
 * processes share the database, which PGlite cannot). Node 1 (`node --import tsx apps/server/src/index.ts`,
 * its jobs on, a slow simulated venue) reports a confirmed ticket's two orders; the venue takes both reports
 * and matches them into a trade, and node 1 is SIGKILLed holding both answers, before it stored either. Node 2
 * starts on the same database; once node 1's 60 s lease runs out it reports both orders again and the venue
 * answers with the first trade number: one trade, one trade id on both orders, each order reported once.
 *
 * Catching the node between the venue's answer and its commit: the test holds the ticket's two order rows
 * (`SELECT … FOR UPDATE` on a connection of its own) from just after the reporter claimed them, so the
 * reporter's commit of the answers waits on them (as a slow commit would). Once the venue shows the match and
 * node 1's answer transaction is waiting, the node is killed; the test then lets the rows go, and
 * the dead node's unfinished transactions roll back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/client';
import { createLogger } from '../src/lib/logger';
import { REPORTER } from '../src/modules/orders/orders.reporting';
import { createPostgresDatabase, type TestApp } from './helpers';
import { auditOf, historyOf, orderRows, readOrder, venueBook } from './orders-support';
import { confirmTicket, makeDeal, postTradeActors } from './post-trade-support';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
/** The test's own connections, told apart from the nodes' in `pg_stat_activity`. */
const TEST_APP_NAME = 'orders-kill-test';
/** Node 1's venue answers 2–6 s after each call (latency × 0.5..1.5): time to hold the rows after the claim. */
const SLOW_VENUE_MS = 4_000;

interface ServerNode {
  child: ChildProcess;
  origin: string;
  /** The process's last output lines (for a failure's message). */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node --import tsx apps/server/src/index.ts` and resolves once it prints where it listens. */
async function startNode(name: string, env: Record<string, string>): Promise<ServerNode> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/index.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 80));
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 100 s:\n${output.join('\n')}`)), 100_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      out += chunk.toString();
      const port = /is running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.stderr!.on('data', keep);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${output.join('\n')}`));
    });
  });
  return { child, origin, output, exited };
}

/** SIGTERM (a graceful shutdown), SIGKILL after 15 s. */
async function stopNode(node: ServerNode): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
  const timer = setTimeout(() => node.child.kill('SIGKILL'), 15_000);
  const exit = await node.exited;
  clearTimeout(timer);
  return exit;
}

/**
 * The post-trade helpers take a TestApp and call `app.inject`: this one sends each call over HTTP to whichever
 * server process `target.origin` names (the nodes share the database, so a token from one works on the other).
 */
function overHttp(target: { origin: string }): FastifyInstance {
  const inject = async (request: { method: string; url: string; payload?: object; headers?: Record<string, string> }) => {
    const response = await fetch(`${target.origin}${request.url}`, {
      method: request.method,
      headers: { ...request.headers, ...(request.payload ? { 'content-type': 'application/json' } : {}) },
      ...(request.payload ? { body: JSON.stringify(request.payload) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const body = await response.text();
    return { statusCode: response.status, body, headers: Object.fromEntries(response.headers), json: () => JSON.parse(body) as unknown };
  };
  return { inject } as unknown as FastifyInstance;
}

/** Polls `check` every 50 ms until it returns a value (not undefined), at most `timeoutMs`. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(Boolean(process.env.DATABASE_URL))('a server process killed (-9) mid-report (PostgreSQL)', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  /** A connection of the test's own: holds the order rows so node 1's answers cannot be committed. */
  let holder: pg.Client;
  const dataDirs: string[] = [];
  const nodes: ServerNode[] = [];
  const target = { origin: '' };
  let t: TestApp;
  let nodeEnv: (name: string, extra: Record<string, string>) => Promise<Record<string, string>>;

  beforeAll(async () => {
    scratch = await createPostgresDatabase();
    const ours = new URL(scratch.url);
    ours.searchParams.set('application_name', TEST_APP_NAME);
    database = await openPostgres(ours.toString(), createLogger('silent'), 10_000);
    holder = new pg.Client({ connectionString: ours.toString() });
    await holder.connect();
    t = { app: overHttp(target), database } as TestApp;
    const jwtSecret = randomBytes(32).toString('hex');
    nodeEnv = async (name, extra) => {
      const dataDir = await mkdtemp(path.join(tmpdir(), `dart-orders-kill-${name}-`));
      dataDirs.push(dataDir);
      return {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: scratch.url,
        JWT_SECRET: jwtSecret,
        DEMO_SEED: '1',
        BOND_IMPORT: 'slice',
        POST_TRADE_JOBS: 'on',
        LOG_LEVEL: 'warn',
        CREDENTIAL_RATE_PER_MINUTE: '1000',
        // The trade stays at the clearing corporation, unsettled, for the whole test: its orders stay `reported`.
        EXCHANGE_SIM_SETTLE_MS: String(60 * 60_000),
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        ...extra,
      };
    };
    // Node 1: a slow venue, and a statement timeout longer than the test holds the rows.
    nodes.push(
      await startNode('node 1', await nodeEnv('node1', { EXCHANGE_SIM_LATENCY_MS: String(SLOW_VENUE_MS), DB_QUERY_TIMEOUT_MS: '60000' })),
    );
    target.origin = nodes[0]!.origin;
    await postTradeActors(t);
  }, 120_000);

  afterAll(async () => {
    await holder?.query('ROLLBACK').catch(() => {});
    await holder?.end().catch(() => {});
    for (const node of nodes) await stopNode(node);
    await database?.close();
    await scratch?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  /** The nodes' connections (not the test's) to this database: all of them, or those waiting on a lock. */
  const nodeConnections = async (waitingOnALock: boolean) => {
    const [row] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND application_name <> $1
          AND ($2::boolean IS FALSE OR wait_event_type = 'Lock')`,
      [TEST_APP_NAME, waitingOnALock],
    );
    return row!.n;
  };

  it('reports the trade once, with one trade id, after node 1 is killed between the venue’s answer and its commit', async () => {
    const [node1] = nodes as [ServerNode];
    const made = await makeDeal(t);
    await confirmTicket(t, made.ticketId);
    const { order, procurement } = await orderRows(t, made.ticketId);

    // Node 1's reporter claims both orders at once (the confirmation's bus event) and leases them.
    const claimedAt = await until('node 1 claimed both orders', 20_000, async () => {
      const rows = await orderRows(t, made.ticketId);
      const leased = [rows.order, rows.procurement].every((r) => r.reportAttempts === 1 && r.nextReportAt!.getTime() > Date.now() + 30_000);
      return leased ? Date.now() : undefined;
    });
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM orders WHERE ticket_id = $1 FOR UPDATE', [made.ticketId]);
    // Held before any answer was stored: the venue takes 2 s at least to answer.
    const held = await orderRows(t, made.ticketId);
    expect([held.order.state, held.procurement.state, held.order.exchangeReportRef, held.procurement.exchangeReportRef]).toEqual([
      'reporting',
      'reporting',
      null,
      null,
    ]);

    // The venue matches the two reports into a trade; node 1 has both answers and is waiting to commit them.
    const tradeId = await until('the venue matched both reports', 30_000, async () => {
      const book = await venueBook(t, made.ticketId);
      return book.sell?.status === 'matched' && book.buy?.status === 'matched' ? book.sell.tradeId! : undefined;
    });
    // Both answers came in one call to the venue and are stored in one transaction (the reporter's batch).
    await until("node 1's answers are waiting to be stored", 20_000, async () => ((await nodeConnections(true)) >= 1 ? true : undefined));
    expect(tradeId).toMatch(/^NSE-TRD-\d{6}$/);
    node1.child.kill('SIGKILL');
    expect(await node1.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await holder.query('ROLLBACK');
    // The dead node's connections end, and their transactions roll back: nothing of the answers was stored.
    await until("node 1's connections are gone", 30_000, async () => ((await nodeConnections(false)) === 0 ? true : undefined));
    const lost = await orderRows(t, made.ticketId);
    for (const row of [lost.order, lost.procurement])
      expect(row).toMatchObject({ state: 'reporting', exchangeTradeId: null, exchangeReportRef: null, reportAttempts: 1 });
    const before = await venueBook(t, made.ticketId);
    expect([before.sell?.submissions, before.buy?.submissions]).toEqual([1, 1]);
    expect(before.trades.map((trade) => trade.tradeId)).toEqual([tradeId]);

    // Node 2 on the same database, its venue fast: once node 1's lease runs out, it reports both orders again.
    nodes.push(await startNode('node 2', await nodeEnv('node2', {})));
    const [, node2] = nodes as [ServerNode, ServerNode];
    target.origin = node2.origin;
    // Done when both of its answers are stored: the first reports both orders, the second keeps its side's ref.
    await until('node 2 reported both orders and stored both answers', REPORTER.LEASE_MS + 30_000, async () => {
      const rows = await orderRows(t, made.ticketId);
      const done = [rows.order, rows.procurement].every((r) => r.state === 'reported' && r.exchangeReportRef !== null);
      return done ? true : undefined;
    });
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(REPORTER.LEASE_MS - 1_000);

    // One trade id, the venue's first: on both orders, in the venue's book, once.
    const rows = await orderRows(t, made.ticketId);
    const book = await venueBook(t, made.ticketId);
    expect([rows.order.exchangeTradeId, rows.procurement.exchangeTradeId]).toEqual([tradeId, tradeId]);
    expect([rows.order.exchangeReportRef, rows.procurement.exchangeReportRef]).toEqual([book.sell!.ref, book.buy!.ref]);
    expect(book.trades.map((trade) => trade.tradeId)).toEqual([tradeId]);
    expect([book.sell!.tradeId, book.buy!.tradeId]).toEqual([tradeId, tradeId]);
    // Each side was sent twice (node 1, then node 2 after the lease) and matched once.
    expect([book.sell!.submissions, book.buy!.submissions]).toEqual([2, 2]);
    // The ticket reported once; one `order.reported` audit row per order, no failure.
    expect((await readOrder(t, 'second', 'order', order.id)).exchange_trade_id).toBe(tradeId);
    expect((await readOrder(t, 'demo', 'procurement', procurement.id)).exchange_trade_id).toBe(tradeId);
    const [ticket] = await database.query<{ state: string }>('SELECT state FROM tickets WHERE id = $1', [made.ticketId]);
    expect(ticket?.state).toBe('reported');
    expect(await historyOf(t, made.ticketId, 'reported')).toHaveLength(1);
    for (const id of [order.id, procurement.id]) {
      expect(await auditOf(t, 'order.reported', id)).toHaveLength(1);
      expect(await auditOf(t, 'order.report_failed', id)).toHaveLength(0);
    }

    // Node 2 shuts down gracefully.
    expect(await stopNode(node2)).toEqual({ code: 0, signal: null });
  }, 170_000);
});
