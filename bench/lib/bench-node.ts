/**
 * What every benchmark app node shares: the app built on loopback from the parent's DATABASE_URL /
 * REDIS_URL (in-memory PGlite without DATABASE_URL), no rate limits, the demo seed; the roles of the
 * Second Bank demo dealer as the template for seeded users; and the READY line the harness waits for.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openPglite } from '../../apps/server/src/db/client';
import { userAccountPermissions, userAccountRoles, userAccounts, users } from '../../apps/server/src/db/schema';

export async function buildBenchApp(name: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_SEED: '1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), `dart-bench-${name}-`)),
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...env,
  });
  return buildApp({ config, ...(config.databaseUrl ? {} : { database: await openPglite('memory://') }) });
}

/** The Second Bank demo dealer's account, roles and permissions: what seeded bench users copy. */
export async function templateDealer(app: FastifyInstance) {
  const db = app.deps.database.db;
  const [template] = await db
    .select({ accountId: userAccounts.id, clientId: userAccounts.clientId })
    .from(users)
    .innerJoin(userAccounts, eq(userAccounts.userId, users.id))
    .where(eq(users.email, 'dealer@second.dart'));
  if (!template) throw new Error('demo dealer of Second Bank missing');
  const roles = await db.select().from(userAccountRoles).where(eq(userAccountRoles.userAccountId, template.accountId));
  const permissions = await db.select().from(userAccountPermissions).where(eq(userAccountPermissions.userAccountId, template.accountId));
  return { ...template, roles, permissions };
}

/** Listens on an ephemeral loopback port, tells the harness (`READY <port>`), and stops on SIGTERM. */
export async function serveBenchApp(app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}
