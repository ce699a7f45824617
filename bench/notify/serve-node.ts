/**
 * One app node for the notification benchmark, on loopback (DATABASE_URL / REDIS_URL from the parent). With
 * SEED_FIRMS=f and USERS_PER_FIRM=u it adds f firms of u trading users (the Second Bank dealer's roles and
 * permissions), a session each, and writes their access tokens to TOKENS_FILE. It adds one bench-only route,
 * `POST /bench/burst` { events }: that many deal events (`market.consideration_update`, one firm each, round robin),
 * each committed in its own transaction (BURST_CONCURRENCY at a time) and published like the market's, answering each event's position and
 * commit time (epoch ms, sub-millisecond).
 */
import { writeFileSync } from 'node:fs';
import { MARKET_TOPICS } from '@dart/contracts';
import { authSessions, clients, userAccountPermissions, userAccountRoles, userAccounts, users } from '../../apps/server/src/db/schema';
import { appendEvent, publishAll } from '../../apps/server/src/lib/events';
import { buildBenchApp, serveBenchApp, templateDealer } from '../lib/bench-node';

// The burst call answers when its last event is in; under load that can outlast the default 30 s request timeout.
const app = await buildBenchApp('notify', { BOND_IMPORT: 'slice', REQUEST_TIMEOUT_MS: '600000' });
/** Transactions in flight during the burst, as concurrent deals would be (their commits interleave). */
const BURST_CONCURRENCY = Number(process.env.BURST_CONCURRENCY ?? 4);
const db = app.deps.database.db;
const epochNow = () => performance.timeOrigin + performance.now();

const seedFirms = Number(process.env.SEED_FIRMS ?? 0);
const perFirm = Number(process.env.USERS_PER_FIRM ?? 0);
const firmIds: string[] = [];
if (seedFirms > 0) {
  const { roles, permissions } = await templateDealer(app);
  const tokens: Array<{ token: string; firm: number }> = [];
  for (let f = 0; f < seedFirms; f++) {
    await db.transaction(async (tx) => {
      const [firm] = await tx
        .insert(clients)
        .values({ name: `Bench Firm ${f}`, clientType: 'CORP', tier: 'PREMIUM' })
        .returning();
      firmIds.push(firm!.id);
      const people = await tx
        .insert(users)
        .values(
          Array.from({ length: perFirm }, (_, u) => ({
            uniqueId: `NOTIFY${f}_${u}`,
            email: `notify${f}_${u}@bench.dart`,
            firstName: 'Bell',
            lastName: `${f}-${u}`,
          })),
        )
        .returning();
      const accounts = await tx
        .insert(userAccounts)
        .values(people.map((p) => ({ userId: p.id, clientId: firm!.id })))
        .returning();
      await tx.insert(userAccountRoles).values(accounts.flatMap((a) => roles.map((r) => ({ userAccountId: a.id, role: r.role }))));
      await tx
        .insert(userAccountPermissions)
        .values(accounts.flatMap((a) => permissions.map((p) => ({ userAccountId: a.id, permission: p.permission }))));
      const sessions = await tx
        .insert(authSessions)
        .values(accounts.map((a) => ({ userId: a.userId, userAccountId: a.id, expiresAt: new Date(Date.now() + 3_600_000) })))
        .returning();
      for (const session of sessions)
        tokens.push({ token: await app.deps.tokens.sign({ userId: session.userId, sessionId: session.id, clientId: firm!.id }), firm: f });
    });
  }
  writeFileSync(process.env.TOKENS_FILE!, JSON.stringify(tokens));
}

app.post('/bench/burst', { config: { policy: { kind: 'public' } }, schema: { hide: true } }, async (request) => {
  const { events: count } = request.body as { events: number };
  const emitted: Array<{ position: number; at: number }> = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const message = await db.transaction((tx) =>
        appendEvent(tx, {
          topic: MARKET_TOPICS.considerationUpdate,
          clientId: firmIds[i % firmIds.length]!,
          payload: {
            deal_id: crypto.randomUUID(),
            finstrument_id: 0,
            price: 100,
            yield: 0.07,
            quantum: 10_000_000,
            settlement_date: '2026-12-01',
            consideration: 1e7,
          },
        }),
      );
      emitted.push({ position: message.position!, at: epochNow() });
      await publishAll(app.deps.bus, [message]);
    }
  };
  await Promise.all(Array.from({ length: BURST_CONCURRENCY }, worker));
  return emitted.sort((a, b) => a.position - b.position);
});

await serveBenchApp(app);
