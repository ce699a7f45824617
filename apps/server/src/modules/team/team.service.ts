/**
 * The organisation and its team (issue 15 §1): the organisation profile (`GET api/client/`, `PUT api/client/{id}/`),
 * members' roles, permissions and status (`PUT api/client/user/`, with the spec's role rules and the
 * last-ops-admin rule), and counterparties recorded offline (`POST api/client/register-user/lite`). Every write is
 * one transaction with its audit row; the caller's client id is the tenant of every query.
 */
import {
  TEAM_MESSAGES,
  isClientOpsAdmin,
  type Address,
  type ClientProfile,
  type ClientProfileUpdate,
  type NetworkClient,
  type RegisterUserLite,
  type TeamUser,
  type UserRolesUpdate,
} from '@dart/contracts';
import { hasPgError } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { appendEvent, publishAll } from '../../lib/events';
import { AppError } from '../../lib/errors';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { createTeamRepository } from './team.repository';

/** What `clients.profile` (jsonb) holds: the profile fields that have no column of their own. */
interface StoredProfile {
  gst?: string | null;
  business_email?: string | null;
  registered_address?: Address | null;
  correspondence_address?: Address | null;
  bank_account?: { account_number: string; ifsc: string; bank_name: string | null } | null;
  demat?: { bo_id: string | null; dp_id: string | null; client_id: string | null } | null;
  settlement_cutoff_time?: string | null;
}

/** The last four digits only: account numbers are shown in full to ops admins and never written to the audit trail. */
const maskAccount = (accountNumber: string): string => `${'X'.repeat(Math.max(0, accountNumber.length - 4))}${accountNumber.slice(-4)}`;

const auditedProfile = (pan: string | null, website: string | null, profile: StoredProfile) => ({
  pan,
  website,
  ...profile,
  bank_account: profile.bank_account ? { ...profile.bank_account, account_number: maskAccount(profile.bank_account.account_number) } : null,
});

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export function createTeamService(deps: AppDeps) {
  const db = deps.database.db;
  const repo = createTeamRepository(db);

  async function profile(principal: Principal): Promise<ClientProfile> {
    const client = await repo.client(principal.clientId);
    if (!client) throw new AppError('NOT_FOUND', TEAM_MESSAGES.clientNotFound);
    const stored = client.profile as StoredProfile;
    const bank = stored.bank_account ?? null;
    return {
      id: client.id,
      name: client.name,
      client_type: client.clientType,
      client_tier: client.tier,
      segment: client.segment,
      is_broker: client.isBroker,
      pan: client.pan,
      gst: stored.gst ?? null,
      business_email: stored.business_email ?? null,
      website: client.website,
      registered_address: stored.registered_address ?? null,
      correspondence_address: stored.correspondence_address ?? null,
      bank_account: bank && (isClientOpsAdmin(principal) ? bank : { ...bank, account_number: maskAccount(bank.account_number) }),
      demat: stored.demat ?? null,
      settlement_cutoff_time: stored.settlement_cutoff_time ?? null,
    };
  }

  return {
    profile,

    /** `PUT api/client/{id}/`: the caller's own organisation only (any other id is "not found"). */
    async updateProfile(principal: Principal, clientId: string, input: ClientProfileUpdate, ctx: AuditContext): Promise<ClientProfile> {
      if (clientId !== principal.clientId) throw new AppError('NOT_FOUND', TEAM_MESSAGES.clientNotFound);
      const websiteTaken = () => new AppError('VALIDATION_FAILED', TEAM_MESSAGES.websiteTaken, { website: [TEAM_MESSAGES.websiteTaken] });
      try {
        await db.transaction(async (tx) => {
          const before = await repo.client(clientId, tx, true);
          if (!before) throw new AppError('NOT_FOUND', TEAM_MESSAGES.clientNotFound);
          if (input.website) {
            const owner = await repo.clientByWebsite(input.website, tx);
            if (owner && owner.id !== clientId) throw websiteTaken();
          }
          const { pan, website, ...rest } = input;
          const stored: StoredProfile = rest;
          await repo.updateClientProfile(tx, clientId, { pan, website, profile: stored as Record<string, unknown> });
          await writeAudit(tx, ctx, {
            action: 'client.profile_updated',
            entity: 'client',
            entityId: clientId,
            before: auditedProfile(before.pan, before.website, before.profile as StoredProfile),
            after: auditedProfile(pan, website, stored),
          });
          await fenceIdempotency(tx);
        });
      } catch (error) {
        // Two firms claiming one website at once: the unique index decides, and the loser hears why.
        if (hasPgError(error, '23505')) throw websiteTaken();
        throw error;
      }
      return profile(principal);
    },

    /**
     * `PUT api/client/user/`: a member's roles (the spec's rules are in the schema), permissions and status. The firm
     * keeps at least one active ops admin. The member's sessions see the change within a second on every node and
     * their open sockets close (RELIABILITY #9).
     */
    async updateUser(principal: Principal, input: UserRolesUpdate, ctx: AuditContext): Promise<TeamUser> {
      const outcome = await db.transaction(async (tx) => {
        await repo.lockAccounts(tx, principal.clientId);
        const [member] = await repo.members(principal.clientId, { userId: input.user_id }, tx);
        if (!member) throw new AppError('NOT_FOUND', TEAM_MESSAGES.userNotFound);
        const status = input.status ?? (member.status as 'active' | 'inactive');
        const permissions = input.permissions ?? member.permissions;
        const rolesChanged = !sameSet(member.roles, input.roles) || !sameSet(member.permissions, permissions);
        const statusChanged = status !== member.status;
        if (!rolesChanged && !statusChanged) return { member, event: null };
        const wasOpsAdmin = member.status === 'active' && member.roles.includes('clientopsadmin');
        const staysOpsAdmin = status === 'active' && input.roles.includes('clientopsadmin');
        if (wasOpsAdmin && !staysOpsAdmin && (await repo.activeOpsAdmins(tx, principal.clientId)).length <= 1) {
          const field = input.roles.includes('clientopsadmin') ? 'status' : 'roles';
          throw new AppError('VALIDATION_FAILED', TEAM_MESSAGES.lastOpsAdmin, { [field]: [TEAM_MESSAGES.lastOpsAdmin] });
        }
        if (rolesChanged) {
          await repo.replaceRoles(tx, member.user_account_id, input.roles);
          await repo.replacePermissions(tx, member.user_account_id, permissions);
          await writeAudit(tx, ctx, {
            action: 'user.roles_changed',
            entity: 'user',
            entityId: member.id,
            before: { roles: member.roles, permissions: member.permissions },
            after: { roles: input.roles, permissions },
          });
        }
        if (statusChanged) {
          await repo.setAccountStatus(tx, member.user_account_id, status);
          const change = { entity: 'user', entityId: member.id, before: { status: member.status }, after: { status } };
          if (status === 'inactive') await writeAudit(tx, ctx, { action: 'user.deactivated', ...change });
          else await writeAudit(tx, ctx, { action: 'user.reactivated', ...change });
        }
        const event = await appendEvent(tx, {
          topic: 'client.user_changed',
          clientId: principal.clientId,
          payload: { user_id: member.id, roles: input.roles, status },
        });
        await fenceIdempotency(tx);
        return { member: { ...member, roles: input.roles, permissions, status }, event };
      });
      if (outcome.event) {
        await publishAll(deps.bus, [outcome.event]);
        deps.principals.forgetUser(outcome.member.id);
        await deps.bus.publish({ topic: 'auth.user_changed', payload: { userId: outcome.member.id } }).catch(() => undefined);
      }
      return outcome.member as TeamUser;
    },

    /** `POST api/client/register-user/lite`: a counterparty not on the platform, recorded for the caller's firm only. */
    async registerLite(principal: Principal, input: RegisterUserLite, ctx: AuditContext): Promise<NetworkClient> {
      const name = input.corporate_identity?.name ?? `${input.identity.first_name} ${input.identity.last_name}`;
      return db.transaction(async (tx) => {
        const row = await repo.insertOfflineRecord(tx, {
          ownerClientId: principal.clientId,
          name,
          pan: input.pan,
          contactFirstName: input.identity.first_name,
          contactLastName: input.identity.last_name,
          contactEmail: input.contact.email,
          contactMobile: input.contact.mobile,
          createdBy: principal.userId,
        });
        if (!row)
          throw new AppError('VALIDATION_FAILED', TEAM_MESSAGES.offlineDuplicate, { 'contact.email': [TEAM_MESSAGES.offlineDuplicate] });
        await writeAudit(tx, ctx, {
          action: 'client.offline_recorded',
          entity: 'offline_client',
          entityId: row.id,
          after: { name, contact_email: row.contactEmail },
        });
        await fenceIdempotency(tx);
        return {
          client_id: row.id,
          name: row.name,
          is_broker: false,
          is_partner: false,
          offline_record: true,
          contact: {
            first_name: row.contactFirstName,
            last_name: row.contactLastName,
            email: row.contactEmail,
            mobile: row.contactMobile,
          },
        };
      });
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;
