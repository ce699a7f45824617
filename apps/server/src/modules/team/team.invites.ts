/**
 * Resending an invite (`POST api/client/user/invite/resend/`, issue 15 §1 "/manage-users: … resend"). The spec names
 * no call for it; ours. Invites themselves live in the users module; this only renews a pending one of the caller's
 * firm. Only the token's hash is stored, so the first link cannot be sent again: a resend issues a new token, moves
 * the expiry to seven days from now, and e-mails the new link. The old link stops working (its hash is replaced).
 */
import { TEAM_MESSAGES, type Role } from '@dart/contracts';
import { and, eq } from 'drizzle-orm';
import { clients, invites } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { newOpaqueToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';

/** As long as a new invite lasts (users module, `INVITE_TTL_DAYS`). */
const INVITE_TTL_DAYS = 7;

export const INVITE_RESEND_MESSAGES = {
  accepted: 'This invitation was already accepted.',
  revoked: 'This invitation was revoked; send a new one.',
} as const;

export function createInviteResender(deps: AppDeps) {
  const db = deps.database.db;

  /** `webOrigin` is the site the ops admin is on; the e-mailed link is absolute on it (as for a new invite). */
  async function resendInvite(principal: Principal, inviteId: string, ctx: AuditContext, webOrigin: string) {
    const token = newOpaqueToken();
    const expiresAt = new Date(deps.now().getTime() + INVITE_TTL_DAYS * 86_400_000);
    const result = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(invites)
        .where(and(eq(invites.id, inviteId), eq(invites.clientId, principal.clientId)))
        .for('update');
      if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.inviteNotFound);
      if (row.acceptedAt) throw new AppError('CONFLICT', INVITE_RESEND_MESSAGES.accepted);
      if (row.revokedAt) throw new AppError('CONFLICT', INVITE_RESEND_MESSAGES.revoked);
      await tx
        .update(invites)
        .set({ tokenHash: sha256(token), expiresAt })
        .where(eq(invites.id, row.id));
      const [client] = await tx.select({ name: clients.name }).from(clients).where(eq(clients.id, principal.clientId));
      await writeAudit(tx, ctx, {
        action: 'invite.resent',
        entity: 'invite',
        entityId: row.id,
        before: { email: row.email, expires_at: row.expiresAt.toISOString() },
        after: { email: row.email, expires_at: expiresAt.toISOString() },
      });
      // Under an Idempotency-Key: a retry after a lost answer replays it and sends no second e-mail.
      await fenceIdempotency(tx);
      return { row, clientName: client?.name ?? '' };
    });
    const link = new URL(`/client/register?invite=${encodeURIComponent(token)}`, webOrigin).toString();
    await deps.mailer.send({
      to: result.row.email,
      subject: `You are invited to ${result.clientName || 'a client'} on ${deps.config.productName}`,
      text: `You have been invited to join ${result.clientName || 'a client'} on ${deps.config.productName}. Register here within ${INVITE_TTL_DAYS} days: ${link}`,
    });
    return {
      id: result.row.id,
      email: result.row.email,
      roles: result.row.roles as Role[],
      client_name: result.clientName,
      expires_at: expiresAt.toISOString(),
      token,
    };
  }

  return { resendInvite };
}
export type InviteResender = ReturnType<typeof createInviteResender>;
