/**
 * One app node for the fan-out benchmark, on loopback. DATABASE_URL / REDIS_URL come from the parent
 * (a throwaway database it created); without DATABASE_URL the node runs on in-memory PGlite. With
 * SEED_USERS=n it adds n trading users to "Second Bank" with a session each and writes their access
 * tokens (signed with the shared JWT_SECRET) to TOKENS_FILE.
 */
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite } from '../../apps/server/src/db/client';
import { authSessions, clients, userAccountPermissions, userAccountRoles, userAccounts, users } from '../../apps/server/src/db/schema';

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_SEED: '1',
  BOND_IMPORT: 'slice',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dart-bench-')),
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const app = await buildApp({ config, ...(config.databaseUrl ? {} : { database: await openPglite('memory://') }) });
const db = app.deps.database.db;

const seedUsers = Number(process.env.SEED_USERS ?? 0);
if (seedUsers > 0) {
  const [template] = await db
    .select({ accountId: userAccounts.id, clientId: userAccounts.clientId })
    .from(users)
    .innerJoin(userAccounts, eq(userAccounts.userId, users.id))
    .where(eq(users.email, 'dealer@second.dart'));
  if (!template) throw new Error('demo dealer of Second Bank missing');
  const roles = await db.select().from(userAccountRoles).where(eq(userAccountRoles.userAccountId, template.accountId));
  const permissions = await db.select().from(userAccountPermissions).where(eq(userAccountPermissions.userAccountId, template.accountId));
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, template.clientId));
  const tokens: string[] = [];
  for (let i = 0; i < seedUsers; i++) {
    const token = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ uniqueId: `BENCH${i}`, email: `fanout${i}@bench.dart`, firstName: 'Fan', lastName: `Out ${i}` })
        .returning();
      const [account] = await tx.insert(userAccounts).values({ userId: user!.id, clientId: client!.id }).returning();
      await tx.insert(userAccountRoles).values(roles.map((r) => ({ userAccountId: account!.id, role: r.role })));
      await tx.insert(userAccountPermissions).values(permissions.map((p) => ({ userAccountId: account!.id, permission: p.permission })));
      const [session] = await tx
        .insert(authSessions)
        .values({ userId: user!.id, userAccountId: account!.id, expiresAt: new Date(Date.now() + 3_600_000) })
        .returning();
      return app.deps.tokens.sign({ userId: user!.id, sessionId: session!.id, clientId: client!.id });
    });
    tokens.push(token);
  }
  writeFileSync(process.env.TOKENS_FILE!, JSON.stringify(tokens));
}

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
