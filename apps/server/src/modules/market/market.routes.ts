/** The market's HTTP edge (spec trading-domain §7 "Quotes and expressions of interest"). */
import {
  ClusterAcceptQuerySchema,
  ClusterListQuerySchema,
  ClusterListSchema,
  ClusterPriceQuerySchema,
  ClusterPriceSchema,
  ClusterSchema,
  ClusterUpdateSchema,
  DealListQuerySchema,
  DealListSchema,
  IDEMPOTENCY_KEY_HEADER,
  MarketQuerySchema,
  NegotiationListQuerySchema,
  NegotiationListSchema,
  NegotiationRequestSchema,
  NegotiationSchema,
  QuoteAddSchema,
  QuoteCloseManySchema,
  QuoteCreateSchema,
  QuoteIdParamsSchema,
  QuoteListSchema,
  QuoteSchema,
  QuoteUpdateSchema,
  RfqQuoteQuerySchema,
  TradeTimingsSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../lib/errors';
import type { MarketService } from './market.service';

/** Reading runs: any signed-in user (without trade access the lists are empty with the timing text). */
const READ: AccessPolicy = { kind: 'authenticated' };
/** Trading writes: trade access, and never view-only roles. */
const TRADE: AccessPolicy = { kind: 'authenticated', permissions: ['client.can_trade'], write: true };
const IdParams = z.strictObject({ id: z.uuid({ error: 'Not found.' }) });
const CloseManyResponse = z.object({ closed: z.array(QuoteSchema) });

function idempotencyOf(request: FastifyRequest) {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 100 || !/^[\w.:-]+$/.test(key))
    throw fieldError('Idempotency-Key', 'Idempotency-Key should be 1–100 letters, digits, dots, colons, dashes or underscores.');
  return { key, route: request.routeOptions.url ?? '', body: request.body };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The market service (jobs such as the expiry sweep are driven through it in tests). */
    market: MarketService;
  }
}

export function registerMarketRoutes(app: FastifyInstance, market: MarketService): void {
  app.decorate('market', market);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['market'];

  const create = async (request: FastifyRequest, reply: FastifyReply, body: z.output<typeof QuoteAddSchema>) => {
    const result = await market.createQuote(request.principal!, body, request.audit(), idempotencyOf(request));
    if (result.replayed) void reply.header('idempotency-replayed', 'true');
    return reply.status(result.status).send(result.body);
  };
  r.post(
    '/api/trade/eoi/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Create a quote (EOI); header Idempotency-Key makes retries safe',
        body: QuoteCreateSchema,
        response: { 201: QuoteSchema },
      },
    },
    async (request, reply) => create(request, reply, request.body),
  );
  r.post(
    '/api/eoi/add/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Create a quote, or respond to one (respond_to) by price or yield',
        body: QuoteAddSchema,
        response: { 201: QuoteSchema },
      },
    },
    async (request, reply) => create(request, reply, request.body),
  );

  r.get(
    '/api/trade/d/market/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'Public runs: open quotes in the market',
        querystring: MarketQuerySchema,
        response: { 200: QuoteListSchema },
      },
    },
    async (request) => market.listRuns(request.principal!, request.query, false),
  );
  r.get(
    '/api/eoi/private-run/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Private runs: quotes sent to the caller's firm, or sent by it",
        querystring: MarketQuerySchema,
        response: { 200: QuoteListSchema },
      },
    },
    async (request) => market.listRuns(request.principal!, request.query, true),
  );
  r.get(
    '/api/eoi/rfq-quote/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Exchange RFQs (NSE / BSE RFQ) on the caller's firm's rfq_exchanges, and the firm's own RFQs and responses",
        querystring: RfqQuoteQuerySchema,
        response: { 200: QuoteListSchema },
      },
    },
    async (request) => market.listRfqQuotes(request.principal!, request.query),
  );
  r.get(
    '/api/trade/eoi/:id/',
    {
      config: { policy: READ },
      schema: { tags, summary: 'One quote the caller may see', params: QuoteIdParamsSchema, response: { 200: QuoteSchema } },
    },
    async (request) => market.getQuote(request.principal!, request.params.id),
  );
  r.get(
    '/api/trade/timings',
    {
      config: { policy: READ },
      schema: { tags, summary: 'Trade sessions (IST) and the T+0 cut-off', response: { 200: TradeTimingsSchema } },
    },
    async () => market.timings(),
  );

  r.put(
    '/api/trade/d/eoi/:id/close/',
    {
      config: { policy: TRADE },
      schema: { tags, summary: 'Close one own quote', params: IdParams, response: { 200: QuoteSchema } },
    },
    async (request) => (await market.closeQuotes(request.principal!, [request.params.id], 'closed', request.audit()))[0]!,
  );
  r.put(
    '/api/trade/d/eoi/close/',
    {
      config: { policy: TRADE },
      schema: { tags, summary: 'Close several own quotes (all or none)', body: QuoteCloseManySchema, response: { 200: CloseManyResponse } },
    },
    async (request) => ({ closed: await market.closeQuotes(request.principal!, request.body.ids, 'closed', request.audit()) }),
  );
  r.post(
    '/api/eoi/expire/:id/',
    {
      config: { policy: TRADE },
      schema: { tags, summary: 'Expire one own quote now', params: IdParams, response: { 200: QuoteSchema } },
    },
    async (request) => (await market.closeQuotes(request.principal!, [request.params.id], 'expired', request.audit()))[0]!,
  );
  r.put(
    '/api/eoi/update/:id/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Update an own open quote (quantum, price/yield, validity)',
        params: IdParams,
        body: QuoteUpdateSchema,
        response: { 200: QuoteSchema },
      },
    },
    async (request) => market.updateQuote(request.principal!, request.params.id, request.body, request.audit()),
  );

  r.post(
    '/api/eoi/add-negotiation/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Counter, accept or reject in a negotiation on a quote',
        body: NegotiationRequestSchema,
        response: { 200: NegotiationSchema },
      },
    },
    async (request) => market.negotiate(request.principal!, request.body, request.audit()),
  );
  r.get(
    '/api/eoi/negotiations/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Negotiations the caller's firm is part of (quoter or responder), newest first, with the counter history",
        querystring: NegotiationListQuerySchema,
        response: { 200: NegotiationListSchema },
      },
    },
    async (request) => market.listNegotiations(request.principal!, request.query),
  );
  r.get(
    '/api/trade/deals/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Deals where the caller's firm is buyer or seller, newest first, seen from its side",
        querystring: DealListQuerySchema,
        response: { 200: DealListSchema },
      },
    },
    async (request) => market.listDeals(request.principal!, request.query),
  );

  r.get(
    '/api/trade/cluster/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "Clusters (matches) the caller's firm is part of",
        querystring: ClusterListQuerySchema,
        response: { 200: ClusterListSchema },
      },
    },
    async (request) => market.listClusters(request.principal!, request.query),
  );
  r.get(
    '/api/trade/cluster/:id/',
    {
      config: { policy: READ },
      schema: { tags, summary: 'One cluster', params: IdParams, response: { 200: ClusterSchema } },
    },
    async (request) => market.getCluster(request.principal!, request.params.id),
  );
  r.put(
    '/api/trade/cluster/:id/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Update a cluster (close it)',
        params: IdParams,
        body: ClusterUpdateSchema,
        response: { 200: ClusterSchema },
      },
    },
    async (request) => market.closeCluster(request.principal!, request.params.id, request.audit()),
  );
  r.post(
    '/api/cluster/:id/accept/',
    {
      config: { policy: TRADE },
      schema: {
        tags,
        summary: 'Accept a cluster leg (lsId = own quote id); both legs accepted → deal',
        params: IdParams,
        querystring: ClusterAcceptQuerySchema,
        response: { 200: ClusterSchema },
      },
    },
    async (request) => market.acceptCluster(request.principal!, request.params.id, request.query.lsId, request.audit()),
  );
  r.get(
    '/api/cluster/:id/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'Consideration of a cluster at a price',
        params: IdParams,
        querystring: ClusterPriceQuerySchema,
        response: { 200: ClusterPriceSchema },
      },
    },
    async (request) => market.priceCluster(request.principal!, request.params.id, request.query.price),
  );
}
