/**
 * The real app (buildApp, NODE_ENV=test: no jobs, nothing moves under the book) on a throwaway database
 * (in-memory PGlite, or a fresh PostgreSQL database next to DATABASE_URL, dropped on exit), demo seed, and Demo
 * Capital's book of `BENCH_POSITIONS` holdings (default 10,000) across `BENCH_ISINS` bonds (default 5,000)
 * written straight into the inventory tables (modules/inventory/README.md "Data model"): each bond held in
 * `positions ÷ bonds` accounts (MAIN, AFS, HTM, HFT, …), ₹1–10 Cr face value in whole bonds, average cost 95–105
 * per ₹100, the firm's book dated today.
 *
 * Bonds: the slice import has about 900 bonds, fewer than the 5,000 the book needs, so the full universe is
 * imported (`BENCH_BOND_IMPORT=slice` forces the slice: then as many bonds as exist, said in the output). The
 * bonds picked are live ones (not matured) with a reference price first (the waterfall can value them), then
 * other live ones, in id order.
 *
 * Also writes the upload file of part 3: `BENCH_UPLOAD_ROWS` rows (default 5,000) of real ISINs, one per bond,
 * for Second Bank's empty book, into its scratch folder.
 *
 * `POST /bench/reference-prices {bonds, from, bp}` moves the reference pick of some of the book's bonds (the
 * re-valuation part of the bench), and the revaluation notices run every 100 ms as on the elected node.
 *
 * Every `/api/inventory/` answer carries `Server-Timing: app;dur=<ms>` (Fastify's elapsed time at onSend: the
 * whole request on the server, serialisation included, the socket write not), so the client reads server time.
 *
 * Before it listens, stores the held bonds' figures as a starting node does (app.ts, `storeHeldOnStart`), unless
 * `BENCH_BOOT_STORE=0`.
 *
 * Prints `READY <port> seed=<ms>,import=<ms>,boot=<ms>,bootPriced=<bonds>,universe=<bonds>,isins=<bonds used>,positions=<n>,mode=<full|slice>,csv=<path>`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite, sqlRows, type Db } from '../../apps/server/src/db/client';
import { clients, finstruments, inventoryBooks, inventoryPositions } from '../../apps/server/src/db/schema';
import { pgArray } from '../../apps/server/src/db/pg-array';
import { createRevaluationNotices, storeHeldOnStart, warmUpInventory } from '../../apps/server/src/modules/inventory';
import { createInventoryService, INVENTORY_READ } from '../../apps/server/src/modules/inventory/inventory.service';
import { perBondOf } from '../../apps/server/src/modules/market';
import { createPostgresDatabase } from '../../apps/server/test/helpers';

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 10_000);
const ISINS = Number(process.env.BENCH_ISINS ?? 5_000);
const UPLOAD_ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 5_000);
const BOND_IMPORT = process.env.BENCH_BOND_IMPORT === 'slice' ? 'slice' : 'full';
const ACCOUNTS = ['MAIN', 'AFS', 'HTM', 'HFT'];
const CRORE = 10_000_000;

const scratch = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'dart-bench-inventory-'));
const config = loadConfig({
  ...process.env,
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  REDIS_URL: '',
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_SEED: '1',
  BOND_IMPORT,
  DATA_DIR: dataDir,
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const importStarted = performance.now();
// PGlite in memory: never the developer's data directory. The bond import runs inside buildApp.
const app = await buildApp({ config, ...(scratch ? {} : { database: await openPglite('memory://') }) });
const importMs = performance.now() - importStarted;

app.addHook('onSend', async (request, reply, payload) => {
  if (request.url.startsWith('/api/inventory/')) reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
  return payload;
});

/**
 * The bench's writer of reference prices (any writer will do: the triggers of migration 0031 see them all): moves
 * the waterfall pick of `bonds` of the book's bonds, from the `from`-th (wrapping), by `bp` basis points, in one
 * statement, as a revised close or a reported trade would. Bench only: never part of the app.
 */
app.post('/bench/reference-prices', { config: { policy: { kind: 'public' } } }, async (request) => {
  const { bonds: count, from, bp } = request.body as { bonds: number; from: number; bp: number };
  const ids = Array.from({ length: Math.min(count, bonds.length) }, (_, i) => bonds[(from + i) % bonds.length]!.id);
  await db.execute(sql`UPDATE reference_prices SET yield_fraction = yield_fraction + ${bp / 10_000}
    WHERE id IN (SELECT DISTINCT ON (finstrument_id) id FROM reference_prices WHERE finstrument_id = ANY(${pgArray(ids)}::int[])
      ORDER BY finstrument_id, priority ASC, price_date DESC)`);
  return { bonds: ids.length };
});
/**
 * A new node's first valuation of the book (`POST /bench/first-valuation {stored, filled}`): a fresh inventory
 * service (its own bond cache, bond figures and books, as on a node that just started) answers Demo Capital's first
 * page, timed on the server (wall and this process's CPU). `stored: false` deletes the stored bond figures first
 * (migration 0032), so every bond is priced, as on the first node of a day before the elected node's pass;
 * `stored: true` uses them; `filled` reads them into the node first, as a starting node does (not timed). Both
 * wait (≤ 10 s) until the previous valuation's figures are stored. Bench only: the service is never offered a quote here.
 */
const noMarket = {
  createQuote: () => Promise.reject(new Error('the inventory bench never offers a holding')),
} as unknown as Parameters<typeof createInventoryService>[1];
app.post('/bench/first-valuation', { config: { policy: INVENTORY_READ } }, async (request) => {
  const { stored, filled } = request.body as { stored: boolean; filled?: boolean };
  const held = sql`(SELECT count(DISTINCT finstrument_id) FROM inventory_positions WHERE face_value > 0)`;
  // Both ways, the previous valuation's store first (≤ 10 s), so it cannot land after the delete below.
  for (let waited = 0; waited < 10_000; waited += 50) {
    const [row] = await sqlRows<{ ready: boolean }>(db, sql`SELECT (SELECT count(*) FROM inventory_bond_valuations) >= ${held} AS ready`);
    if (row?.ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!stored) await db.transaction((tx) => tx.execute(sql`DELETE FROM inventory_bond_valuations`));
  // A new node's heap holds no earlier books: this process holds every earlier sample's (10,000 holdings each), and
  // a full collection of them falling inside a later sample timed the collector, not the valuation (p99 181 ms
  // against p50 73 ms at load 1.8, with the CPU time above the wall time: the collector's threads). The warm-up
  // collects first and then runs the valuing code hot, as a starting node does (app.ts): the forced collection
  // throws away much of the optimised code. Its sweeping goes on in the background after gc() returns: let it finish.
  await warmUpInventory();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const node = createInventoryService(app.deps, noMarket);
  // `filled`: as a starting node does (`storeHeldOnStart`), every held bond's figures read into the
  // node's own before the first request (not timed); without it the node knows none of the firm's bonds.
  if (filled) await node.fillNodeBonds();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answer = await node.listJson(request.principal!, { page: 1, page_size: 50 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpu_ms: (used.user + used.system) / 1000, bytes: answer.length };
});

/**
 * Forgets every stored bond figure (`POST /bench/forget-figures`), so the upload part's file holds bonds no node has
 * figures for, as a firm's first upload of bonds nobody else holds. Bench only.
 */
app.post('/bench/forget-figures', { config: { policy: INVENTORY_READ } }, async () => {
  await db.transaction((tx) => tx.execute(sql`DELETE FROM inventory_bond_valuations`));
  // …and the serving node's own (inventory.bonds.ts): a firm's bonds no other firm holds are in no node's figures.
  app.inventory.forgetNodeBonds();
  return { forgotten: true };
});

// The elected node's notice pass (NODE_ENV=test starts no jobs): the live part of the bench times its pushes, and
// its pass stores the changed bonds' figures for the next node (README "Speed").
const elected = createInventoryService(app.deps, noMarket);
const notices = createRevaluationNotices(app.deps, (ids) => elected.storeHeldValuations(ids));
notices.start(
  () => true,
  (error) => console.error('bench/inventory: revaluation notice failed', error),
);
app.addHook('onClose', () => notices.stop());

const db = app.deps.database.db;
const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
const csvPath = path.join(dataDir, 'holdings-upload.csv');
let universe = 0;
let bonds: Bond[] = [];
let seedMs = 0;
let bootMs = 0;
let bootPriced = 0;
try {
  // As a node that is not under test does when it starts (app.ts): the import's garbage collected, then the valuing
  // code compiled hot (`warmUpInventory`). Inside the try: a warm-up that throws still drops the scratch database.
  await warmUpInventory();
  [{ universe }] = (await db.select({ universe: sql<number>`count(*)::int` }).from(finstruments)) as [{ universe: number }];
  bonds = await pickBonds(db, ISINS);
  const started = performance.now();
  await seedBook(db, bonds, POSITIONS);
  seedMs = performance.now() - started;
  writeFileSync(csvPath, uploadCsv(bonds, UPLOAD_ROWS));
  // As a starting node does before it listens (app.ts): the held bonds' figures stored. The book was written
  // straight into the tables, past every writer that stores figures (an upload, the elected node's pass), so this
  // prices all of them. BENCH_BOOT_STORE=0 leaves them missing: the first call then prices every bond itself.
  if (process.env.BENCH_BOOT_STORE !== '0') {
    const bootStarted = performance.now();
    bootPriced = await storeHeldOnStart(app.inventory, app.log);
    bootMs = performance.now() - bootStarted;
  }
} catch (error) {
  // Never leave the scratch database behind.
  await app.close();
  await scratch?.drop();
  throw error;
}

await app.listen({ port: 0, host: '127.0.0.1' });
const extra = [
  `seed=${Math.round(seedMs)}`,
  `import=${Math.round(importMs)}`,
  `boot=${Math.round(bootMs)}`,
  `bootPriced=${bootPriced}`,
  `universe=${universe}`,
  `isins=${bonds.length}`,
  `positions=${POSITIONS}`,
  `mode=${BOND_IMPORT}`,
  `csv=${csvPath}`,
].join(',');
process.stdout.write(`READY ${(app.server.address() as { port: number }).port} ${extra}\n`);

process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await scratch?.drop();
    process.exit(0);
  });
});

type Bond = Pick<typeof finstruments.$inferSelect, 'id' | 'isin' | 'securityType' | 'faceValue'>;

/** Up to `count` live bonds (maturing after today, or perpetual): those with a reference price first. */
async function pickBonds(store: Db, count: number): Promise<Bond[]> {
  const columns = {
    id: finstruments.id,
    isin: finstruments.isin,
    securityType: finstruments.securityType,
    faceValue: finstruments.faceValue,
  };
  const live = or(isNull(finstruments.maturityDate), gt(finstruments.maturityDate, today));
  const priced = sql`EXISTS (SELECT 1 FROM reference_prices r WHERE r.finstrument_id = ${finstruments.id})`;
  const first = await store.select(columns).from(finstruments).where(and(live, priced)).orderBy(asc(finstruments.id)).limit(count);
  if (first.length >= count) return first;
  const rest = await store
    .select(columns)
    .from(finstruments)
    .where(and(live, sql`NOT ${priced}`))
    .orderBy(asc(finstruments.id))
    .limit(count - first.length);
  return [...first, ...rest];
}

/** ₹1–10 Cr in whole bonds of the bond's face value (at least one bond). */
function faceOf(bond: Bond, i: number): number {
  const perBond = perBondOf(bond);
  return perBond * Math.max(1, Math.round(((1 + (i % 10)) * CRORE) / perBond));
}

/** `count` holdings of Demo Capital: bond `i % bonds`, account `i ÷ bonds`; cost in integer paise (face × price). */
async function seedBook(store: Db, picked: Bond[], count: number): Promise<void> {
  if (picked.length === 0) throw new Error('no live bonds imported');
  const [demo] = await store.select({ id: clients.id }).from(clients).where(eq(clients.name, 'Demo Capital'));
  if (!demo) throw new Error('seed missing: Demo Capital');
  await store.insert(inventoryBooks).values({ clientId: demo.id, bookDate: today });
  const BATCH = 1_000;
  for (let from = 0; from < count; from += BATCH) {
    const rows: Array<typeof inventoryPositions.$inferInsert> = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const bond = picked[i % picked.length]!;
      const k = Math.floor(i / picked.length);
      const faceValue = faceOf(bond, i);
      const price = 95 + (i % 1001) / 100;
      rows.push({
        clientId: demo.id,
        finstrumentId: bond.id,
        account: ACCOUNTS[k] ?? `BOOK-${k}`,
        faceValue,
        costPaise: Math.round(faceValue * price),
        asOf: today,
      });
    }
    await store.insert(inventoryPositions).values(rows);
  }
  await store.execute(sql`ANALYZE inventory_positions`);
}

/** The part-3 file: one row per bond (ISIN, face value in rupees, valuation cost, date, account AFS). */
function uploadCsv(picked: Bond[], rows: number): string {
  const lines = ['isin,face_value,valuation_cost,date,account'];
  for (let i = 0; i < rows; i++) {
    const bond = picked[i % picked.length]!;
    const account = i < picked.length ? 'AFS' : `BOOK-${Math.floor(i / picked.length)}`;
    lines.push(`${bond.isin},${faceOf(bond, i + 3)},${(97 + (i % 601) / 100).toFixed(2)},${today},${account}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
