/**
 * Sign-in, sessions, OTP, registration and password reset. No Fastify types here: routes pass the
 * parsed body and an AuditContext; errors are AppErrors with the spec's messages.
 */
import {
  OTP,
  LOGIN_THROTTLE,
  REFRESH_TOKEN_ABSOLUTE_SECONDS,
  REFRESH_TOKEN_IDLE_SECONDS,
  type OtpRequestType,
  type Permission,
  type Role,
  type TokenResponse,
} from '@dart/contracts';
import type { z } from 'zod';
import type { ChangePasswordSchema, OtpLoginSchema, RegistrationSchema, RequestOtpSchema, ValidateOtpSchema } from '@dart/contracts';
import type { DbOrTx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { digestEquals, hashPassword, newOpaqueToken, newOtpCode, sha256, verifyPassword } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import * as repo from './auth.repository';

export const MESSAGES = {
  invalidCredentials: 'Unable to log in with provided credentials.',
  invalidOtp: 'Invalid or expired OTP.',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  otpSent: 'If the details are registered, an OTP has been sent.',
  resetSent: 'If an account exists for this e-mail, we have sent a password reset link.',
  resetInvalid: 'The password reset link is invalid or has expired.',
  passwordChanged: 'Your password has been changed. Please sign in.',
  sessionEnded: 'Session has ended. Please sign in again.',
  emailTaken: 'A user with this email already exists.',
  mobileTaken: 'A user with this mobile number already exists.',
  verificationInvalid: 'Please verify your email address.',
  inviteInvalid: 'Invitation URL invalid',
} as const;

/** Roles and permissions of the first user of a newly registered client (documented choice). */
export const NEW_CLIENT_ROLES: Role[] = ['clientopsadmin', 'clientdealer'];
export const NEW_CLIENT_PERMISSIONS: Permission[] = [
  'finstruments.has_security_data_access',
  'client.view_client',
  'inventory.has_inventory_access',
];

const VERIFICATION_TTL_SECONDS = 15 * 60;
const RESET_TTL_SECONDS = 60 * 60;
export const OTP_MAX_SENDS_PER_IP = 30;

export function createAuthService(deps: AppDeps) {
  const { database, tokens, mailer, sms, now } = deps;
  const db = database.db;
  const seconds = (n: number) => new Date(now().getTime() + n * 1000);

  async function issueTokens(tx: DbOrTx, userId: string, accountId: string, clientId: string, ctx: AuditContext): Promise<TokenResponse> {
    const session = await repo.createSession(tx, {
      userId,
      userAccountId: accountId,
      expiresAt: seconds(REFRESH_TOKEN_ABSOLUTE_SECONDS),
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent ?? null,
    });
    const refresh = newOpaqueToken();
    await repo.insertRefreshToken(tx, session.id, sha256(refresh));
    const access = await tokens.sign({ userId, sessionId: session.id, clientId });
    return { access, refresh, access_expires_in: tokens.ttlSeconds };
  }

  async function openSessionFor(tx: DbOrTx, user: repo.UserRow, ctx: AuditContext, method: string): Promise<TokenResponse> {
    const account = await repo.findDefaultAccount(tx, user.id);
    if (!account || !user.isActive) throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
    const result = await issueTokens(tx, user.id, account.id, account.clientId, ctx);
    await writeAudit(
      tx,
      { ...ctx, actorUserId: user.id, actorClientId: account.clientId, actorEmail: user.email },
      {
        action: 'auth.login',
        entity: 'user',
        entityId: user.id,
        after: { method },
      },
    );
    return result;
  }

  async function recordLoginFailure(email: string, ctx: AuditContext, reason: string): Promise<void> {
    await db.transaction(async (tx) => {
      await writeAudit(tx, ctx, { action: 'auth.login_failed', entity: 'user', entityId: email, after: { reason } });
    });
  }

  return {
    /** Password sign-in. Unknown users and wrong passwords answer identically (no enumeration). */
    async login(email: string, password: string, ctx: AuditContext): Promise<TokenResponse> {
      const failures = await repo.countRecentLoginFailures(db, email, seconds(-LOGIN_THROTTLE.windowSeconds));
      if (failures >= LOGIN_THROTTLE.maxFailuresPerWindow) {
        await recordLoginFailure(email, ctx, 'throttled');
        throw new AppError('RATE_LIMITED', MESSAGES.tooManyAttempts, undefined, { 'retry-after': String(LOGIN_THROTTLE.windowSeconds) });
      }
      const user = await repo.findUserByEmail(db, email);
      const ok = await verifyPassword(password, user?.passwordHash ?? null);
      if (!user || !ok || !user.isActive) {
        await recordLoginFailure(email, ctx, user ? 'bad_password' : 'unknown_user');
        throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials);
      }
      return db.transaction((tx) => openSessionFor(tx, user, ctx, 'password'));
    },

    /** Rotates a refresh token. Reusing a rotated token revokes the whole family. */
    async refresh(refreshToken: string | undefined, ctx: AuditContext): Promise<TokenResponse> {
      if (!refreshToken) throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided.');
      const outcome = await db.transaction(async (tx) => {
        const found = await repo.findRefreshToken(tx, sha256(refreshToken));
        if (!found) return { error: new AppError('UNAUTHENTICATED', MESSAGES.sessionEnded) };
        const { token, session } = found;
        const won = token.usedAt === null && (await repo.markRefreshTokenUsed(tx, token.id));
        if (!won) {
          await repo.revokeSession(tx, session.id, 'refresh_token_reuse');
          await writeAudit(
            tx,
            { ...ctx, actorUserId: session.userId },
            { action: 'auth.refresh_reused', entity: 'session', entityId: session.id },
          );
          return { error: new AppError('REFRESH_TOKEN_REUSED', MESSAGES.sessionEnded), revoked: session.id };
        }
        const idleLimit = new Date(session.lastUsedAt.getTime() + REFRESH_TOKEN_IDLE_SECONDS * 1000);
        if (session.revokedAt || session.expiresAt <= now() || idleLimit <= now())
          return { error: new AppError('UNAUTHENTICATED', MESSAGES.sessionEnded) };
        const account = await repo.findDefaultAccount(tx, session.userId);
        const user = await repo.findUserById(tx, session.userId);
        if (!account || !user?.isActive) return { error: new AppError('UNAUTHENTICATED', MESSAGES.sessionEnded) };
        await repo.touchSession(tx, session.id);
        const next = newOpaqueToken();
        await repo.insertRefreshToken(tx, session.id, sha256(next));
        const access = await tokens.sign({ userId: session.userId, sessionId: session.id, clientId: account.clientId });
        return { result: { access, refresh: next, access_expires_in: tokens.ttlSeconds } satisfies TokenResponse };
      });
      if ('revoked' in outcome && outcome.revoked) {
        deps.principals.forgetSession(outcome.revoked);
        await deps.bus.publish({ topic: 'auth.session_revoked', payload: { sessionId: outcome.revoked } }).catch(() => undefined);
      }
      if (outcome.error) throw outcome.error;
      return outcome.result!;
    },

    async logout(sessionId: string, ctx: AuditContext): Promise<void> {
      await db.transaction(async (tx) => {
        await repo.revokeSession(tx, sessionId, 'logout');
        await writeAudit(tx, ctx, { action: 'auth.logout', entity: 'session', entityId: sessionId });
      });
      deps.principals.forgetSession(sessionId);
      await deps.bus.publish({ topic: 'auth.session_revoked', payload: { sessionId } }).catch(() => undefined);
    },

    /** Revokes the session a refresh token belongs to (sign-out without an access token). */
    async logoutByRefreshToken(refreshToken: string, ctx: AuditContext): Promise<void> {
      const found = await repo.findRefreshToken(db, sha256(refreshToken));
      if (found) await this.logout(found.session.id, { ...ctx, actorUserId: found.session.userId });
    },

    async requestOtp(input: z.output<typeof RequestOtpSchema>, ctx: AuditContext): Promise<{ detail: string; expires_in: number }> {
      const identity = input.auth_mode === 'mobile' ? input.mobile! : input.email!;
      const windowStart = seconds(-OTP.sendWindowSeconds);
      const ip = ctx.ip ?? 'unknown';
      for (const [column, value, max] of [
        ['identity', identity, OTP.maxSendsPerWindow],
        ['ip', ip, OTP_MAX_SENDS_PER_IP],
      ] as const) {
        const { count, oldest } = await repo.recentOtpSends(db, column, value, windowStart);
        if (count >= max) {
          const retryAfter = oldest
            ? Math.max(1, Math.ceil((oldest.getTime() + OTP.sendWindowSeconds * 1000 - now().getTime()) / 1000))
            : OTP.sendWindowSeconds;
          throw new AppError('RATE_LIMITED', 'Too many OTP requests. Please try again later.', undefined, {
            'retry-after': String(retryAfter),
          });
        }
      }
      const user = input.auth_mode === 'mobile' ? await repo.findUserByMobile(db, identity) : await repo.findUserByEmail(db, identity);
      const code = newOtpCode();
      await db.transaction(async (tx) => {
        await repo.invalidateOpenOtps(tx, identity, input.request_type);
        const { id } = await repo.insertOtp(tx, {
          identity,
          channel: input.auth_mode,
          requestType: input.request_type,
          codeHash: 'pending',
          expiresAt: seconds(OTP.ttlSeconds),
          ip,
        });
        await repo.updateOtp(tx, id, { codeHash: sha256(`${id}:${code}`) });
        // Login and profile codes go only to registered identities; the answer is the same either way.
        const deliver = input.request_type === 'register' || input.request_type === 'easy_register' ? true : Boolean(user);
        if (deliver) {
          const text = `${code} is your ${deps.config.productName} one-time password. It expires in ${OTP.ttlSeconds / 60} minutes. Do not share it with anyone.`;
          if (input.auth_mode === 'mobile') await sms.send({ to: identity, text }, tx);
          else await mailer.send({ to: identity, subject: `${deps.config.productName} one-time password`, text }, tx);
        }
        await writeAudit(
          tx,
          { ...ctx, actorUserId: user?.id ?? null },
          {
            action: 'auth.otp_requested',
            entity: 'otp',
            entityId: id,
            after: { request_type: input.request_type, channel: input.auth_mode },
          },
        );
      });
      return { detail: MESSAGES.otpSent, expires_in: OTP.ttlSeconds };
    },

    /** Checks a code against the open challenge; returns the consumed challenge id. */
    async consumeOtp(identity: string, requestType: OtpRequestType, code: string, ctx: AuditContext): Promise<string> {
      const outcome = await db.transaction(async (tx) => {
        const challenge = await repo.findOpenOtp(tx, identity, requestType);
        if (!challenge || challenge.expiresAt <= now()) return { ok: false as const };
        if (!digestEquals(challenge.codeHash, sha256(`${challenge.id}:${code}`))) {
          const attempts = challenge.attempts + 1;
          await repo.updateOtp(tx, challenge.id, { attempts, ...(attempts >= OTP.maxAttempts ? { invalidatedAt: now() } : {}) });
          await writeAudit(tx, ctx, { action: 'auth.otp_failed', entity: 'otp', entityId: challenge.id, after: { attempts } });
          return { ok: false as const };
        }
        await repo.updateOtp(tx, challenge.id, { consumedAt: now() });
        return { ok: true as const, id: challenge.id };
      });
      if (!outcome.ok) throw new AppError('INVALID_OTP', MESSAGES.invalidOtp, { otp: [MESSAGES.invalidOtp] });
      return outcome.id;
    },

    async otpLogin(input: z.output<typeof OtpLoginSchema>, ctx: AuditContext): Promise<TokenResponse> {
      const identity = input.auth_mode === 'mobile' ? input.mobile! : input.email!;
      await this.consumeOtp(identity, 'login', input.otp, ctx);
      const user = input.auth_mode === 'mobile' ? await repo.findUserByMobile(db, identity) : await repo.findUserByEmail(db, identity);
      if (!user || !user.isActive) {
        await recordLoginFailure(identity, ctx, 'unknown_user_otp');
        throw new AppError('INVALID_OTP', MESSAGES.invalidOtp, { otp: [MESSAGES.invalidOtp] });
      }
      return db.transaction((tx) => openSessionFor(tx, user, ctx, 'otp'));
    },

    /** Validates a register/update_profile code and returns a single-use verification proof. */
    async validateOtp(input: z.output<typeof ValidateOtpSchema>, ctx: AuditContext): Promise<{ valid: true; verification: string }> {
      const identity = input.auth_mode === 'mobile' ? input.mobile! : input.email!;
      const id = await this.consumeOtp(identity, input.request_type, input.otp, ctx);
      const verification = newOpaqueToken();
      await db.transaction(async (tx) => {
        await repo.updateOtp(tx, id, { verificationHash: sha256(verification), verificationExpiresAt: seconds(VERIFICATION_TTL_SECONDS) });
      });
      return { valid: true, verification };
    },

    /** Consumes a verification proof for the identity and purpose, inside the caller's transaction. */
    async useVerification(tx: DbOrTx, verification: string, identity: string, requestTypes: readonly string[]): Promise<boolean> {
      const row = await repo.findVerification(tx, sha256(verification));
      if (
        !row ||
        row.identity !== identity ||
        !requestTypes.includes(row.requestType) ||
        row.verificationUsedAt ||
        !row.verificationExpiresAt ||
        row.verificationExpiresAt <= now()
      )
        return false;
      await repo.updateOtp(tx, row.id, { verificationUsedAt: now() });
      return true;
    },

    async register(input: z.output<typeof RegistrationSchema>, ctx: AuditContext): Promise<TokenResponse> {
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      return db.transaction(async (tx) => {
        if (!(await this.useVerification(tx, input.verification, input.contact.email, ['register', 'easy_register'])))
          throw new AppError('VALIDATION_FAILED', MESSAGES.verificationInvalid, { verification: [MESSAGES.verificationInvalid] });
        if (await repo.findUserByEmail(tx, input.contact.email))
          throw new AppError('VALIDATION_FAILED', MESSAGES.emailTaken, { 'contact.email': [MESSAGES.emailTaken] });
        if (await repo.findUserByMobile(tx, input.contact.mobile))
          throw new AppError('VALIDATION_FAILED', MESSAGES.mobileTaken, { 'contact.mobile': [MESSAGES.mobileTaken] });
        let clientId: string;
        let roles: readonly string[] = NEW_CLIENT_ROLES;
        let permissions: readonly string[] = NEW_CLIENT_PERMISSIONS;
        if (input.invite) {
          const found = await repo.findInviteByHash(tx, sha256(input.invite));
          if (!found || found.invite.acceptedAt || found.invite.expiresAt <= now() || found.invite.email !== input.contact.email)
            throw new AppError('INVITE_INVALID', MESSAGES.inviteInvalid);
          await repo.markInviteAccepted(tx, found.invite.id);
          clientId = found.invite.clientId;
          roles = found.invite.roles;
          permissions = found.invite.permissions;
        } else {
          // The schema guarantees client_type when there is no invite.
          const clientType = input.client_type!;
          const client = await repo.insertClient(tx, {
            name: input.corporate_identity?.name ?? `${input.identity.first_name} ${input.identity.last_name}`,
            clientType,
            category: input.category ?? null,
            pan: input.pan,
            tier: 'BASIC',
            segment: clientType.startsWith('INDV') ? 'NON_INSTITUTIONAL' : 'INSTITUTIONAL',
          });
          clientId = client.id;
          await writeAudit(tx, ctx, {
            action: 'client.created',
            entity: 'client',
            entityId: client.id,
            after: { name: client.name, client_type: client.clientType },
          });
        }
        const user = await repo.insertUser(tx, {
          uniqueId: `DRT${newOpaqueToken()
            .replace(/[^A-Za-z0-9]/g, '')
            .slice(0, 8)
            .toUpperCase()}`,
          email: input.contact.email,
          mobile: input.contact.mobile,
          firstName: input.identity.first_name,
          lastName: input.identity.last_name,
          pan: input.pan,
          passwordHash,
          whatsappConsent: input.contact.whatsapp_consent,
        });
        await repo.insertAccount(tx, user.id, clientId, roles, permissions);
        await writeAudit(
          tx,
          { ...ctx, actorUserId: user.id, actorClientId: clientId, actorEmail: user.email },
          {
            action: 'user.registered',
            entity: 'user',
            entityId: user.id,
            after: { email: user.email, roles, invite: Boolean(input.invite) },
          },
        );
        return openSessionFor(tx, user, ctx, 'registration');
      });
    },

    async validateInvite(token: string): Promise<{ valid: true; email: string; client_name: string }> {
      const found = await repo.findInviteByHash(db, sha256(token));
      if (!found || found.invite.acceptedAt || found.invite.expiresAt <= now())
        throw new AppError('INVITE_INVALID', MESSAGES.inviteInvalid);
      return { valid: true, email: found.invite.email, client_name: found.clientName };
    },

    async requestPasswordReset(email: string, webUrl: string, ctx: AuditContext): Promise<{ detail: string }> {
      const user = await repo.findUserByEmail(db, email);
      await db.transaction(async (tx) => {
        if (user?.isActive) {
          const token = newOpaqueToken();
          await repo.insertPasswordReset(tx, { userId: user.id, tokenHash: sha256(token), expiresAt: seconds(RESET_TTL_SECONDS) });
          const link = new URL(webUrl);
          link.searchParams.set('uid', user.id);
          link.searchParams.set('token', token);
          await mailer.send(
            {
              to: user.email,
              subject: `Reset your ${deps.config.productName} password`,
              text: `Someone asked to reset the password of your ${deps.config.productName} account. If it was you, open this link within an hour:\n\n${link.toString()}\n\nIf it was not you, ignore this e-mail.`,
            },
            tx,
          );
        }
        await writeAudit(
          tx,
          { ...ctx, actorUserId: user?.id ?? null },
          { action: 'auth.password_reset_requested', entity: 'user', entityId: user?.id ?? email },
        );
      });
      return { detail: MESSAGES.resetSent };
    },

    async changePassword(userId: string, input: z.output<typeof ChangePasswordSchema>, ctx: AuditContext): Promise<{ detail: string }> {
      const passwordHash = await hashPassword(input.new_password1);
      await db.transaction(async (tx) => {
        const reset = /^[0-9a-f-]{36}$/i.test(userId) ? await repo.findPasswordReset(tx, userId, sha256(input.token)) : undefined;
        if (!reset || reset.usedAt || reset.expiresAt <= now())
          throw new AppError('VALIDATION_FAILED', MESSAGES.resetInvalid, { token: [MESSAGES.resetInvalid] });
        await repo.markPasswordResetUsed(tx, reset.id);
        await repo.setPassword(tx, userId, passwordHash);
        await repo.revokeUserSessions(tx, userId, 'password_changed');
        await writeAudit(tx, { ...ctx, actorUserId: userId }, { action: 'auth.password_changed', entity: 'user', entityId: userId });
      });
      deps.principals.forgetUser(userId);
      await deps.bus.publish({ topic: 'auth.user_changed', payload: { userId } }).catch(() => undefined);
      return { detail: MESSAGES.passwordChanged };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
