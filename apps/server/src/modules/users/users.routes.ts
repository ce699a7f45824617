/** Profile, security and display preferences, client users and invites. */
import {
  ClientUserListSchema,
  DISPLAY_PREFERENCES_PATH,
  DisplayPreferencesSchema,
  DisplayPreferencesUpdateSchema,
  InviteCreateSchema,
  InviteRevokedSchema,
  InviteRevokeSchema,
  InviteSchema,
  PendingInviteListSchema,
  SecurityPreferenceUpdateSchema,
  SessionUserSchema,
  UpdateProfileSchema,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { UsersService } from './users.service';

/** The spec's invite path (trading-domain §7 "Client and team"). */
const SPEC_INVITE_PATH = '/api/client/user/invite/';

export function registerUsersRoutes(app: FastifyInstance, users: UsersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Own-profile edits are self-service, so view-only users may make them (documented choice).
  r.patch(
    '/api/profile/',
    {
      config: { policy: { kind: 'authenticated' } },
      schema: { tags: ['users'], summary: 'Update own name or mobile', body: UpdateProfileSchema, response: { 200: SessionUserSchema } },
    },
    async (request) => users.updateProfile(request.principal!, request.body, request.audit()),
  );

  r.post(
    '/api/chatter/user/security-preference',
    {
      config: { policy: { kind: 'authenticated' } },
      schema: {
        tags: ['users'],
        summary: 'Set a security preference',
        body: SecurityPreferenceUpdateSchema,
        response: { 200: SessionUserSchema },
      },
    },
    async (request) => users.setSecurityPreference(request.principal!, request.body.key, request.body.enabled, request.audit()),
  );

  // Display preferences (date format, toast sounds) are the user's own screen: every role may set them, view-only included.
  r.get(
    DISPLAY_PREFERENCES_PATH,
    {
      config: { policy: { kind: 'authenticated' } },
      schema: { tags: ['users'], summary: 'Own display preferences', response: { 200: DisplayPreferencesSchema } },
    },
    async (request) => users.displayPreferences(request.principal!),
  );

  r.patch(
    DISPLAY_PREFERENCES_PATH,
    {
      config: { policy: { kind: 'authenticated' } },
      schema: {
        tags: ['users'],
        summary: 'Change own display preferences (date format, toast sounds)',
        body: DisplayPreferencesUpdateSchema,
        response: { 200: DisplayPreferencesSchema },
      },
    },
    async (request) => users.updateDisplayPreferences(request.principal!, request.body, request.audit()),
  );

  r.get(
    '/api/client/users/',
    {
      config: { policy: { kind: 'authenticated', roles: ['clientopsadmin'] } },
      schema: { tags: ['users'], summary: "Users of the caller's client", response: { 200: ClientUserListSchema } },
    },
    async (request) => users.listClientUsers(request.principal!),
  );

  r.get(
    '/api/client/invites/',
    {
      config: { policy: { kind: 'authenticated', roles: ['clientopsadmin'] } },
      schema: { tags: ['users'], summary: "Pending invites of the caller's client", response: { 200: PendingInviteListSchema } },
    },
    async (request) => users.pendingInvites(request.principal!),
  );

  // Invites (spec §7): `POST api/client/user/invite/` is the route; `POST api/client/invites/` is its documented alias
  // (the web's first path), answering from the same handler with the same schemas, access and idempotency.
  for (const [url, summary] of [
    [SPEC_INVITE_PATH, "Invite a user to the caller's client"],
    ['/api/client/invites/', `Alias of POST ${SPEC_INVITE_PATH}`],
  ] as const)
    r.post(
      url,
      {
        config: { policy: { kind: 'authenticated', roles: ['clientopsadmin'], write: true }, idempotent: true },
        schema: { tags: ['users'], summary, body: InviteCreateSchema, response: { 201: InviteSchema } },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await users.createInvite(
              request.principal!,
              request.body,
              request.audit(),
              `${request.protocol}://${request.headers.host ?? 'localhost'}`,
            ),
          ),
    );

  r.post(
    '/api/client/user/invite/revoke/',
    {
      config: { policy: { kind: 'authenticated', roles: ['clientopsadmin'], write: true }, idempotent: true },
      schema: {
        tags: ['users'],
        summary: "Revoke a pending invite of the caller's client (invitee_id: the invite)",
        body: InviteRevokeSchema,
        response: { 200: InviteRevokedSchema },
      },
    },
    async (request) => users.revokeInvite(request.principal!, request.body.invitee_id, request.audit()),
  );
}
