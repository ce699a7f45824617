/**
 * The real app on a throwaway database (in-memory PGlite, or a fresh PostgreSQL database next to DATABASE_URL,
 * dropped on exit), in one of two shapes (`POST_TRADE_MODE`):
 *
 * - `pipeline`: NODE_ENV=development, so the app's jobs run as in production: the orders module's reporter is
 *   kicked by each confirmed ticket and reports to the simulated venue (`EXCHANGE_SIM_LATENCY_MS` from the
 *   parent: 0, or unset for the venue's default). No simulated participants, settlement far away (an hour), no
 *   quote or rate limits in the way. The bench makes the deals itself through the market API.
 * - `orders`: NODE_ENV=test (no jobs: nothing moves under the listing) with `BENCH_ORDERS` orders (default
 *   10,000: half as many confirmed tickets × their two sides) written straight into the tables, the tickets
 *   alternating which of Demo Capital and Second Bank buys, over 200 bonds, 120 trade dates and every order state.
 *
 * Prints `READY <port> seed=<seeding ms>,latency=<venue latency ms>`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ORDER_STATES, type OrderState } from '@dart/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite, type Db } from '../../apps/server/src/db/client';
import { custodians, finstruments, orders, tickets, userAccounts, users } from '../../apps/server/src/db/schema';
import { createPostgresDatabase } from '../../apps/server/test/helpers';

/** Ticket states that go with each order state (the two sides of a ticket share it in this seed). */
const TICKET_STATE_OF: Record<OrderState, string> = {
  reporting: 'reporting',
  mismatch: 'reporting',
  reported: 'reported',
  accepted: 'reported',
  rejected: 'cancelled',
  settled: 'settled',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * `BENCH_SQL_COUNT=<file>`: every statement sent to PostgreSQL counted by its text (its first `BENCH_SQL_WIDTH`
 * characters, default 160), written to the file as JSON on exit (counted from the timed part's SIGUSR2): where a
 * deal's round trips go. With
 * `BENCH_SQL_TRACE=<file>` too, every statement of the timed part in the order sent, with its backend's pid (run
 * it with BENCH_DEALS=3 BENCH_IN_FLIGHT=1 to read one deal's statements in sequence).
 */
const sqlCounts = new Map<string, number>();
const SQL_WIDTH = Number(process.env.BENCH_SQL_WIDTH ?? 160);
let traceOn = false;
const traceLines: string[] = [];
if (process.env.BENCH_SQL_COUNT) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').slice(0, SQL_WIDTH);
    sqlCounts.set(text, (sqlCounts.get(text) ?? 0) + 1);
    if (traceOn) traceLines.push(`${(this as unknown as { processID: number }).processID} ${text.slice(0, 110)}`);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  // The bench sends SIGUSR2 when its timed part starts: the file then holds that part's statements only.
  process.on('SIGUSR2', () => {
    sqlCounts.clear();
    traceOn = Boolean(process.env.BENCH_SQL_TRACE);
  });
}

const MODE = process.env.POST_TRADE_MODE === 'orders' ? 'orders' : 'pipeline';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const scratch = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;

const config = loadConfig({
  ...process.env,
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  REDIS_URL: '',
  NODE_ENV: MODE === 'orders' ? 'test' : 'development',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_SEED: '1',
  BOND_IMPORT: 'slice',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dart-bench-post-trade-')),
  RATE_LIMIT_PER_MINUTE: '100000000',
  DAILY_QUOTAS: 'quote.create.user=10000000,quote.create.client=10000000,quote.update.user=10000000',
  EXCHANGE_SIM_PARTICIPANTS: '0',
  EXCHANGE_SIM_SETTLE_MS: '3600000',
});
// PGlite in memory: never the developer's data directory.
const app = await buildApp({ config, ...(scratch ? {} : { database: await openPglite('memory://') }) });
const started = performance.now();
if (MODE === 'orders') await seedOrders(app.deps.database.db, ORDERS);
const seedMs = performance.now() - started;

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `READY ${(app.server.address() as { port: number }).port} seed=${Math.round(seedMs)},latency=${config.exchangeSim.latencyMs}\n`,
);

process.on('SIGTERM', () => {
  void app.close().then(async () => {
    if (process.env.BENCH_SQL_COUNT) {
      const sorted = [...sqlCounts].sort((a, b) => b[1] - a[1]);
      writeFileSync(process.env.BENCH_SQL_COUNT, JSON.stringify(sorted, null, 1));
      if (process.env.BENCH_SQL_TRACE) writeFileSync(process.env.BENCH_SQL_TRACE, traceLines.join('\n'));
    }
    await scratch?.drop();
    process.exit(0);
  });
});

/**
 * `count` orders as `count / 2` confirmed tickets and their order (seller) and procurement order (buyer), in
 * batches. Terms vary so the blotter's numeric and date filters keep a share: price 96–104, yield 6.5–9 %,
 * ₹1–10 Cr face value, trade dates over the last 120 days, settlement T+1. Money in integer paise.
 */
async function seedOrders(db: Db, count: number): Promise<void> {
  const firms = await db
    .select({ email: users.email, userId: users.id, clientId: userAccounts.clientId })
    .from(users)
    .innerJoin(userAccounts, eq(userAccounts.userId, users.id))
    .where(inArray(users.email, ['dealer@demo.dart', 'dealer@second.dart']));
  const demo = firms.find((f) => f.email === 'dealer@demo.dart');
  const second = firms.find((f) => f.email === 'dealer@second.dart');
  const bonds = await db.select({ id: finstruments.id }).from(finstruments).orderBy(finstruments.id).limit(200);
  const custodianIds = (await db.select({ id: custodians.id }).from(custodians).limit(2)).map((c) => c.id);
  if (!demo || !second || bonds.length === 0 || custodianIds.length < 2) throw new Error('seed missing: demo dealers, bonds or custodians');

  const day = 86_400_000;
  const today = Date.now();
  const BATCH = 500;
  const ticketCount = Math.ceil(count / 2);
  for (let from = 0; from < ticketCount; from += BATCH) {
    const rows: Array<{ state: OrderState; ticket: typeof tickets.$inferInsert }> = [];
    for (let i = from; i < Math.min(ticketCount, from + BATCH); i++) {
      const [buyer, seller] = i % 2 === 0 ? [demo, second] : [second, demo];
      const state = ORDER_STATES[i % ORDER_STATES.length]!;
      const price = 96 + (i % 801) / 100;
      const quantum = (1 + (i % 10)) * 10_000_000;
      const principalPaise = Math.round(price * quantum);
      const accruedInterestPaise = Math.round(quantum * 0.07 * ((i % 180) / 365) * 100);
      const tradedAt = new Date(today - (i % 120) * day - (i % 3600) * 1000);
      rows.push({
        state,
        ticket: {
          source: 'manual',
          state: TICKET_STATE_OF[state],
          finstrumentId: bonds[i % bonds.length]!.id,
          buyerClientId: buyer.clientId,
          buyerUserId: buyer.userId,
          sellerClientId: seller.clientId,
          sellerUserId: seller.userId,
          createdByClientId: seller.clientId,
          createdByUserId: seller.userId,
          price,
          yieldFraction: 0.065 + (i % 251) / 10_000,
          quantum,
          settlementDate: new Date(tradedAt.getTime() + day).toISOString().slice(0, 10),
          exchange: i % 3 === 0 ? 'BSE' : 'NSE',
          clearingCorporation: i % 3 === 0 ? 'ICCL' : 'NSCCL',
          accruedDays: i % 180,
          principalPaise,
          accruedInterestPaise,
          considerationPaise: principalPaise + accruedInterestPaise,
          stampDutyPaise: Math.round((principalPaise + accruedInterestPaise) / 1_000_000),
          buyerAcceptedAt: tradedAt,
          buyerAcceptedBy: buyer.userId,
          buyerCustodianId: custodianIds[0]!,
          sellerAcceptedAt: tradedAt,
          sellerAcceptedBy: seller.userId,
          sellerCustodianId: custodianIds[1]!,
          priceConfirmedAt: tradedAt,
          priceConfirmedBy: seller.userId,
          confirmedAt: tradedAt,
          tradedAt,
          // As if written when traded (the blotter's order): one transaction's now() would give 500 rows one time.
          createdAt: tradedAt,
          updatedAt: tradedAt,
        },
      });
    }
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(tickets)
        .values(rows.map((r) => r.ticket))
        .returning();
      const sides = inserted.flatMap((t, k) => {
        const state = rows[k]!.state;
        const reported = !['reporting', 'mismatch'].includes(state);
        const common = {
          ticketId: t.id,
          state,
          reportedOrderStatus: state === 'accepted' ? 'ACCEPTED' : state === 'rejected' ? 'REJECTED' : null,
          finstrumentId: t.finstrumentId,
          exchange: t.exchange,
          clearingCorporation: t.clearingCorporation,
          price: t.price,
          yieldFraction: t.yieldFraction,
          quantum: t.quantum,
          settlementDate: t.settlementDate,
          tradeDate: new Date(t.tradedAt.getTime() + 330 * 60_000).toISOString().slice(0, 10),
          accruedDays: t.accruedDays,
          principalPaise: t.principalPaise,
          accruedInterestPaise: t.accruedInterestPaise,
          considerationPaise: t.considerationPaise,
          stampDutyPaise: t.stampDutyPaise,
          exchangeTradeId: reported ? `${t.exchange}-TRD-${String(t.number).padStart(6, '0')}` : null,
          reason: state === 'mismatch' ? 'price (sell 100.5000, buy 100.2500)' : state === 'failed' ? 'Shortage of funds at pay-in' : null,
          tradedAt: t.tradedAt,
          reportedAt: reported ? t.tradedAt : null,
          settledAt: state === 'settled' ? t.tradedAt : null,
          createdAt: t.tradedAt,
          updatedAt: t.tradedAt,
          // Nothing is due: no reporter picks these rows up (NODE_ENV=test runs no job anyway).
          nextReportAt: null,
        };
        return [
          {
            ...common,
            kind: 'order',
            clientId: t.sellerClientId,
            userId: t.sellerUserId,
            counterpartyClientId: t.buyerClientId,
            custodianId: t.sellerCustodianId,
          },
          {
            ...common,
            kind: 'procurement',
            clientId: t.buyerClientId,
            userId: t.buyerUserId,
            counterpartyClientId: t.sellerClientId,
            custodianId: t.buyerCustodianId,
          },
        ];
      });
      await tx.insert(orders).values(sides);
    });
  }
  await db.execute(sql`ANALYZE tickets`);
  await db.execute(sql`ANALYZE orders`);
}
