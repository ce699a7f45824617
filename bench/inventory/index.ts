/**
 * Inventory benchmark (issue 14 "Speed"): Demo Capital's book of `BENCH_POSITIONS` holdings (default 10,000)
 * across 5,000 bonds of the real universe, on a throwaway database (in-memory PGlite; a fresh PostgreSQL
 * database when DATABASE_URL is set), written straight into the inventory tables by serve.ts. Measures, does not
 * tune:
 *
 * 1. **Valuing the whole book.** `GET api/inventory/` (one page; its totals and breakdowns value every holding:
 *    reference waterfall, price, accrued, P&L, duration, PV01). The first call is the new process's first request
 *    (server time, target 100 ms): serve.ts stored the held bonds' figures before it listened, as a starting node
 *    does (`storeHeldOnStart`); with `BENCH_BOOT_STORE=0` nothing is stored and the call builds and prices every
 *    bond (the worst case: a book no writer stored figures for, in a process that never valued one). Then `BENCH_VALUE_CALLS` calls (default 50, after 5 warm-up calls), each right
 *    after a change of the book (a valuation cost): the node reads the changed holding, re-values it and sums the
 *    book's totals and breakdowns again; server p50/p99 from the app's own `Server-Timing` (Fastify's elapsed time
 *    of the request), target 100 ms; an unchanged book read again (the node's valued book) in the note.
 * 2. **Re-valuing after a reference price change.** The same call right after the reference pick of one bond
 *    moved (a reported trade; serve.ts's bench writer), 50 times: server p50/p99, target 100 ms; 100 bonds and a
 *    whole close (every bond) in the notes. **Live**: a socket as Demo Capital's dealer times a change to the
 *    `inventory.revalued` push and to the page's refetched answer (20 changes).
 * 3. **A page under load.** `GET api/inventory/?page=1&page_size=50` under autocannon (10 connections): p99
 *    (target 50 ms) and req/s against a bare Fastify GET route served side by side, same load. When a call takes
 *    so long that a timed run would finish next to nothing, `BENCH_PAGE_REQUESTS` requests (default 40) instead.
 * 4. **Upload.** A CSV of `BENCH_UPLOAD_ROWS` rows (default 5,000) of real ISINs, one per bond, posted as
 *    Second Bank's dealer into its empty book: end to end on the client (send → 201), target 5 s; the server time
 *    and the same file again (every row an update) in the note. Both books are read back to check the counts.
 *
 * Targets are shown on PostgreSQL only (the issue's deployment), as bench/post-trade does.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { INVENTORY_TOPICS, LIVE_PATH, type Inventory, type InventoryUploadResult } from '@dart/contracts';
import { WebSocket } from 'ws';
import { BENCH_CONNECTIONS, BENCH_DURATION_S, serveScript, stopProcess, type ServedProcess } from '../lib/harness';
import type { BenchResult } from '../types';

const VALUE_CALLS = Number(process.env.BENCH_VALUE_CALLS ?? 50);
/** First valuations on a new node (serve.ts `/bench/first-valuation`): with nothing stored, and with the figures stored. */
const FIRST_UNSTORED = Number(process.env.BENCH_FIRST_UNSTORED ?? 5);
const FIRST_STORED = Number(process.env.BENCH_FIRST_STORED ?? 15);
/** …and with the figures stored but not read into the node at its start (it knows none of the firm's bonds). */
const FIRST_UNFILLED = Number(process.env.BENCH_FIRST_UNFILLED ?? 5);
const WARM_UP_CALLS = 5;
const LIVE_CALLS = 20;
const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const onPostgres = <T>(target: T) => (driver === 'postgres' ? { target } : {});
const round = (n: number) => Math.round(n);
const machineLoad = () => `1-min load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
/** `seed=123,isins=5000,csv=/tmp/…` printed by serve.ts after its port. */
const extraOf = (served: ServedProcess, key: string) => new RegExp(`(?:^|,)${key}=([^,]*)`).exec(served.extra)?.[1] ?? '';

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

interface Timed<T> {
  body: T;
  /** Client round trip, ms. */
  roundTrip: number;
  /** The app's own time for the request (`Server-Timing: app;dur=`), ms. */
  server: number;
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Demo@12345' }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status}`);
  return ((await response.json()) as { access: string }).access;
}

async function timed<T>(url: string, init: RequestInit): Promise<Timed<T>> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const roundTrip = performance.now() - started;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 300)}`);
  const server = Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return { body: JSON.parse(text) as T, roundTrip, server };
}

export async function run(): Promise<BenchResult[]> {
  const bare = await serveScript(path.join(import.meta.dirname, 'serve-bare.ts'));
  let app: ServedProcess | undefined;
  try {
    // `--expose-gc` (in SERVER_NODE_FLAGS, as `npm start`): each first-valuation sample starts from a collected heap,
    // as a new node does (serve.ts).
    app = await serveScript(path.join(import.meta.dirname, 'serve.ts'));
    const base = `http://127.0.0.1:${app.port}`;
    const isins = Number(extraOf(app, 'isins'));
    const positions = Number(extraOf(app, 'positions'));
    const universe = Number(extraOf(app, 'universe'));
    const mode = extraOf(app, 'mode');
    const bondsNote =
      `${isins.toLocaleString('en-IN')} ISINs of ${universe.toLocaleString('en-IN')} imported (BOND_IMPORT=${mode}` +
      `${mode === 'full' ? ': the slice has fewer than 5,000 bonds' : ''}${isins < 5000 ? `; ONLY ${isins} live bonds exist, not 5,000` : ''}); ` +
      `seeding the book took ${extraOf(app, 'seed')} ms, the bond import ${extraOf(app, 'import')} ms`;
    console.error(`bench/inventory: ${positions} positions, ${bondsNote}`);
    const stored = process.env.BENCH_BOOT_STORE !== '0';
    const start = stored
      ? `its start stored the held bonds' figures: ${Number(extraOf(app, 'bootPriced')).toLocaleString('en-IN')} bonds priced in ${extraOf(app, 'boot')} ms before it listened`
      : 'nothing stored (BENCH_BOOT_STORE=0): every bond built and priced in the call';
    const valued = await valueBook(base, positions, `${start}; ${bondsNote}`, stored);
    const firsts = await firstValuations(base, positions);
    const revalued = await revalueAfterReference(base, positions, isins);
    return [
      ...valued,
      ...firsts,
      ...revalued,
      ...(await liveRevaluation(base)),
      ...(await pageUnderLoad(base, `http://127.0.0.1:${bare.port}`, positions, Math.max(valued[1]!.value, revalued[0]!.value))),
      ...(await upload(base, extraOf(app, 'csv'))),
    ];
  } finally {
    if (app) await stopProcess(app);
    await stopProcess(bare);
  }
}

async function valueBook(base: string, positions: number, bondsNote: string, stored: boolean): Promise<BenchResult[]> {
  const headers = { authorization: `Bearer ${await signIn(base, 'dealer@demo.dart')}` };
  const url = `${base}/api/inventory/`;
  const cold = await timed<Inventory>(url, { headers });
  if (cold.body.count !== positions) throw new Error(`the book lists ${cold.body.count} holdings, ${positions} were seeded`);
  // Every timed call follows a change of the book (one holding's valuation cost, two costs in turn): the node
  // reads and re-values that holding and sums the book again (README "Speed"); an unchanged book's answer would
  // otherwise be what is timed.
  const holdingId = cold.body.results[0]!.id;
  let edits = 0;
  const change = async () => {
    const response = await fetch(`${base}/api/inventory/edit-valuation-cost/`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ position_id: holdingId, valuation_cost: edits++ % 2 === 0 ? 97.5 : 98.5 }),
    });
    if (!response.ok) throw new Error(`edit-valuation-cost: ${response.status} ${await response.text()}`);
  };
  for (let i = 1; i < WARM_UP_CALLS; i++) {
    await change();
    await timed<Inventory>(url, { headers });
  }
  const calls: Array<Timed<Inventory>> = [];
  for (let i = 0; i < VALUE_CALLS; i++) {
    await change();
    calls.push(await timed<Inventory>(url, { headers }));
  }
  const unchanged: Array<Timed<Inventory>> = [];
  for (let i = 0; i < VALUE_CALLS; i++) unchanged.push(await timed<Inventory>(url, { headers }));
  const server = calls.map((c) => c.server);
  const roundTrip = calls.map((c) => c.roundTrip);
  const { totals, results } = cold.body;
  const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
  const label = `inventory: re-value the book after a change of one holding, GET api/inventory/ (page of ${results.length} + totals and breakdowns over ${positions.toLocaleString('en-IN')} holdings), ${VALUE_CALLS} calls one after another (${driver})`;
  return [
    {
      name: `inventory: value the whole book the first time on a node that just started (${
        stored ? 'its start stored the bonds’ figures' : 'every bond built and priced'
      }), GET api/inventory/ (${driver}) server`,
      value: cold.server,
      unit: 'ms',
      // The worst case (nothing stored) is shown without the target: no starting node leaves it so.
      ...(stored ? onPostgres(100) : {}),
      note: `${cold.roundTrip.toFixed(1)} ms round trip; ${bondsNote}`,
    },
    {
      name: `${label} server p50`,
      value: percentile(server, 50),
      unit: 'ms',
      note: `round trip p50 ${p(roundTrip, 50)} ms; an unchanged book read again: server p50 ${p(
        unchanged.map((c) => c.server),
        50,
      )} ms, p99 ${p(
        unchanged.map((c) => c.server),
        99,
      )} ms`,
    },
    {
      name: `${label} server p99`,
      value: percentile(server, 99),
      unit: 'ms',
      ...onPostgres(100),
      note:
        `round trip p99 ${p(roundTrip, 99)} ms, answer ${round(JSON.stringify(cold.body).length / 1024)} KB; ` +
        `${totals.positions - totals.not_valued} holdings valued, ${totals.not_valued} not valued (no reference price or unpriceable); ` +
        `book market value ₹${round(totals.market_value / 1e7).toLocaleString('en-IN')} Cr; ${machineLoad()}`,
    },
  ];
}

/**
 * The whole book valued the first time on a node, several times (README "Speed"): each sample is a fresh inventory
 * service in the server process (serve.ts), so a new node's bond cache, bond figures and books, answering the first
 * page; server wall time and CPU. First with no stored bond figures (every bond priced, as the first node of a day
 * before the elected node's pass), then with them on a node that knows none of the firm's bonds (migration 0032:
 * the holdings and their bonds with their stored figures, read in parts side by side), then as a started node
 * (`storeHeldOnStart` read every held bond's figures into the node before the call, not timed: the call reads the
 * holdings alone; the target).
 */
async function firstValuations(base: string, positions: number): Promise<BenchResult[]> {
  const headers = { authorization: `Bearer ${await signIn(base, 'dealer@demo.dart')}`, 'content-type': 'application/json' };
  const sample = async (stored: boolean, filled: boolean) => {
    const response = await fetch(`${base}/bench/first-valuation`, { method: 'POST', headers, body: JSON.stringify({ stored, filled }) });
    if (!response.ok) throw new Error(`bench first valuation: ${response.status} ${await response.text()}`);
    return (await response.json()) as { ms: number; cpu_ms: number };
  };
  const series = async (stored: boolean, filled: boolean, count: number) => {
    const out: Array<{ ms: number; cpu_ms: number }> = [];
    for (let i = 0; i < count; i++) out.push(await sample(stored, filled));
    return out;
  };
  const unstored = await series(false, false, FIRST_UNSTORED);
  const loadUnstored = machineLoad();
  const unfilled = await series(true, false, FIRST_UNFILLED);
  const loadUnfilled = machineLoad();
  const stored = await series(true, true, FIRST_STORED);
  const label = (what: string) =>
    `inventory: value the whole book the first time on a node (${positions.toLocaleString('en-IN')} holdings), ${what} (${driver}) server`;
  const ms = (values: Array<{ ms: number }>, q: number) =>
    percentile(
      values.map((v) => v.ms),
      q,
    );
  const cpu = (values: Array<{ cpu_ms: number }>, q: number) =>
    percentile(
      values.map((v) => v.cpu_ms),
      q,
    ).toFixed(0);
  return [
    {
      name: label(`no stored bond figures (every bond priced), ${FIRST_UNSTORED} samples, p50`),
      value: ms(unstored, 50),
      unit: 'ms',
      note: `p99 ${ms(unstored, 99).toFixed(0)} ms; CPU p50 ${cpu(unstored, 50)} ms, p99 ${cpu(unstored, 99)} ms; ${loadUnstored}`,
    },
    {
      name: label(`stored bond figures, the node knowing none of the firm's bonds, ${FIRST_UNFILLED} samples, p50`),
      value: ms(unfilled, 50),
      unit: 'ms',
      note: `p99 ${ms(unfilled, 99).toFixed(0)} ms; CPU p50 ${cpu(unfilled, 50)} ms, p99 ${cpu(unfilled, 99)} ms; ${loadUnfilled}`,
    },
    {
      name: label(`stored bond figures read into the node at its start, ${FIRST_STORED} samples, p50`),
      value: ms(stored, 50),
      unit: 'ms',
      ...onPostgres(100),
      note: `CPU p50 ${cpu(stored, 50)} ms`,
    },
    {
      name: label(`stored bond figures read into the node at its start, ${FIRST_STORED} samples, p99`),
      value: ms(stored, 99),
      unit: 'ms',
      ...onPostgres(100),
      note: `CPU p99 ${cpu(stored, 99)} ms; ${machineLoad()}`,
    },
  ];
}

/** Moves the reference pick of `bonds` of the book's bonds (serve.ts's bench writer) by ±1 bp in turn. */
async function moveReferences(base: string, bonds: number, from: number, bp: number): Promise<void> {
  const response = await fetch(`${base}/bench/reference-prices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bonds, from, bp }),
  });
  if (!response.ok) throw new Error(`bench reference writer: ${response.status} ${await response.text()}`);
}

/**
 * Re-valuing after a reference price change: `GET api/inventory/?page_size=50` right after the reference pick of
 * some of the book's bonds moved (one bond: a reported trade; 100 bonds; every bond: a whole close), each call
 * after its own change. The server time is the whole re-valuation: the change log read, the changed bonds read
 * with their picks and priced again, their holdings re-valued, the totals and breakdowns summed again, the page.
 */
async function revalueAfterReference(base: string, positions: number, isins: number): Promise<BenchResult[]> {
  const headers = { authorization: `Bearer ${await signIn(base, 'dealer@demo.dart')}` };
  const url = `${base}/api/inventory/?page=1&page_size=50`;
  await timed<Inventory>(url, { headers });
  let turn = 0;
  const series = async (bonds: number, calls: number) => {
    const out: Array<Timed<Inventory>> = [];
    for (let i = 0; i < calls; i++) {
      await moveReferences(base, bonds, turn * bonds, turn % 2 === 0 ? 1 : -1);
      turn++;
      const call = await timed<Inventory>(url, { headers });
      if (call.body.count !== positions) throw new Error(`the book lists ${call.body.count} holdings after a reference change`);
      out.push(call);
    }
    return out.map((c) => c.server);
  };
  await series(1, WARM_UP_CALLS);
  const one = await series(1, VALUE_CALLS);
  const hundred = await series(100, 20);
  const close = await series(isins, 3);
  const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
  const label = (bonds: string, calls: number) =>
    `inventory: re-value the book after a reference price change of ${bonds}, GET api/inventory/ page of 50 of ${positions.toLocaleString('en-IN')} holdings, ${calls} calls (${driver}) server`;
  return [
    {
      name: `${label('1 bond', VALUE_CALLS)} p50`,
      value: percentile(one, 50),
      unit: 'ms',
      note: `100 bonds at a time (20 calls): p50 ${p(hundred, 50)} ms, p99 ${p(hundred, 99)} ms`,
    },
    {
      name: `${label('1 bond', VALUE_CALLS)} p99`,
      value: percentile(one, 99),
      unit: 'ms',
      ...onPostgres(100),
      note: `a whole close (all ${isins.toLocaleString('en-IN')} bonds' picks moved, every holding re-valued; 3 calls): ${close
        .map((v) => v.toFixed(0))
        .join(', ')} ms; ${machineLoad()}`,
    },
  ];
}

/**
 * Re-valued live: a socket on ws/trade/d/ as Demo Capital's dealer; after each change of one bond's reference,
 * the time to the `inventory.revalued` push (the elected node's notice runs every 100 ms) and to the page's
 * refetched answer, as an open `/inventory` page would see it.
 */
async function liveRevaluation(base: string): Promise<BenchResult[]> {
  const token = await signIn(base, 'dealer@demo.dart');
  const socket = new WebSocket(`${base.replace('http', 'ws')}${LIVE_PATH}`);
  const waiting: Array<() => void> = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
    socket.on('error', reject);
    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString()) as { type: string; topic?: string };
      if (message.type === 'auth_ok') resolve();
      if (message.type === 'event' && message.topic === INVENTORY_TOPICS.revalued) waiting.shift()?.();
    });
  });
  const pushed: number[] = [];
  const answered: number[] = [];
  const url = `${base}/api/inventory/?page=1&page_size=50`;
  try {
    for (let i = 0; i < LIVE_CALLS; i++) {
      const event = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no inventory.revalued push within 10 s')), 10_000);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      // A random pause first, so the changes do not fall in step with the notice's ticks.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 250));
      const started = performance.now();
      await moveReferences(base, 1, 7 + i, i % 2 === 0 ? 1 : -1);
      await event;
      pushed.push(performance.now() - started);
      await timed<Inventory>(url, { headers: { authorization: `Bearer ${token}` } });
      answered.push(performance.now() - started);
    }
  } finally {
    socket.close();
  }
  return [
    {
      name: `inventory: re-valued live, one bond's reference price changed → the page's refetched answer, ${LIVE_CALLS} changes (${driver}) p99`,
      value: percentile(answered, 99),
      unit: 'ms',
      note: `p50 ${percentile(answered, 50).toFixed(0)} ms; the push alone p50 ${percentile(pushed, 50).toFixed(0)} ms, p99 ${percentile(
        pushed,
        99,
      ).toFixed(0)} ms (the notice looks every 100 ms); ${machineLoad()}`,
    },
  ];
}

/**
 * When one answer takes long (each request values the whole book on one event loop), a timed run of a few
 * seconds finishes no request and leaves 10 in flight that the server keeps computing: then the run is
 * `BENCH_PAGE_REQUESTS` requests (default 40, 4 per connection) instead, every one waited for.
 */
async function pageUnderLoad(base: string, bareBase: string, positions: number, serverP50: number): Promise<BenchResult[]> {
  const headers = { authorization: `Bearer ${await signIn(base, 'dealer@demo.dart')}` };
  const url = `${base}/api/inventory/?page=1&page_size=50`;
  const page = await timed<Inventory>(url, { headers });
  if (page.body.results.length !== 50) throw new Error(`a page of ${page.body.results.length} holdings, not 50`);
  const slow = serverP50 * BENCH_CONNECTIONS * 4 > BENCH_DURATION_S * 1000;
  const amount = Number(process.env.BENCH_PAGE_REQUESTS ?? 40);
  const load = async (target: string, shape: { duration: number } | { amount: number }, h: Record<string, string> = {}) => {
    const started = performance.now();
    const result = await autocannon({ url: target, connections: BENCH_CONNECTIONS, headers: h, timeout: 120, ...shape });
    // The app's non-2xx answers (seen: 503, a database call timing out while the event loop is busy valuing other requests) are a finding
    // reported in the note; anything else failing, or the bare route failing at all, stops the bench.
    const refused = target.startsWith(`${base}/`) ? result.non2xx : 0;
    if (result.non2xx > refused || result.errors > 0 || result.timeouts > 0)
      throw new Error(
        `${target}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts`,
      );
    const seconds = (performance.now() - started) / 1000;
    // By amount, autocannon's per-second average is over whole seconds: requests ÷ elapsed is the honest rate.
    const rps = 'amount' in shape ? (result.requests.total - refused) / seconds : result.requests.average;
    const statuses = Object.entries(result.statusCodeStats as Record<string, { count: number }>)
      .map(([status, { count }]) => `${count}× ${status}`)
      .join(', ');
    return { rps, p99: result.latency.p99, p50: result.latency.p50, total: result.requests.total, seconds, refused, statuses };
  };
  const measuredRun = slow ? { amount } : { duration: BENCH_DURATION_S };
  await load(`${bareBase}/bare`, { duration: 2 });
  await load(url, slow ? { amount: BENCH_CONNECTIONS } : { duration: 2 }, headers);
  const baseline = await load(`${bareBase}/bare`, { duration: BENCH_DURATION_S });
  const measured = await load(url, measuredRun, headers);
  const label = `inventory: GET api/inventory/ page of 50 of ${positions.toLocaleString('en-IN')} holdings, ${BENCH_CONNECTIONS} connections (${driver})`;
  return [
    {
      name: `${label} p99`,
      value: measured.p99,
      unit: 'ms',
      baseline: baseline.p99,
      ...onPostgres(50),
      note:
        `p50 ${measured.p50} ms vs ${baseline.p50} ms; ${measured.total} requests in ${measured.seconds.toFixed(1)} s (${measured.statuses}` +
        `${measured.refused > 0 ? `: ${measured.refused} NOT answered 200, their times included` : ''})` +
        `${slow ? ` (a run of ${amount} requests: at ${round(serverP50)} ms server time each, a ${BENCH_DURATION_S} s run would finish next to none)` : ''}; ${machineLoad()}`,
    },
    {
      name: `${label} throughput`,
      value: measured.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      note: `baseline: a bare Fastify GET route in its own process (as the market-API and post-trade benches), same load, ${BENCH_DURATION_S} s`,
    },
  ];
}

async function upload(base: string, csvPath: string): Promise<BenchResult[]> {
  const csv = readFileSync(csvPath);
  const rows = csv.toString().trim().split('\n').length - 1;
  const token = await signIn(base, 'dealer@second.dart');
  const post = () =>
    timed<InventoryUploadResult>(`${base}/api/inventory/upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
  // The file's bonds as bonds no node has figures for: the upload prices and stores them before it answers (inventory
  // README "Speed" 2), and the book's first valuation right after it is timed.
  const forget = await fetch(`${base}/bench/forget-figures`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (!forget.ok) throw new Error(`bench forget figures: ${forget.status} ${await forget.text()}`);
  const first = await post();
  if (first.body.imported !== rows || first.body.created !== rows) throw new Error(`upload of ${rows} rows: ${JSON.stringify(first.body)}`);
  const firstBook = await timed<Inventory>(`${base}/api/inventory/?page=1&page_size=50`, { headers: { authorization: `Bearer ${token}` } });
  if (firstBook.body.count !== rows) throw new Error(`Second Bank's book lists ${firstBook.body.count} holdings after uploading ${rows}`);
  const again = await post();
  if (again.body.updated !== rows) throw new Error(`the same upload again: ${JSON.stringify(again.body)}`);
  const book = await timed<Inventory>(`${base}/api/inventory/?page=1&page_size=1`, { headers: { authorization: `Bearer ${token}` } });
  if (book.body.count !== rows) throw new Error(`Second Bank's book lists ${book.body.count} holdings after uploading ${rows}`);
  return [
    {
      name: `inventory: upload ${rows.toLocaleString('en-IN')}-row CSV of real ISINs into an empty book, end to end (${driver})`,
      value: first.roundTrip,
      unit: 'ms',
      ...onPostgres(5000),
      note:
        `server ${round(first.server)} ms; ${round(csv.length / 1024)} KB; the same file again (${rows} updates) ` +
        `${round(again.roundTrip)} ms end to end, ${round(again.server)} ms server; the uploaded book then values in ` +
        `${round(book.server)} ms server; ${machineLoad()}`,
    },
    {
      name: `inventory: first valuation of a book just uploaded (${rows.toLocaleString('en-IN')} holdings of bonds no node had figures for), server time (${driver})`,
      value: firstBook.server,
      unit: 'ms',
      ...onPostgres(100),
      note:
        `the upload (above, ${round(first.server)} ms server) priced and stored its bonds' figures before answering; ` +
        `${round(firstBook.roundTrip)} ms end to end; ${machineLoad()}`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
