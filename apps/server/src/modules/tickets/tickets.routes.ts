/** The tickets' HTTP edge (spec §7 "Chat and tickets", "Trade"; README "Calls"). Every write is idempotent. */
import {
  AcceptConsiderationSchema,
  BrokerSearchQuerySchema,
  ClientTradeUserSchema,
  ConfirmedTradeSchema,
  CustodianListSchema,
  CustodianSearchQuerySchema,
  ManualTicketSchema,
  SendToBrokerSchema,
  TicketActionBodySchema,
  TicketActionParamsSchema,
  TicketBrokerageSchema,
  TicketEditSchema,
  TicketFromDealSchema,
  TicketIdParamsSchema,
  TicketListQuerySchema,
  TicketListSchema,
  TicketMembersSchema,
  TicketPriceSchema,
  TicketSchema,
  UnifiedUserSchema,
  UsersClientsUnifiedQuerySchema,
  UsersClientsUnifiedSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { typedJsonSerializer } from '../../lib/typed-json';
import type { TicketDirectory } from './tickets.directory';
import { TICKET_WRITE, type TicketsService } from './tickets.service';

/**
 * How a route answering one ticket writes it: without the per-request zod check (`lib/typed-json.ts`). The view is
 * built field by field by the typed `view()` (tickets.views.ts), and the tests' `call()` holds every such answer to
 * TicketSchema (README "Speed").
 */
const writeTicket = typedJsonSerializer;

/** Reading tickets and participants: any signed-in user of a firm on the ticket (view-only roles included). */
const READ: AccessPolicy = { kind: 'authenticated' };
const WRITE = { policy: TICKET_WRITE, idempotent: true };
const ClientIdParams = z.strictObject({ id: z.uuid({ error: 'Client not found.' }) });

export function registerTicketsRoutes(app: FastifyInstance, tickets: TicketsService, directory: TicketDirectory): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tickets'];

  r.post(
    '/api/chatter/trade/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "The ticket of a deal: 200 with the existing one, 201 when created (deals' tickets are normally created with the deal)",
        body: TicketFromDealSchema,
        response: { 200: TicketSchema, 201: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request, reply) => {
      const { created, ticket } = await tickets.fromDeal(request.principal!, request.body.deal_id, request.audit());
      return reply.status(created ? 201 : 200).send(ticket);
    },
  );
  r.get(
    '/api/chatter/trade/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary:
          "The caller's firm's tickets (buyer, seller or broker side), needing its action first: state, needs_action, open, page, page_size",
        querystring: TicketListQuerySchema,
        response: { 200: TicketListSchema },
      },
    },
    async (request) => tickets.list(request.principal!, request.query),
  );
  r.post(
    '/api/chatter/trade/manual-ticket/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'A ticket for a trade agreed outside the market (a draft its creator sends)',
        body: ManualTicketSchema,
        response: { 201: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request, reply) => reply.status(201).send(await tickets.manual(request.principal!, request.body, request.audit())),
  );
  r.get(
    '/api/chatter/trade/:id/',
    {
      config: { policy: READ },
      schema: { tags, summary: 'One ticket with its stamped history', params: TicketIdParamsSchema, response: { 200: TicketSchema } },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.get(request.principal!, request.params.id),
  );
  r.patch(
    '/api/chatter/trade/:id/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Change the terms (size, settlement, exchange): re-priced, a consideration update to both sides',
        params: TicketIdParamsSchema,
        body: TicketEditSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.edit(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.patch(
    '/api/chatter/trade/actions/:id/:action/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'send, reject or cancel a ticket (a reason for reject and cancel)',
        params: TicketActionParamsSchema,
        body: TicketActionBodySchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.act(request.principal!, request.params.id, request.params.action, request.body, request.audit()),
  );
  r.patch(
    '/api/chatter/trade/send-to-broker/:id/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Hand the caller's side to a broker firm's user",
        params: TicketIdParamsSchema,
        body: SendToBrokerSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.sendToBroker(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.patch(
    '/api/chatter/trade/:id/price/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "The seller or the buyer's broker quotes or confirms the price (price or yield)",
        params: TicketIdParamsSchema,
        body: TicketPriceSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.price(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.patch(
    '/api/chatter/trade/accept-consideration/:id/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Accept the consideration for the caller's side with its custodian; the second side's accept confirms the trade",
        params: TicketIdParamsSchema,
        body: AcceptConsiderationSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.acceptConsideration(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.get(
    '/api/chatter/trade/confirmed-trade/:id/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'The trade confirmation: the confirmed ticket, both custodians, the order and the procurement order',
        params: TicketIdParamsSchema,
        response: { 200: ConfirmedTradeSchema },
      },
    },
    async (request) => tickets.confirmedTrade(request.principal!, request.params.id),
  );
  r.patch(
    '/api/trade/members/:id/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "The dealer of the caller's side, and its broker (null removes it)",
        params: TicketIdParamsSchema,
        body: TicketMembersSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.members(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.get(
    '/api/trade/client/users/:id/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "A firm's active trading members ({id}: the caller's firm, a broker firm or a firm it shares a ticket with)",
        params: ClientIdParams,
        response: { 200: z.array(ClientTradeUserSchema) },
      },
    },
    async (request) => directory.clientUsers(request.principal!, request.params.id),
  );
  r.patch(
    '/api/trade/:id/brokerage/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'A broker on the ticket sets the brokerage it charges its principal (₹, 2 decimals)',
        params: TicketIdParamsSchema,
        body: TicketBrokerageSchema,
        response: { 200: TicketSchema },
      },
      serializerCompiler: writeTicket,
    },
    async (request) => tickets.brokerage(request.principal!, request.params.id, request.body, request.audit()),
  );
  r.get(
    '/api/chatter/users-clients-unified/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'Firms with trade access and their trading members to put on a ticket: search_param, broker',
        querystring: UsersClientsUnifiedQuerySchema,
        response: { 200: UsersClientsUnifiedSchema },
      },
    },
    async (request) => directory.unified(request.principal!, request.query),
  );
  r.get(
    '/api/chatter/search-brokers/:id',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Broker users who may work the caller's side of a ticket: search_param",
        params: TicketIdParamsSchema,
        querystring: BrokerSearchQuerySchema,
        response: { 200: z.array(UnifiedUserSchema) },
      },
    },
    async (request) => directory.brokers(request.principal!, request.params.id, request.query),
  );
  r.get(
    '/api/client/search-custodians/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'SEBI-registered custodians by name: search_param',
        querystring: CustodianSearchQuerySchema,
        response: { 200: CustodianListSchema },
      },
    },
    async (request) => directory.custodians(request.query),
  );
}
