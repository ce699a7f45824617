/**
 * Finstrument calls (issue 4). Search, the security header, pricing, the Find grid and bonds by the
 * same issuer are public (the /find and /security pages are public); ratings, trades and downloads need
 * `finstruments.has_security_data_access`; cash flows and the quote sheet are Premium (402 for BASIC).
 */
import {
  CashflowRequestSchema,
  CashflowScheduleSchema,
  CreditRationaleSchema,
  FinstrumentDetailSchema,
  FinstrumentIdParamsSchema,
  FinstrumentListRequestSchema,
  FinstrumentListSchema,
  FinstrumentSearchQuerySchema,
  FinstrumentSearchResponseSchema,
  ImDownloadRequestSchema,
  IssuerBondsRequestSchema,
  PriceInfoSchema,
  PriceRequestSchema,
  QuoteDownloadRequestSchema,
  TradeListSchema,
  TradesRequestSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FinstrumentsService } from './finstruments.service';

const PUBLIC: { policy: AccessPolicy } = { policy: { kind: 'public' } };
const SECURITY_DATA: { policy: AccessPolicy } = {
  policy: { kind: 'authenticated', permissions: ['finstruments.has_security_data_access'] },
};
const SECURITY_DATA_PREMIUM: { policy: AccessPolicy } = {
  policy: { kind: 'authenticated', permissions: ['finstruments.has_security_data_access'], premium: true },
};
const EmptyBodySchema = z.strictObject({}).nullish();

/** RFC 6266: an ASCII-only, path-free file name. */
export function safeFilename(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return cleaned || 'document.pdf';
}

function sendPdf(reply: FastifyReply, file: { filename: string; body: Buffer }) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${safeFilename(file.filename)}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.body);
}

export function registerFinstrumentsRoutes(app: FastifyInstance, service: FinstrumentsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['finstruments'];

  r.get(
    '/api/finstruments/search/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Bond search (searchKey, at least 3 characters)',
        querystring: FinstrumentSearchQuerySchema,
        response: { 200: FinstrumentSearchResponseSchema },
      },
    },
    async (request) => service.search(request.query.searchKey, request.query.limit),
  );

  r.post(
    '/api/finstruments/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'The Find grid: filters, sort and pagination over the universe',
        body: FinstrumentListRequestSchema,
        response: { 200: FinstrumentListSchema },
      },
    },
    async (request) => service.list(request.body),
  );

  r.get(
    '/api/finstrument/:id/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Security header: terms, provenance, assumed fields, reference price',
        params: FinstrumentIdParamsSchema,
        response: { 200: FinstrumentDetailSchema },
      },
    },
    async (request) => service.detail(request.params.id),
  );

  r.post(
    '/api/v1/finstrument/:id/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Price info / price calculation (yield xor price; settlement date xor delta)',
        params: FinstrumentIdParamsSchema,
        body: PriceRequestSchema,
        response: { 200: PriceInfoSchema },
      },
    },
    async (request) => service.price(request.params.id, request.body),
  );

  r.post(
    '/api/bonds-by-same-issuer/:id/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Other bonds of the same issuer',
        params: FinstrumentIdParamsSchema,
        body: IssuerBondsRequestSchema,
        response: { 200: FinstrumentListSchema },
      },
    },
    async (request) => service.issuerBonds(request.params.id, request.body),
  );

  r.get(
    '/api/credit-rationale/:id/',
    {
      config: SECURITY_DATA,
      schema: {
        tags,
        summary: 'Ratings seen by agency and date',
        params: FinstrumentIdParamsSchema,
        response: { 200: CreditRationaleSchema },
      },
    },
    async (request) => service.creditRationale(request.params.id),
  );

  r.post(
    '/api/trades/:id/',
    {
      config: SECURITY_DATA,
      schema: {
        tags,
        summary: 'Trades, exchange closes and valuation yields',
        params: FinstrumentIdParamsSchema,
        body: TradesRequestSchema,
        response: { 200: TradeListSchema },
      },
    },
    async (request) => service.trades(request.params.id, request.body),
  );

  r.post(
    '/api/cashflow/:id/',
    {
      config: SECURITY_DATA_PREMIUM,
      schema: {
        tags,
        summary: 'Cash-flow schedule for a quantity (Premium)',
        params: FinstrumentIdParamsSchema,
        body: CashflowRequestSchema,
        response: { 200: CashflowScheduleSchema },
      },
    },
    async (request) => service.cashflows(request.params.id, request.body),
  );

  r.post(
    '/api/im/download/',
    {
      config: { ...SECURITY_DATA, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Generated information sheet (PDF) by ISIN', body: ImDownloadRequestSchema },
    },
    async (request, reply) => sendPdf(reply, await service.imPdf(request.body.isin)),
  );

  r.post(
    '/api/bond-details/:id/download/',
    {
      config: { ...SECURITY_DATA, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Bond details (PDF)', params: FinstrumentIdParamsSchema, body: EmptyBodySchema },
    },
    async (request, reply) => sendPdf(reply, await service.bondDetailsPdf(request.params.id)),
  );

  r.post(
    '/api/quote/:id/download/',
    {
      config: { ...SECURITY_DATA_PREMIUM, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Quote sheet (PDF) for the pricing inputs (Premium)',
        params: FinstrumentIdParamsSchema,
        body: QuoteDownloadRequestSchema,
      },
    },
    async (request, reply) => sendPdf(reply, await service.quotePdf(request.params.id, request.body)),
  );
}
