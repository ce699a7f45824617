/** SQL of exchange credentials (README). Every function takes the database or the caller's transaction. */
import type { CredentialCorp } from '@dart/contracts';
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { clients, exchangeCredentials, users } from '../../db/schema';

export type CredentialRow = typeof exchangeCredentials.$inferSelect;
export type CredentialWrite = Omit<typeof exchangeCredentials.$inferInsert, 'id' | 'createdAt'>;

/**
 * SQL: whether the firm holds credentials for the clearing corporation `corp` (a value or an expression, e.g. a
 * ticket's column): its `*_credentials_ref` is set (README "Who holds credentials"); false for an unknown firm. The
 * one statement of the rule, for `hasCredentials` and for a statement that reads it beside other rows.
 */
export const credentialsHeldSql = (clientId: SQL | Placeholder | string, corp: SQL | CredentialCorp): SQL<boolean> =>
  sql<boolean>`coalesce((SELECT CASE WHEN ${corp} = 'NSCCL' THEN ${clients.nscclCredentialsRef} IS NOT NULL
    ELSE ${clients.icclCredentialsRef} IS NOT NULL END FROM ${clients} WHERE ${clients.id} = ${clientId}), false)`;

export function createCredentialsRepository(db: DbOrTx) {
  return {
    /** The firm's records (at most one per corp). */
    async forClient(clientId: string): Promise<CredentialRow[]> {
      return db.select().from(exchangeCredentials).where(eq(exchangeCredentials.clientId, clientId));
    },

    /** The firm's record for one corp, locked for the caller's transaction. */
    async lockOne(clientId: string, corp: CredentialCorp): Promise<CredentialRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeCredentials)
        .where(and(eq(exchangeCredentials.clientId, clientId), eq(exchangeCredentials.corp, corp)))
        .for('update');
      return row;
    },

    /** Inserts or replaces the firm's record for the corp (one per firm and corp). */
    async upsert(values: CredentialWrite): Promise<CredentialRow> {
      const { clientId: _clientId, corp: _corp, ...changes } = values;
      const [row] = await db
        .insert(exchangeCredentials)
        .values(values)
        .onConflictDoUpdate({ target: [exchangeCredentials.clientId, exchangeCredentials.corp], set: changes })
        .returning();
      return row!;
    },

    /** Points the firm's session fields (`*_credentials_ref`, `nsccl_name` / `iccl_name`) at the record. */
    async linkToClient(clientId: string, corp: CredentialCorp, credentialId: string, participantName: string): Promise<void> {
      await db
        .update(clients)
        .set(
          corp === 'NSCCL'
            ? { nscclCredentialsRef: credentialId, nsccl_name: participantName }
            : { icclCredentialsRef: credentialId, iccl_name: participantName },
        )
        .where(eq(clients.id, clientId));
    },

    async clientName(clientId: string): Promise<string | undefined> {
      const [row] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, clientId));
      return row?.name;
    },

    async userName(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
        .from(users)
        .where(eq(users.id, userId));
      return row?.name;
    },

    /** Whether the firm holds credentials for the corp: its `*_credentials_ref` is set (README "Who holds credentials"). */
    async hasCredentials(clientId: string, corp: CredentialCorp): Promise<boolean> {
      const [row] = await sqlRows<{ held: boolean }>(db, sql`SELECT ${credentialsHeldSql(clientId, corp)} AS held`);
      return row?.held === true;
    },
  };
}
