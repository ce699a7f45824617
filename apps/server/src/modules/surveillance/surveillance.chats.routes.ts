/**
 * The firm's chats for its compliance officers (README "Chats"): the same policy as the alerts (compliance officers of
 * a Premium firm), each on the channels with a member of the own firm (another channel: 404). Read-only.
 */
import {
  SurveillanceChatIdParamsSchema,
  SurveillanceChatListQuerySchema,
  SurveillanceChatListSchema,
  SurveillanceChatMessageListSchema,
  SurveillanceChatMessagesQuerySchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SurveillanceChats } from './surveillance.chats';

const COMPLIANCE: AccessPolicy = { kind: 'authenticated', roles: ['complianceofficer'], premium: true };
const tags = ['surveillance'];

export function registerSurveillanceChatRoutes(app: FastifyInstance, chats: SurveillanceChats): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/surveillance/chats/',
    {
      config: { policy: COMPLIANCE },
      schema: {
        tags,
        summary:
          "The chats with at least one member (past or present) of the caller's firm, latest message first: members, message " +
          'count, last message; search by chat name, member name or firm; paged',
        querystring: SurveillanceChatListQuerySchema,
        response: { 200: SurveillanceChatListSchema },
      },
    },
    async (request) => chats.list(request.principal!, request.query),
  );

  r.get(
    '/api/surveillance/chats/:id/messages/',
    {
      config: { policy: COMPLIANCE },
      schema: {
        tags,
        summary:
          "One of the firm's chats and its messages in a period (IST days), oldest first, with edits and deletes as chat " +
          'keeps them; paged; audited',
        params: SurveillanceChatIdParamsSchema,
        querystring: SurveillanceChatMessagesQuerySchema,
        response: { 200: SurveillanceChatMessageListSchema },
      },
    },
    async (request) => chats.messages(request.principal!, request.params.id, request.query, request.audit()),
  );
}
