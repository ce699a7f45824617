/**
 * The real app on a throwaway database (in-memory PGlite, or a fresh PostgreSQL database next to
 * DATABASE_URL, dropped on exit) with 5,000 open public quotes seeded through the market repository.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite } from '../../apps/server/src/db/client';
import { finstruments, userAccounts, users } from '../../apps/server/src/db/schema';
import { createMarketRepository } from '../../apps/server/src/modules/market/market.repository';
import { createPostgresDatabase } from '../../apps/server/test/helpers';

const QUOTES = Number(process.env.BENCH_QUOTES ?? 5000);
const scratch = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;

const config = loadConfig({
  ...process.env,
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  REDIS_URL: '',
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_SEED: '1',
  BOND_IMPORT: 'slice',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dart-bench-')),
  RATE_LIMIT_PER_MINUTE: '100000000',
});
// PGlite in memory: never the developer's data directory.
const app = await buildApp({ config, ...(scratch ? {} : { database: await openPglite('memory://') }) });
const db = app.deps.database.db;

const [owner] = await db
  .select({ userId: users.id, accountId: userAccounts.id, clientId: userAccounts.clientId })
  .from(users)
  .innerJoin(userAccounts, eq(userAccounts.userId, users.id))
  .where(and(eq(users.email, 'dealer@demo.dart')));
const bonds = await db.select({ id: finstruments.id }).from(finstruments).limit(200);
if (!owner || bonds.length === 0) throw new Error('seed missing: demo dealer or bonds');

const repo = createMarketRepository(db);
const now = Date.now();
const started = performance.now();
for (let i = 0; i < QUOTES; i++) {
  const bid = i % 2 === 0;
  const yieldFraction = 0.065 + (i % 50) / 10_000;
  await repo.insertQuote({
    clientId: owner.clientId,
    userId: owner.userId,
    userAccountId: owner.accountId,
    finstrumentId: bonds[i % bonds.length]!.id,
    quoteType: bid ? 'BID' : 'ASK',
    // ₹1–10 Cr of face value (issue 12 §1): a whole number of bonds of any face value up to ₹1 Cr.
    quantum: (1 + (i % 10)) * 10_000_000,
    remainingQuantum: (1 + (i % 10)) * 10_000_000,
    price: 100 - (yieldFraction - 0.07) * 500,
    yieldFraction,
    fixedField: 'yield',
    yieldType: 'YTM',
    settlementDate: new Date(now + 86_400_000).toISOString().slice(0, 10),
    settlementDelta: 1,
    validityMinutes: 1440,
    expiresAt: new Date(now + 86_400_000),
    source: 'WEBSITE',
    state: 'DEFAULT',
  });
}
await app.deps.database.query('ANALYZE quotes');
const seedMs = performance.now() - started;

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port} ${Math.round(seedMs)}\n`);

process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await scratch?.drop();
    process.exit(0);
  });
});
