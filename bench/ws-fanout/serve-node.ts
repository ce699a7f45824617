/**
 * One app node for the fan-out benchmark, on loopback. DATABASE_URL / REDIS_URL come from the parent
 * (a throwaway database it created); without DATABASE_URL the node runs on in-memory PGlite. With
 * SEED_USERS=n it adds n trading users to "Second Bank" with a session each and writes their access
 * tokens (signed with the shared JWT_SECRET) to TOKENS_FILE.
 */
import { writeFileSync } from 'node:fs';
import { authSessions, userAccountPermissions, userAccountRoles, userAccounts, users } from '../../apps/server/src/db/schema';
import { buildBenchApp, serveBenchApp, templateDealer } from '../lib/bench-node';

const app = await buildBenchApp('fanout', { BOND_IMPORT: 'slice' });
const db = app.deps.database.db;

const seedUsers = Number(process.env.SEED_USERS ?? 0);
if (seedUsers > 0) {
  const { clientId, roles, permissions } = await templateDealer(app);
  const tokens: string[] = [];
  for (let i = 0; i < seedUsers; i++) {
    const token = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ uniqueId: `BENCH${i}`, email: `fanout${i}@bench.dart`, firstName: 'Fan', lastName: `Out ${i}` })
        .returning();
      const [account] = await tx.insert(userAccounts).values({ userId: user!.id, clientId }).returning();
      await tx.insert(userAccountRoles).values(roles.map((r) => ({ userAccountId: account!.id, role: r.role })));
      await tx.insert(userAccountPermissions).values(permissions.map((p) => ({ userAccountId: account!.id, permission: p.permission })));
      const [session] = await tx
        .insert(authSessions)
        .values({ userId: user!.id, userAccountId: account!.id, expiresAt: new Date(Date.now() + 3_600_000) })
        .returning();
      return app.deps.tokens.sign({ userId: user!.id, sessionId: session!.id, clientId });
    });
    tokens.push(token);
  }
  writeFileSync(process.env.TOKENS_FILE!, JSON.stringify(tokens));
}

await serveBenchApp(app);
