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
  DepthQuerySchema,
  DepthSchema,
  MarketInstrumentListSchema,
  MarketInstrumentQuerySchema,
  QUOTE_UPLOAD_CONTENT_TYPES,
  QUOTE_UPLOAD_MAX_BYTES,
  QUOTE_UPLOAD_MESSAGES,
  QuoteUploadErrorSchema,
  QuoteUploadResultSchema,
  QuoteUploadTemplateQuerySchema,
  type QuoteUploadError,
  MarketQuerySchema,
  MyQuotesQuerySchema,
  MyRfqListSchema,
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
  TradeParticipantListSchema,
  TradeParticipantSearchQuerySchema,
  TradeTimingsSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../lib/errors';
import { UploadRowsError, type MarketService } from './market.service';
import { templateCsv, templateXlsx } from './quote-upload';

/** Reading runs: any signed-in user (without trade access the lists are empty with the timing text). */
const READ: AccessPolicy = { kind: 'authenticated' };
/** Trading writes: trade access, and never view-only roles. */
const TRADE: AccessPolicy = { kind: 'authenticated', permissions: ['client.can_trade'], write: true };
/** Market depth: a Premium feature (BASIC → 402); without trade access the levels are empty. */
const PREMIUM_READ: AccessPolicy = { kind: 'authenticated', premium: true };
/** The raw-body types `POST api/eoi/upload/` accepts; the file type itself is decided by its magic bytes. */
const UPLOAD_BODY_TYPES = [
  QUOTE_UPLOAD_CONTENT_TYPES.csv,
  QUOTE_UPLOAD_CONTENT_TYPES.xlsx,
  'application/vnd.ms-excel',
  'application/octet-stream',
];
const IdParams = z.strictObject({ id: z.uuid({ error: 'Not found.' }) });
const CloseManyResponse = z.object({ closed: z.array(QuoteSchema) });

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

  const create = async (request: FastifyRequest, reply: FastifyReply, body: z.output<typeof QuoteAddSchema>) =>
    reply.status(201).send(await market.createQuote(request.principal!, body, request.audit()));
  r.post(
    '/api/trade/eoi/',
    {
      config: { policy: TRADE, idempotent: true },
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
      config: { policy: TRADE, idempotent: true },
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
    '/api/eoi/my-rfqs/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "The caller's firm's exchange RFQs (open or ended in the last 24 h) with every participant's latest terms",
        response: { 200: MyRfqListSchema },
      },
    },
    async (request) => market.listMyRfqs(request.principal!),
  );
  r.get(
    '/api/trade/eoi/',
    {
      // The firm's own quotes: reading changes nothing, so view-only users (viewer, compliance) may list them.
      config: { policy: READ },
      schema: {
        tags,
        summary: "The caller's firm's own quotes (every status, newest first): page, page_size, search, finstrument_id, status",
        querystring: MyQuotesQuerySchema,
        response: { 200: QuoteListSchema },
      },
    },
    async (request) => market.listMyQuotes(request.principal!, request.query),
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

  r.get(
    '/api/chatter/search-trade-participants',
    {
      // Looking counterparties up changes nothing: view-only users may search too.
      config: { policy: READ },
      schema: {
        tags,
        summary:
          'Ticketing participant search: other firms with trade access (Company) and their active members (Member) by firm or person name; for_rfq + exchange: firms enabled for RFQs there. At most 20, firms first',
        querystring: TradeParticipantSearchQuerySchema,
        response: { 200: TradeParticipantListSchema },
      },
    },
    async (request) => market.searchTradeParticipants(request.principal!, request.query),
  );

  r.put(
    '/api/trade/d/eoi/:id/close/',
    {
      config: { policy: TRADE, idempotent: true },
      schema: { tags, summary: 'Close one own quote', params: IdParams, response: { 200: QuoteSchema } },
    },
    async (request) => (await market.closeQuotes(request.principal!, [request.params.id], 'closed', request.audit()))[0]!,
  );
  r.put(
    '/api/trade/d/eoi/close/',
    {
      config: { policy: TRADE, idempotent: true },
      schema: { tags, summary: 'Close several own quotes (all or none)', body: QuoteCloseManySchema, response: { 200: CloseManyResponse } },
    },
    async (request) => ({ closed: await market.closeQuotes(request.principal!, request.body.ids, 'closed', request.audit()) }),
  );
  r.post(
    '/api/eoi/expire/:id/',
    {
      config: { policy: TRADE, idempotent: true },
      schema: { tags, summary: 'Expire one own quote now', params: IdParams, response: { 200: QuoteSchema } },
    },
    async (request) => (await market.closeQuotes(request.principal!, [request.params.id], 'expired', request.audit()))[0]!,
  );
  r.put(
    '/api/eoi/update/:id/',
    {
      config: { policy: TRADE, idempotent: true },
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

  r.get(
    '/api/quote/depth/',
    {
      config: { policy: PREMIUM_READ },
      schema: {
        tags,
        summary: 'Market depth of one bond (Premium): open public bids and asks summed by price and yield, best first; no firm names',
        querystring: DepthQuerySchema,
        response: { 200: DepthSchema },
      },
    },
    async (request) => market.depth(request.principal!, request.query),
  );
  r.get(
    '/api/trade/finstrument/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'Instruments in the market: bonds with open public quotes, best bid/ask and counts (page size 20, type Bond)',
        querystring: MarketInstrumentQuerySchema,
        response: { 200: MarketInstrumentListSchema },
      },
    },
    async (request) => market.listInstruments(request.principal!, request.query),
  );
  r.get(
    '/api/eoi/upload/template/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'The bulk-upload template (CSV or XLSX) with the columns and two example rows',
        querystring: QuoteUploadTemplateQuerySchema,
      },
    },
    async (request, reply) => {
      const xlsx = request.query.format === 'xlsx';
      return reply
        .header('content-type', xlsx ? QUOTE_UPLOAD_CONTENT_TYPES.xlsx : `${QUOTE_UPLOAD_CONTENT_TYPES.csv}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="dart-quotes-template.${xlsx ? 'xlsx' : 'csv'}"`)
        .header('x-content-type-options', 'nosniff')
        .send(xlsx ? await templateXlsx() : templateCsv());
    },
  );
  // Bulk upload takes the file itself as the body (CSV or XLSX); its own parser lives in this scope only.
  app.register(async (scope) => {
    scope.addContentTypeParser(UPLOAD_BODY_TYPES, { parseAs: 'buffer', bodyLimit: QUOTE_UPLOAD_MAX_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/eoi/upload/',
      {
        config: { policy: TRADE, idempotent: true },
        bodyLimit: QUOTE_UPLOAD_MAX_BYTES,
        schema: {
          tags,
          summary: 'Bulk quote upload: a CSV or XLSX file as the body; every row valid or nothing imported (400 with row_errors)',
          // 400: row errors (row_errors), or a file-level problem (no row_errors).
          response: { 201: QuoteUploadResultSchema, 400: QuoteUploadErrorSchema.partial({ row_errors: true }) },
        },
      },
      async (request, reply) => {
        const file = request.body;
        if (!Buffer.isBuffer(file)) throw fieldError('file', QUOTE_UPLOAD_MESSAGES.unsupported);
        try {
          return reply.status(201).send(await market.uploadQuotes(request.principal!, file, request.audit()));
        } catch (error) {
          if (!(error instanceof UploadRowsError)) throw error;
          const errors: Record<string, string[]> = {};
          for (const e of error.rowErrors) (errors[`row_${e.row}.${e.field}`] ??= []).push(e.message);
          const body: QuoteUploadError = { code: 'VALIDATION_FAILED', message: error.message, errors, row_errors: error.rowErrors };
          return reply.status(400).send(body);
        }
      },
    );
  });

  r.post(
    '/api/eoi/add-negotiation/',
    {
      config: { policy: TRADE, idempotent: true },
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
      config: { policy: TRADE, idempotent: true },
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
      config: { policy: TRADE, idempotent: true },
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
