/** The session user state, profile, client users and invites. */
import {
  DEFAULT_ALLOWED_EXCHANGES,
  SECURITY_PREFERENCES,
  TEAM_MESSAGES,
  roleRuleError,
  type DisplayPreferences,
  type DisplayPreferencesUpdate,
  type Exchange,
  type Permission,
  type Role,
  type SessionUser,
} from '@dart/contracts';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { InviteCreateSchema, UpdateProfileSchema } from '@dart/contracts';
import { clients, invites, userAccountPermissions, userAccountRoles, userAccounts, users } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { appendEvent, publishAll } from '../../lib/events';
import { newOpaqueToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';

const INVITE_TTL_DAYS = 7;
const INVITE_ACCEPTED = 'This invitation was already accepted; deactivate the user instead.';

export function createUsersService(
  deps: AppDeps,
  useVerification: (
    tx: Parameters<Parameters<AppDeps['database']['db']['transaction']>[0]>[0],
    verification: string,
    identity: string,
    types: readonly string[],
  ) => Promise<boolean>,
) {
  const db = deps.database.db;

  async function sessionUser(principal: Principal): Promise<SessionUser> {
    const [[row], accounts] = await Promise.all([
      db
        .select({ user: users, client: clients })
        .from(users)
        .innerJoin(clients, eq(clients.id, principal.clientId))
        .where(eq(users.id, principal.userId)),
      db
        .select({
          id: userAccounts.id,
          clientId: userAccounts.clientId,
          status: userAccounts.status,
          isDefault: userAccounts.isDefault,
          clientName: clients.name,
        })
        .from(userAccounts)
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .where(eq(userAccounts.userId, principal.userId)),
    ]);
    if (!row) throw new AppError('UNAUTHENTICATED', 'Session has ended. Please sign in again.');
    const { user, client } = row;
    const prefs = user.securityPreferences ?? {};
    // The firm's exchanges are those it is allowed on AND holds the clearing corporation's credentials for
    // (NSCCL for NSE, ICCL for BSE; modules/credentials): the only-ICCL check and the exchange lists follow them.
    const credentialed = { NSE: client.nscclCredentialsRef !== null, BSE: client.icclCredentialsRef !== null };
    const exchanges = ((client.allowedExchanges.length ? client.allowedExchanges : DEFAULT_ALLOWED_EXCHANGES) as Exchange[]).filter(
      (exchange) => credentialed[exchange],
    );
    return {
      name: client.name,
      user_info: {
        first_name: user.firstName,
        last_name: user.lastName,
        email: user.email,
        mobile: user.mobile,
        roles: principal.roles,
        unique_id: user.uniqueId,
        id: user.id,
        single_screen_waitlist_joined: user.singleScreenWaitlistJoined,
        has_accepted_chat_terms: user.hasAcceptedChatTerms,
        user_security_preferences: Object.keys(SECURITY_PREFERENCES).map((key) => ({ key, enabled: prefs[key] === true })),
        // Notifications are built in (no SuprSend); the subscriber id is the user's own id.
        suprsend_subscriber_id: user.id,
      },
      user_accounts: accounts.map((a) => ({
        id: a.id,
        client_id: a.clientId,
        client_name: a.clientName,
        status: a.status as 'active',
        is_default: a.isDefault,
      })),
      permissions: principal.permissions,
      client_id: client.id,
      client_type: client.clientType as SessionUser['client_type'],
      client_tier: client.tier as SessionUser['client_tier'],
      allowed_exchanges: exchanges,
      allowed_reporting_exchanges: client.allowedReportingExchanges as Exchange[],
      nsccl_credentials: client.nscclCredentialsRef !== null,
      iccl_credentials: client.icclCredentialsRef !== null,
      nsccl_name: client.nsccl_name,
      iccl_name: client.iccl_name,
      is_broker: client.isBroker,
      has_brokers: client.hasBrokers,
      trades_on_books: client.tradesOnBooks,
      rfq_exchanges: client.rfqExchanges as Exchange[],
      stp_exchanges: client.stpExchanges as Exchange[],
    };
  }

  return {
    sessionUser,

    async updateProfile(principal: Principal, input: z.output<typeof UpdateProfileSchema>, ctx: AuditContext): Promise<SessionUser> {
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(users).where(eq(users.id, principal.userId)).for('update');
        if (!before) throw new AppError('NOT_FOUND', 'User not found.');
        const changes: Partial<typeof users.$inferInsert> = {};
        if (input.first_name !== undefined) changes.firstName = input.first_name;
        if (input.last_name !== undefined) changes.lastName = input.last_name;
        if (input.mobile !== undefined && input.mobile !== before.mobile) {
          // Changing the mobile is a sensitive change: it needs a fresh update_profile OTP on the new number.
          if (!input.verification || !(await useVerification(tx, input.verification, input.mobile, ['update_profile'])))
            throw new AppError('VALIDATION_FAILED', 'Please verify your new mobile number.', {
              mobile: ['Please verify your new mobile number.'],
            });
          const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.mobile, input.mobile));
          if (taken)
            throw new AppError('VALIDATION_FAILED', 'A user with this mobile number already exists.', {
              mobile: ['A user with this mobile number already exists.'],
            });
          changes.mobile = input.mobile;
        }
        if (Object.keys(changes).length === 0) return;
        await tx
          .update(users)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(eq(users.id, principal.userId));
        await writeAudit(tx, ctx, {
          action: 'user.profile_updated',
          entity: 'user',
          entityId: principal.userId,
          before: { first_name: before.firstName, last_name: before.lastName, mobile: before.mobile },
          after: {
            first_name: changes.firstName ?? before.firstName,
            last_name: changes.lastName ?? before.lastName,
            mobile: changes.mobile ?? before.mobile,
          },
        });
      });
      return sessionUser(principal);
    },

    async setSecurityPreference(principal: Principal, key: string, enabled: boolean, ctx: AuditContext): Promise<SessionUser> {
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ prefs: users.securityPreferences })
          .from(users)
          .where(eq(users.id, principal.userId))
          .for('update');
        const prefs = { ...before?.prefs, [key]: enabled };
        await tx
          .update(users)
          .set({ securityPreferences: prefs, updatedAt: sql`now()` })
          .where(eq(users.id, principal.userId));
        await writeAudit(tx, ctx, {
          action: 'user.security_preference_changed',
          entity: 'user',
          entityId: principal.userId,
          before: before?.prefs ?? {},
          after: prefs,
        });
      });
      return sessionUser(principal);
    },

    /** The caller's own display preferences (issue 12): date format and toast sounds. */
    async displayPreferences(principal: Principal): Promise<DisplayPreferences> {
      const [row] = await db
        .select({ date_format: users.dateFormat, sounds_enabled: users.soundsEnabled })
        .from(users)
        .where(eq(users.id, principal.userId));
      if (!row) throw new AppError('UNAUTHENTICATED', 'Session has ended. Please sign in again.');
      return row;
    },

    /** Changes the caller's own display preferences; any role may (they change only the user's own screen). */
    async updateDisplayPreferences(principal: Principal, input: DisplayPreferencesUpdate, ctx: AuditContext): Promise<DisplayPreferences> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ date_format: users.dateFormat, sounds_enabled: users.soundsEnabled })
          .from(users)
          .where(eq(users.id, principal.userId))
          .for('update');
        if (!before) throw new AppError('UNAUTHENTICATED', 'Session has ended. Please sign in again.');
        const after: DisplayPreferences = {
          date_format: input.date_format ?? before.date_format,
          sounds_enabled: input.sounds_enabled ?? before.sounds_enabled,
        };
        if (after.date_format === before.date_format && after.sounds_enabled === before.sounds_enabled) return after;
        await tx
          .update(users)
          .set({ dateFormat: after.date_format, soundsEnabled: after.sounds_enabled, updatedAt: sql`now()` })
          .where(eq(users.id, principal.userId));
        await writeAudit(tx, ctx, {
          action: 'user.display_preferences_changed',
          entity: 'user',
          entityId: principal.userId,
          before,
          after,
        });
        return after;
      });
    },

    /** Users of the caller's own client only (tenant predicate is mandatory). */
    async listClientUsers(principal: Principal) {
      const rows = await db
        .select({
          accountId: userAccounts.id,
          id: users.id,
          first_name: users.firstName,
          last_name: users.lastName,
          email: users.email,
          status: userAccounts.status,
        })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .where(eq(userAccounts.clientId, principal.clientId))
        .orderBy(users.email);
      const ids = rows.map((r) => r.accountId);
      const roleRows = ids.length ? await db.select().from(userAccountRoles).where(inArray(userAccountRoles.userAccountId, ids)) : [];
      const permRows = ids.length
        ? await db.select().from(userAccountPermissions).where(inArray(userAccountPermissions.userAccountId, ids))
        : [];
      const results = rows.map(({ accountId, ...r }) => ({
        ...r,
        roles: roleRows.filter((x) => x.userAccountId === accountId).map((x) => x.role as Role),
        permissions: permRows.filter((x) => x.userAccountId === accountId).map((x) => x.permission as Permission),
      }));
      return { results, count: results.length };
    },

    /** Open (unaccepted, unexpired) invites of the caller's client. */
    async pendingInvites(principal: Principal) {
      const rows = await db
        .select()
        .from(invites)
        .where(
          and(
            eq(invites.clientId, principal.clientId),
            isNull(invites.acceptedAt),
            isNull(invites.revokedAt),
            gt(invites.expiresAt, deps.now()),
          ),
        )
        .orderBy(desc(invites.createdAt));
      return {
        results: rows.map((r) => ({
          id: r.id,
          email: r.email,
          roles: r.roles as Role[],
          expires_at: r.expiresAt.toISOString(),
          created_at: r.createdAt.toISOString(),
        })),
      };
    },

    /** `webOrigin` is the site the ops admin is on; the e-mailed link is absolute on it. */
    async createInvite(principal: Principal, input: z.output<typeof InviteCreateSchema>, ctx: AuditContext, webOrigin: string) {
      const token = newOpaqueToken();
      const expiresAt = new Date(deps.now().getTime() + INVITE_TTL_DAYS * 86_400_000);
      const [client] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, principal.clientId));
      // The spec's role rules (application §6) hold for an invitee's roles as for a member's (modules/team).
      const roleError = roleRuleError(input.roles);
      if (roleError) throw new AppError('VALIDATION_FAILED', roleError, { roles: [roleError] });
      const invite = await db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
        if (existing)
          throw new AppError('VALIDATION_FAILED', 'A user with this email already exists.', {
            email: ['A user with this email already exists.'],
          });
        const [row] = await tx
          .insert(invites)
          .values({
            clientId: principal.clientId,
            email: input.email,
            roles: input.roles,
            permissions: input.permissions,
            tokenHash: sha256(token),
            invitedBy: principal.userId,
            expiresAt,
          })
          .returning();
        await writeAudit(tx, ctx, {
          action: 'invite.created',
          entity: 'invite',
          entityId: row!.id,
          after: { email: input.email, roles: input.roles, permissions: input.permissions },
        });
        const event = await appendEvent(tx, {
          topic: 'client.invite_created',
          clientId: principal.clientId,
          payload: { id: row!.id, email: input.email },
        });
        // Under an Idempotency-Key: applied with the invite, so a retry after a lost answer never invites twice.
        await fenceIdempotency(tx);
        return { ...row!, event };
      });
      await publishAll(deps.bus, [invite.event]);
      await deps.mailer.send({
        to: input.email,
        subject: `You are invited to ${client?.name ?? 'a client'} on ${deps.config.productName}`,
        text: `You have been invited to join ${client?.name ?? 'a client'} on ${deps.config.productName}. Register here within ${INVITE_TTL_DAYS} days: ${new URL(`/client/register?invite=${encodeURIComponent(token)}`, webOrigin).toString()}`,
      });
      return {
        id: invite.id,
        email: invite.email,
        roles: invite.roles as Role[],
        client_name: client?.name ?? '',
        expires_at: invite.expiresAt.toISOString(),
        token,
      };
    },

    /**
     * `POST api/client/user/invite/revoke/`: the invite of the caller's client stops working at once (its expiry is
     * set to now, so registration and validation refuse it as they refuse an expired one). Revoking a revoked invite
     * answers as the first time and writes nothing; an accepted one cannot be revoked (the user exists: deactivate).
     */
    async revokeInvite(principal: Principal, inviteId: string, ctx: AuditContext) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(invites)
          .where(and(eq(invites.id, inviteId), eq(invites.clientId, principal.clientId)))
          .for('update');
        if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.inviteNotFound);
        if (row.acceptedAt) throw new AppError('CONFLICT', INVITE_ACCEPTED);
        if (row.revokedAt) return { id: row.id, email: row.email, revoked_at: row.revokedAt.toISOString() };
        const revokedAt = deps.now();
        await tx.update(invites).set({ revokedAt, revokedBy: principal.userId, expiresAt: revokedAt }).where(eq(invites.id, row.id));
        await writeAudit(tx, ctx, {
          action: 'invite.revoked',
          entity: 'invite',
          entityId: row.id,
          before: { email: row.email, expires_at: row.expiresAt.toISOString() },
          after: { email: row.email, revoked_at: revokedAt.toISOString() },
        });
        await fenceIdempotency(tx);
        return { id: row.id, email: row.email, revoked_at: revokedAt.toISOString() };
      });
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
