/** SQL of the auth module. Every function takes the transaction it runs in. */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  auditLog,
  authSessions,
  clients,
  invites,
  oneTimePasswords,
  passwordResets,
  refreshTokens,
  userAccountPermissions,
  userAccountRoles,
  userAccounts,
  users,
} from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export const findUserByEmail = async (tx: DbOrTx, email: string): Promise<UserRow | undefined> =>
  (await tx.select().from(users).where(eq(users.email, email)).limit(1))[0];
export const findUserByMobile = async (tx: DbOrTx, mobile: string): Promise<UserRow | undefined> =>
  (await tx.select().from(users).where(eq(users.mobile, mobile)).limit(1))[0];
export const findUserById = async (tx: DbOrTx, id: string): Promise<UserRow | undefined> =>
  (await tx.select().from(users).where(eq(users.id, id)).limit(1))[0];

/** The user's default active account (the one a sign-in opens). */
export async function findDefaultAccount(tx: DbOrTx, userId: string) {
  const rows = await tx
    .select({ id: userAccounts.id, clientId: userAccounts.clientId })
    .from(userAccounts)
    .where(and(eq(userAccounts.userId, userId), eq(userAccounts.status, 'active')))
    .orderBy(desc(userAccounts.isDefault), userAccounts.createdAt)
    .limit(1);
  return rows[0];
}

export async function createSession(tx: DbOrTx, values: typeof authSessions.$inferInsert) {
  const [row] = await tx.insert(authSessions).values(values).returning();
  return row!;
}

export async function insertRefreshToken(tx: DbOrTx, sessionId: string, tokenHash: string): Promise<void> {
  await tx.insert(refreshTokens).values({ sessionId, tokenHash });
}

export async function findRefreshToken(tx: DbOrTx, tokenHash: string) {
  const rows = await tx
    .select({ token: refreshTokens, session: authSessions })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return rows[0];
}

/** Marks a refresh token used; false when another request used it first (exactly one wins). */
export async function markRefreshTokenUsed(tx: DbOrTx, id: string): Promise<boolean> {
  const rows = await tx
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function touchSession(tx: DbOrTx, sessionId: string): Promise<void> {
  await tx
    .update(authSessions)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(authSessions.id, sessionId));
}

export async function revokeSession(tx: DbOrTx, sessionId: string, reason: string): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}

export async function revokeUserSessions(tx: DbOrTx, userId: string, reason: string): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
}

/** OTPs sent to an identity or from an IP since `since`: how many, and when the oldest was sent. */
export async function recentOtpSends(
  tx: DbOrTx,
  column: 'identity' | 'ip',
  value: string,
  since: Date,
): Promise<{ count: number; oldest: Date | undefined }> {
  const target = column === 'identity' ? oneTimePasswords.identity : oneTimePasswords.ip;
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | Date | null>`min(${oneTimePasswords.createdAt})` })
    .from(oneTimePasswords)
    .where(and(eq(target, value), gt(oneTimePasswords.createdAt, since)));
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ? new Date(row.oldest) : undefined };
}

/** A new challenge replaces older open ones for the same identity and purpose. */
export async function invalidateOpenOtps(tx: DbOrTx, identity: string, requestType: string): Promise<void> {
  await tx
    .update(oneTimePasswords)
    .set({ invalidatedAt: sql`now()` })
    .where(
      and(
        eq(oneTimePasswords.identity, identity),
        eq(oneTimePasswords.requestType, requestType),
        isNull(oneTimePasswords.consumedAt),
        isNull(oneTimePasswords.invalidatedAt),
      ),
    );
}

export async function insertOtp(tx: DbOrTx, values: typeof oneTimePasswords.$inferInsert) {
  const [row] = await tx.insert(oneTimePasswords).values(values).returning({ id: oneTimePasswords.id });
  return row!;
}

/** The open challenge for an identity and purpose, locked for update. */
export async function findOpenOtp(tx: DbOrTx, identity: string, requestType: string) {
  const rows = await tx
    .select()
    .from(oneTimePasswords)
    .where(
      and(
        eq(oneTimePasswords.identity, identity),
        eq(oneTimePasswords.requestType, requestType),
        isNull(oneTimePasswords.consumedAt),
        isNull(oneTimePasswords.invalidatedAt),
      ),
    )
    .orderBy(desc(oneTimePasswords.createdAt))
    .limit(1)
    .for('update');
  return rows[0];
}

export async function updateOtp(tx: DbOrTx, id: string, values: Partial<typeof oneTimePasswords.$inferInsert>): Promise<void> {
  await tx.update(oneTimePasswords).set(values).where(eq(oneTimePasswords.id, id));
}

export async function findVerification(tx: DbOrTx, verificationHash: string) {
  const rows = await tx
    .select()
    .from(oneTimePasswords)
    .where(eq(oneTimePasswords.verificationHash, verificationHash))
    .limit(1)
    .for('update');
  return rows[0];
}

export async function insertPasswordReset(tx: DbOrTx, values: typeof passwordResets.$inferInsert): Promise<void> {
  await tx.insert(passwordResets).values(values);
}

export async function findPasswordReset(tx: DbOrTx, userId: string, tokenHash: string) {
  const rows = await tx
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), eq(passwordResets.tokenHash, tokenHash)))
    .limit(1)
    .for('update');
  return rows[0];
}

export async function markPasswordResetUsed(tx: DbOrTx, id: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(eq(passwordResets.id, id));
}

export async function setPassword(tx: DbOrTx, userId: string, passwordHash: string): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

export async function countRecentLoginFailures(tx: DbOrTx, email: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.entityId, email), gt(auditLog.at, since)));
  return row?.n ?? 0;
}

export async function findInviteByHash(tx: DbOrTx, tokenHash: string) {
  const rows = await tx
    .select({ invite: invites, clientName: clients.name })
    .from(invites)
    .innerJoin(clients, eq(clients.id, invites.clientId))
    .where(eq(invites.tokenHash, tokenHash))
    .limit(1);
  return rows[0];
}

export async function markInviteAccepted(tx: DbOrTx, id: string): Promise<void> {
  await tx
    .update(invites)
    .set({ acceptedAt: sql`now()` })
    .where(eq(invites.id, id));
}

export async function insertClient(tx: DbOrTx, values: typeof clients.$inferInsert) {
  const [row] = await tx.insert(clients).values(values).returning();
  return row!;
}

export async function insertUser(tx: DbOrTx, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning();
  return row!;
}

/** Creates the membership with its roles and permissions. */
export async function insertAccount(
  tx: DbOrTx,
  userId: string,
  clientId: string,
  roles: readonly string[],
  perms: readonly string[],
  status = 'active',
) {
  const [account] = await tx.insert(userAccounts).values({ userId, clientId, status }).returning();
  if (roles.length) await tx.insert(userAccountRoles).values(roles.map((role) => ({ userAccountId: account!.id, role })));
  if (perms.length) await tx.insert(userAccountPermissions).values(perms.map((permission) => ({ userAccountId: account!.id, permission })));
  return account!;
}
