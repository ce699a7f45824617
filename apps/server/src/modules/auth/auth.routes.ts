/** HTTP routes of sign-in, OTP, registration and passwords (spec application §7). */
import {
  ChangePasswordSchema,
  InviteValidationSchema,
  LoginRequestSchema,
  OtpLoginSchema,
  RefreshRequestSchema,
  RegistrationSchema,
  RequestOtpResponseSchema,
  RequestOtpSchema,
  ResetPasswordSchema,
  SessionUserSchema,
  TokenResponseSchema,
  ValidateOtpResponseSchema,
  ValidateOtpSchema,
  type TokenResponse,
} from '@dart/contracts';
import { REFRESH_TOKEN_ABSOLUTE_SECONDS } from '@dart/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import type { UsersService } from '../users/users.service';
import type { AuthService } from './auth.service';

const PUBLIC = { policy: { kind: 'public' } } as const;
const SIGNED_IN = { policy: { kind: 'authenticated' } } as const;

export function refreshCookieName(secure: boolean): string {
  return secure ? '__Host-dart_rt' : 'dart_rt';
}

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, users: UsersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = app.deps.config.cookieSecure;
  const cookieName = refreshCookieName(secure);
  /** Credential endpoints get a tight per-IP limit on top of the per-identity throttles. */
  const CREDENTIAL_RATE = {
    rateLimit: {
      max: app.deps.config.credentialRatePerMinute,
      timeWindow: '1 minute',
      keyGenerator: (request: FastifyRequest) => request.ip,
    },
  } as const;

  /** The web keeps the refresh token only in this httpOnly, SameSite=Strict cookie. */
  function withRefreshCookie(reply: FastifyReply, tokens: TokenResponse): TokenResponse {
    if (tokens.refresh)
      void reply.setCookie(cookieName, tokens.refresh, {
        httpOnly: true,
        secure,
        sameSite: 'strict',
        path: '/',
        maxAge: REFRESH_TOKEN_ABSOLUTE_SECONDS,
      });
    return tokens;
  }
  const cookieToken = (request: FastifyRequest): string | undefined => request.cookies[cookieName];

  r.post(
    '/api/token/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: LoginRequestSchema,
        response: { 200: TokenResponseSchema },
      },
    },
    async (request, reply) => withRefreshCookie(reply, await auth.login(request.body.email, request.body.password, request.audit())),
  );

  // Refresh is not under the credential limiter: refresh tokens are 256-bit and every page load of a
  // signed-in user refreshes, so offices behind one IP would hit it. The global per-IP limit applies.
  r.post(
    '/api/token/refresh/',
    {
      config: PUBLIC,
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token (body or cookie)',
        body: RefreshRequestSchema.optional(),
        response: { 200: TokenResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        return withRefreshCookie(reply, await auth.refresh(request.body?.refresh ?? cookieToken(request), request.audit()));
      } catch (error) {
        if (error instanceof AppError && error.status === 401) void reply.clearCookie(cookieName, { path: '/' });
        throw error;
      }
    },
  );

  r.post(
    '/api/logout/',
    {
      config: PUBLIC,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revoke the session',
        body: RefreshRequestSchema.optional(),
        response: { 200: z.object({ detail: z.string() }) },
      },
    },
    async (request, reply) => {
      if (request.principal) await auth.logout(request.principal.sessionId, request.audit());
      else {
        const token = request.body?.refresh ?? cookieToken(request);
        if (token) await auth.logoutByRefreshToken(token, request.audit());
      }
      void reply.clearCookie(cookieName, { path: '/' });
      return { detail: 'Signed out.' };
    },
  );

  r.get(
    '/api/session/',
    {
      config: SIGNED_IN,
      schema: { tags: ['auth'], summary: 'The signed-in user state', response: { 200: SessionUserSchema } },
    },
    async (request) => users.sessionUser(request.principal!),
  );

  r.post(
    '/api/request-otp/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: { tags: ['auth'], summary: 'Send a one-time password', body: RequestOtpSchema, response: { 200: RequestOtpResponseSchema } },
    },
    async (request) => auth.requestOtp(request.body, request.audit()),
  );

  r.post(
    '/api/token/otp/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: { tags: ['auth'], summary: 'Sign in with a one-time password', body: OtpLoginSchema, response: { 200: TokenResponseSchema } },
    },
    async (request, reply) => withRefreshCookie(reply, await auth.otpLogin(request.body, request.audit())),
  );

  r.post(
    '/api/validate-otp/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: {
        tags: ['auth'],
        summary: 'Validate a register / update_profile / easy_register OTP',
        body: ValidateOtpSchema,
        response: { 200: ValidateOtpResponseSchema },
      },
    },
    async (request) => auth.validateOtp(request.body, request.audit()),
  );

  r.post(
    '/api/reset-password/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: {
        tags: ['auth'],
        summary: 'E-mail a password reset link',
        body: ResetPasswordSchema,
        response: { 200: z.object({ detail: z.string() }) },
      },
    },
    async (request) => {
      // The link must point back at this site, or the e-mail could be made to carry a phishing URL.
      const host = request.headers.host ?? '';
      const target = new URL(request.body.web_url);
      if (target.host !== host)
        throw new AppError('VALIDATION_FAILED', 'Enter a valid link.', { web_url: ['The reset link must point to this site.'] });
      return auth.requestPasswordReset(request.body.email, request.body.web_url, request.audit());
    },
  );

  r.post(
    '/api/change-password/:userId/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token',
        params: z.strictObject({ userId: z.string().max(64) }),
        body: ChangePasswordSchema,
        response: { 200: z.object({ detail: z.string() }) },
      },
    },
    async (request) => auth.changePassword(request.params.userId, request.body, request.audit()),
  );

  r.post(
    '/api/client/register/',
    {
      config: { ...PUBLIC, ...CREDENTIAL_RATE },
      schema: {
        tags: ['auth'],
        summary: 'Register a client (or join one by invite)',
        body: RegistrationSchema,
        response: { 200: TokenResponseSchema },
      },
    },
    async (request, reply) => withRefreshCookie(reply, await auth.register(request.body, request.audit())),
  );

  r.get(
    '/api/invites/:token/',
    {
      config: PUBLIC,
      schema: {
        tags: ['auth'],
        summary: 'Validate an invite (validate-invite middleware)',
        params: z.strictObject({ token: z.string().min(1).max(200) }),
        response: { 200: InviteValidationSchema },
      },
    },
    async (request) => auth.validateInvite(request.params.token),
  );
}
