/**
 * SQL of the network and team calls. Every query on a firm's own data takes the caller's client id (the tenant
 * predicate is mandatory); searches of other firms return names and codes only, never e-mail or PAN.
 */
import { and, asc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { clients, offlineClients, tickets, userAccountPermissions, userAccountRoles, userAccounts, users } from '../../db/schema';

/** `%term%` for ILIKE with the pattern characters escaped. */
export const likePattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const fullName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;
/** `clients.id` qualified: a one-table select renders its columns bare, and a correlated subquery needs the table. */
const CLIENT_ID = sql.raw('"clients"."id"');

export function createTeamRepository(db: DbOrTx) {
  /** Firms that share a ticket with `clientId` (as buyer, seller or either side's broker). */
  const partnerIds = (clientId: string) => sql`(
    SELECT DISTINCT CASE WHEN t.buyer_client_id = ${clientId} THEN t.seller_client_id ELSE t.buyer_client_id END
      FROM ${tickets} t
     WHERE t.buyer_client_id = ${clientId} OR t.seller_client_id = ${clientId}
    UNION
    SELECT DISTINCT b FROM ${tickets} t,
           LATERAL (VALUES (t.buyer_broker_client_id), (t.seller_broker_client_id)) AS v(b)
     WHERE (t.buyer_client_id = ${clientId} OR t.seller_client_id = ${clientId}) AND b IS NOT NULL
  )`;

  return {
    /** Members of one firm (all statuses) with their roles and permissions, optionally by name or e-mail. */
    async members(clientId: string, options: { search?: string; userId?: string } = {}, tx: DbOrTx = db) {
      const filters: SQL[] = [eq(userAccounts.clientId, clientId)];
      if (options.userId) filters.push(eq(users.id, options.userId));
      if (options.search) {
        const pattern = likePattern(options.search);
        filters.push(or(ilike(fullName, pattern), ilike(users.email, pattern))!);
      }
      const rows = await tx
        .select({
          user_account_id: userAccounts.id,
          id: users.id,
          first_name: users.firstName,
          last_name: users.lastName,
          email: users.email,
          status: userAccounts.status,
        })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .where(and(...filters))
        .orderBy(asc(users.email))
        .limit(200);
      const ids = rows.map((r) => r.user_account_id);
      const [roleRows, permissionRows] = ids.length
        ? await Promise.all([
            tx.select().from(userAccountRoles).where(inArray(userAccountRoles.userAccountId, ids)),
            tx.select().from(userAccountPermissions).where(inArray(userAccountPermissions.userAccountId, ids)),
          ])
        : [[], []];
      return rows.map((r) => ({
        ...r,
        roles: roleRows.filter((x) => x.userAccountId === r.user_account_id).map((x) => x.role),
        permissions: permissionRows.filter((x) => x.userAccountId === r.user_account_id).map((x) => x.permission),
      }));
    },

    /** Locks the firm's accounts (one role change at a time per firm: the last-ops-admin rule holds under races). */
    async lockAccounts(tx: DbOrTx, clientId: string): Promise<void> {
      await tx.select({ id: userAccounts.id }).from(userAccounts).where(eq(userAccounts.clientId, clientId)).for('update');
    },

    /** Active accounts of the firm holding the ops admin role. */
    async activeOpsAdmins(tx: DbOrTx, clientId: string): Promise<string[]> {
      const rows = await tx
        .select({ id: userAccounts.id })
        .from(userAccounts)
        .innerJoin(userAccountRoles, eq(userAccountRoles.userAccountId, userAccounts.id))
        .where(and(eq(userAccounts.clientId, clientId), eq(userAccounts.status, 'active'), eq(userAccountRoles.role, 'clientopsadmin')));
      return rows.map((r) => r.id);
    },

    async replaceRoles(tx: DbOrTx, accountId: string, roles: readonly string[]): Promise<void> {
      await tx.delete(userAccountRoles).where(eq(userAccountRoles.userAccountId, accountId));
      if (roles.length) await tx.insert(userAccountRoles).values(roles.map((role) => ({ userAccountId: accountId, role })));
    },

    async replacePermissions(tx: DbOrTx, accountId: string, permissions: readonly string[]): Promise<void> {
      await tx.delete(userAccountPermissions).where(eq(userAccountPermissions.userAccountId, accountId));
      if (permissions.length)
        await tx.insert(userAccountPermissions).values(permissions.map((permission) => ({ userAccountId: accountId, permission })));
    },

    async setAccountStatus(tx: DbOrTx, accountId: string, status: 'active' | 'inactive'): Promise<void> {
      await tx.update(userAccounts).set({ status }).where(eq(userAccounts.id, accountId));
    },

    async client(clientId: string, tx: DbOrTx = db, lock = false) {
      const query = tx.select().from(clients).where(eq(clients.id, clientId));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async updateClientProfile(
      tx: DbOrTx,
      clientId: string,
      values: { pan: string; website: string | null; profile: Record<string, unknown> },
    ) {
      await tx.update(clients).set(values).where(eq(clients.id, clientId));
    },

    async clientByWebsite(host: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ id: clients.id, name: clients.name, isBroker: clients.isBroker, website: clients.website })
        .from(clients)
        .where(eq(clients.website, host));
      return row;
    },

    /** Platform firms other than the caller's, by name, each with whether it is a partner of the caller. */
    async networkFirms(callerClientId: string, options: { search: string; partnersOnly?: boolean | undefined; limit: number }) {
      const partner = sql<boolean>`${CLIENT_ID} IN ${partnerIds(callerClientId)}`;
      const filters: SQL[] = [ne(clients.id, callerClientId)];
      if (options.search) filters.push(ilike(clients.name, likePattern(options.search)));
      if (options.partnersOnly === true) filters.push(partner);
      if (options.partnersOnly === false) filters.push(sql`NOT (${partner})`);
      return db
        .select({ id: clients.id, name: clients.name, isBroker: clients.isBroker, isPartner: partner })
        .from(clients)
        .where(and(...filters))
        .orderBy(asc(clients.name))
        .limit(options.limit);
    },

    /** The caller's firm's offline records, by firm or contact name or e-mail. */
    async offlineRecords(ownerClientId: string, options: { search: string; limit: number }) {
      const filters: SQL[] = [eq(offlineClients.ownerClientId, ownerClientId)];
      if (options.search) {
        const pattern = likePattern(options.search);
        filters.push(
          or(
            ilike(offlineClients.name, pattern),
            ilike(sql`${offlineClients.contactFirstName} || ' ' || ${offlineClients.contactLastName}`, pattern),
            ilike(offlineClients.contactEmail, pattern),
          )!,
        );
      }
      return db
        .select()
        .from(offlineClients)
        .where(and(...filters))
        .orderBy(asc(offlineClients.name))
        .limit(options.limit);
    },

    async insertOfflineRecord(tx: DbOrTx, values: typeof offlineClients.$inferInsert) {
      const [row] = await tx.insert(offlineClients).values(values).onConflictDoNothing().returning();
      return row;
    },

    /** Broker firms with how many active trading members each has. */
    async facilitators(search: string, limit: number) {
      const agents = sql<number>`(SELECT count(*)::int FROM ${userAccounts} a JOIN ${users} u ON u.id = a.user_id
                                   JOIN ${userAccountRoles} r ON r.user_account_id = a.id AND r.role = 'clientdealer'
                                  WHERE a.client_id = ${CLIENT_ID} AND a.status = 'active' AND u.is_active)`;
      const filters: SQL[] = [eq(clients.isBroker, true)];
      if (search) filters.push(ilike(clients.name, likePattern(search)));
      return db
        .select({ id: clients.id, name: clients.name, nscclName: clients.nsccl_name, icclName: clients.iccl_name, agents })
        .from(clients)
        .where(and(...filters))
        .orderBy(asc(clients.name))
        .limit(limit);
    },

    /** Active dealers of broker firms (the agents who work a trade for a client), by their or their firm's name. */
    async agents(search: string, limit: number) {
      const filters: SQL[] = [
        eq(clients.isBroker, true),
        eq(userAccounts.status, 'active'),
        eq(users.isActive, true),
        eq(userAccountRoles.role, 'clientdealer'),
      ];
      if (search) {
        const pattern = likePattern(search);
        filters.push(or(ilike(fullName, pattern), ilike(clients.name, pattern))!);
      }
      return db
        .select({ userId: users.id, userName: fullName, clientId: clients.id, clientName: clients.name })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .innerJoin(userAccountRoles, eq(userAccountRoles.userAccountId, userAccounts.id))
        .where(and(...filters))
        .orderBy(asc(clients.name), asc(fullName))
        .limit(limit);
    },
  };
}
export type TeamRepository = ReturnType<typeof createTeamRepository>;
