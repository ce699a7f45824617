/**
 * One app node for the chat benchmark, on loopback. DATABASE_URL / REDIS_URL come from the parent
 * (a throwaway database it created); without DATABASE_URL the node runs on in-memory PGlite. With
 * SEED_USERS=n and SEED_CHANNELS=m it adds n users (chat terms accepted, one chat session token each)
 * and m group channels of n/m joined members, and writes `{ users: [{ id, token }], channels: [{ url,
 * members }] }` to SEED_FILE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  chatChannels,
  chatMembers,
  chatSessions,
  userAccountPermissions,
  userAccountRoles,
  userAccounts,
  users,
} from '../../apps/server/src/db/schema';
import { buildBenchApp, serveBenchApp, templateDealer } from '../lib/bench-node';

const app = await buildBenchApp('chat');
const db = app.deps.database.db;

const seedUsers = Number(process.env.SEED_USERS ?? 0);
const seedChannels = Number(process.env.SEED_CHANNELS ?? 0);
if (seedUsers > 0) {
  const { clientId, roles } = await templateDealer(app);
  const seeded: Array<{ id: string; token: string }> = [];
  const channels: Array<{ url: string; members: number[] }> = [];
  await db.transaction(async (tx) => {
    const BATCH = 200;
    for (let start = 0; start < seedUsers; start += BATCH) {
      const rows = await tx
        .insert(users)
        .values(
          Array.from({ length: Math.min(BATCH, seedUsers - start) }, (_, k) => ({
            uniqueId: `CHATBENCH${start + k}`,
            email: `chat${start + k}@bench.dart`,
            firstName: 'Chat',
            lastName: `User ${start + k}`,
            hasAcceptedChatTerms: true,
          })),
        )
        .returning({ id: users.id });
      const accounts = await tx
        .insert(userAccounts)
        .values(rows.map((u) => ({ userId: u.id, clientId: clientId })))
        .returning({ id: userAccounts.id });
      await tx.insert(userAccountRoles).values(accounts.flatMap((a) => roles.map((r) => ({ userAccountId: a.id, role: r.role }))));
      await tx
        .insert(userAccountPermissions)
        .values(accounts.map((a) => ({ userAccountId: a.id, permission: 'client.can_trade' as const })));
      const tokens = rows.map(() => randomBytes(32).toString('base64url'));
      await tx.insert(chatSessions).values(
        rows.map((u, k) => ({
          userId: u.id,
          tokenHash: createHash('sha256').update(tokens[k]!).digest('hex'),
          expiresAt: new Date(Date.now() + 6 * 3_600_000),
        })),
      );
      rows.forEach((u, k) => seeded.push({ id: u.id, token: tokens[k]! }));
    }
    const perChannel = Math.floor(seedUsers / Math.max(1, seedChannels));
    for (let c = 0; c < seedChannels; c++) {
      const members = Array.from({ length: perChannel }, (_, k) => c * perChannel + k);
      const [channel] = await tx
        .insert(chatChannels)
        .values({ url: `bench_group_${c}`, customType: 'group', name: `Bench ${c}`, creatorId: seeded[members[0]!]!.id })
        .returning();
      await tx
        .insert(chatMembers)
        .values(
          members.map((m, k) => ({ channelId: channel!.id, userId: seeded[m]!.id, state: 'joined', role: k === 0 ? 'operator' : 'none' })),
        );
      channels.push({ url: channel!.url, members });
    }
  });
  writeFileSync(process.env.SEED_FILE!, JSON.stringify({ users: seeded, channels }));
}

await serveBenchApp(app);
