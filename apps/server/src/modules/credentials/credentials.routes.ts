/**
 * The exchange-credentials HTTP edge (README "Calls"). Setting credentials is the firm's ops admin's only;
 * the participant lists are public reference data any signed-in user may search.
 */
import {
  CREDENTIALS_PATH,
  ExchangeCredentialStatusListSchema,
  ExchangeCredentialStatusSchema,
  ExchangeCredentialsSetSchema,
  PARTICIPANT_SEARCH_PATHS,
  ParticipantListSchema,
  ParticipantSearchQuerySchema,
  type AccessPolicy,
  type CredentialCorp,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CredentialsService } from './credentials.service';
import type { ParticipantDirectory } from './participants';

const OPS_ADMIN_READ: AccessPolicy = { kind: 'authenticated', roles: ['clientopsadmin'] };
/**
 * Not `config.idempotent`: the Idempotency-Key store keeps a SHA-256 over the request body, which here holds
 * the password (a guessing oracle for anyone reading the table). The call is idempotent by nature instead: it
 * replaces the firm's one record per corp, so a retry leaves the same credentials (README "Idempotency").
 */
const OPS_ADMIN_WRITE: AccessPolicy = { kind: 'authenticated', roles: ['clientopsadmin'], write: true };
const SIGNED_IN: AccessPolicy = { kind: 'authenticated' };

export function registerCredentialsRoutes(app: FastifyInstance, credentials: CredentialsService, participants: ParticipantDirectory): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['exchange credentials'];

  r.get(
    CREDENTIALS_PATH,
    {
      config: { policy: OPS_ADMIN_READ },
      schema: {
        tags,
        summary: "The firm's NSCCL and ICCL credentials: set or not, on which date, by whom (never the username or password)",
        response: { 200: ExchangeCredentialStatusListSchema },
      },
    },
    async (request) => ({ results: await credentials.statuses(request.principal!) }),
  );

  r.post(
    CREDENTIALS_PATH,
    {
      config: { policy: OPS_ADMIN_WRITE },
      schema: {
        tags,
        summary: "Set the firm's login at NSCCL (NSE RFQ) or ICCL (BSE RFQ); the password is encrypted and never shown again",
        body: ExchangeCredentialsSetSchema,
        response: { 200: ExchangeCredentialStatusSchema },
      },
    },
    async (request) => credentials.set(request.principal!, request.body, request.audit()),
  );

  for (const corp of ['NSCCL', 'ICCL'] as CredentialCorp[]) {
    r.get(
      PARTICIPANT_SEARCH_PATHS[corp],
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: `Participants of ${corp} (the clearing banks it publishes) by name or code: search_param, ucc_only`,
          querystring: ParticipantSearchQuerySchema,
          response: { 200: ParticipantListSchema },
        },
      },
      async (request) => ({ results: participants.search(corp, request.query.search_param, request.query.ucc_only) }),
    );
  }
}
