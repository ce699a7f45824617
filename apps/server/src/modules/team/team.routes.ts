/** The network and team calls (spec trading-domain §7 "Client and team"; issue 15 §1). HTTP only. */
import {
  AgentListSchema,
  ClientByWebsiteQuerySchema,
  ClientByWebsiteSchema,
  ClientProfileSchema,
  ClientProfileUpdateSchema,
  ClientsQuerySchema,
  FacilitatorListSchema,
  InviteRevokeSchema,
  InviteSchema,
  InviteValidateSchema,
  InviteValidationSchema,
  NetworkClientListSchema,
  NetworkClientSchema,
  NetworkSearchQuerySchema,
  NetworkStatsSchema,
  RegisterUserLiteSchema,
  TeamUserSchema,
  UserAccountListSchema,
  UserAccountsQuerySchema,
  UserRolesUpdateSchema,
} from '@dart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TeamDirectory } from './team.directory';
import type { InviteResender } from './team.invites';
import type { NetworkStatsReader } from './team.network-stats';
import type { TeamService } from './team.service';

/** Any signed-in user, view-only roles included: reads of the caller's own firm or of the network. */
const SIGNED_IN = { policy: { kind: 'authenticated' } } as const;
/** The firm's ops admin manages the firm; compliance and viewer users are view-only (403 VIEW_ONLY). */
const OPS_ADMIN_WRITE = { policy: { kind: 'authenticated', roles: ['clientopsadmin'], write: true }, idempotent: true } as const;

export function registerTeamRoutes(
  app: FastifyInstance,
  team: TeamService,
  directory: TeamDirectory,
  validateInvite: (code: string) => Promise<z.output<typeof InviteValidationSchema>>,
  inviteResender: InviteResender,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/client/',
    { config: SIGNED_IN, schema: { tags: ['team'], summary: "The caller's organisation", response: { 200: ClientProfileSchema } } },
    async (request) => team.profile(request.principal!),
  );

  r.put(
    '/api/client/:id/',
    {
      config: OPS_ADMIN_WRITE,
      schema: {
        tags: ['team'],
        summary: "Update the organisation's details (the caller's own organisation only)",
        params: z.strictObject({ id: z.string().max(64) }),
        body: ClientProfileUpdateSchema,
        response: { 200: ClientProfileSchema },
      },
    },
    async (request) => team.updateProfile(request.principal!, request.params.id, request.body, request.audit()),
  );

  r.put(
    '/api/client/user/',
    {
      config: OPS_ADMIN_WRITE,
      schema: {
        tags: ['team'],
        summary: "A member's roles, permissions and status (spec role rules; the last OpsAdmin stays)",
        body: UserRolesUpdateSchema,
        response: { 200: TeamUserSchema },
      },
    },
    async (request) => team.updateUser(request.principal!, request.body, request.audit()),
  );

  // Recording a counterparty is a business write of the trading desk and of the firm's admins; view-only roles may not.
  r.post(
    '/api/client/register-user/lite',
    {
      config: {
        policy: { kind: 'authenticated', roles: ['clientdealer', 'clientopsadmin', 'backoffice'], write: true },
        idempotent: true,
      },
      schema: {
        tags: ['team'],
        summary: "Record a counterparty that is not on the platform (an offline record of the caller's firm)",
        body: RegisterUserLiteSchema,
        response: { 201: NetworkClientSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await team.registerLite(request.principal!, request.body, request.audit())),
  );

  // Partners are what client.view_client ("view partners", spec §6) grants.
  r.get(
    '/api/clients/',
    {
      config: { policy: { kind: 'authenticated', permissions: ['client.view_client'] } },
      schema: {
        tags: ['team'],
        summary: 'Firms on the network: partners, offline records, others',
        querystring: ClientsQuerySchema,
        response: { 200: NetworkClientListSchema },
      },
    },
    async (request) => directory.clients(request.principal!, request.query),
  );

  r.get(
    '/api/trade/facilitator/',
    {
      config: SIGNED_IN,
      schema: { tags: ['team'], summary: 'Broker firms', querystring: NetworkSearchQuerySchema, response: { 200: FacilitatorListSchema } },
    },
    async (request) => directory.facilitators(request.query),
  );

  r.get(
    '/api/trade/agent/',
    {
      config: SIGNED_IN,
      schema: {
        tags: ['team'],
        summary: 'Dealers of broker firms',
        querystring: NetworkSearchQuerySchema,
        response: { 200: AgentListSchema },
      },
    },
    async (request) => directory.agents(request.query),
  );

  r.get(
    '/api/useraccounts/',
    {
      config: SIGNED_IN,
      schema: {
        tags: ['team'],
        summary: "Members of the caller's organisation",
        querystring: UserAccountsQuerySchema,
        response: { 200: UserAccountListSchema },
      },
    },
    async (request) => directory.userAccounts(request.principal!, request.query),
  );

  r.get(
    '/api/client/by-website/',
    {
      config: SIGNED_IN,
      schema: {
        tags: ['team'],
        summary: 'The organisation that uses a website',
        querystring: ClientByWebsiteQuerySchema,
        response: { 200: ClientByWebsiteSchema },
      },
    },
    async (request) => directory.byWebsite(request.query),
  );

  // Ours (the spec has no resend call): a pending invite gets a new link and seven more days; the old link stops working.
  r.post(
    '/api/client/user/invite/resend/',
    {
      config: OPS_ADMIN_WRITE,
      schema: {
        tags: ['team'],
        summary: "Send a pending invite of the caller's organisation again, with a new link (invitee_id: the invite)",
        body: InviteRevokeSchema,
        response: { 200: InviteSchema },
      },
    },
    async (request) =>
      inviteResender.resendInvite(
        request.principal!,
        request.body.invitee_id,
        request.audit(),
        `${request.protocol}://${request.headers.host ?? 'localhost'}`,
      ),
  );

  // The spec's invite check; `GET api/invites/{token}/` (auth routes) is its documented alias on the same handler.
  // Public (the invitee has no account yet), limited per IP like the other credential endpoints.
  r.post(
    '/api/client/user/invite/validate/',
    {
      config: {
        policy: { kind: 'public' },
        rateLimit: {
          max: app.deps.config.credentialRatePerMinute,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) => request.ip,
        },
      },
      schema: {
        tags: ['team'],
        summary: 'Validate an invite code (validate-invite middleware)',
        body: InviteValidateSchema,
        response: { 200: InviteValidationSchema },
      },
    },
    async (request) => validateInvite(request.body.invite_code),
  );
}

/**
 * `GET api/network/stats/` (ours; issue 15 §1): the Build Network panel's counterparty quality, read by the firm's
 * traders (signed in with `client.can_trade`; a read, so a view-only user holding the permission may read it too).
 */
export function registerNetworkStatsRoute(app: FastifyInstance, stats: NetworkStatsReader): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/network/stats/',
    {
      config: { policy: { kind: 'authenticated', permissions: ['client.can_trade'] } },
      schema: {
        tags: ['team'],
        summary:
          "Per counterparty firm, the caller's firm's last 90 days with it: response rate, time to answer, hit rate, quotes held and pulled, deals",
        response: { 200: NetworkStatsSchema },
      },
    },
    async (request) => stats.stats(request.principal!),
  );
}
