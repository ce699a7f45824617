/**
 * Find's remaining calls (issue 17 §3). Public like /find and the security page: the categories, info v2
 * and the market quote (the composite mark). Signed in: the quote calculation and the client's list (its
 * open-quote counts are the caller's own firm's). Security-data permission: the master quote (every
 * source of the waterfall, like the trades list). All are reads: view-only roles may call them.
 */
import {
  CategoriesRequestSchema,
  CategoriesResponseSchema,
  ClientFinstrumentListRequestSchema,
  ClientFinstrumentListSchema,
  FinstrumentIdParamsSchema,
  FinstrumentInfoV2Schema,
  MarketQuoteSchema,
  MasterQuoteSchema,
  QuoteCalcRequestSchema,
  QuoteCalcSchema,
  SettlementRequestSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FindCallsService } from './find-calls.service';

const PUBLIC: { policy: AccessPolicy } = { policy: { kind: 'public' } };
const SIGNED_IN: { policy: AccessPolicy } = { policy: { kind: 'authenticated' } };
const SECURITY_DATA: { policy: AccessPolicy } = {
  policy: { kind: 'authenticated', permissions: ['finstruments.has_security_data_access'] },
};

export function registerFindCallsRoutes(app: FastifyInstance, service: FindCallsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['finstruments'];

  r.post(
    '/api/categories/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Find filter categories with the count of bonds per value (faceted by category_values and filters)',
        body: CategoriesRequestSchema,
        response: { 200: CategoriesResponseSchema },
      },
    },
    async (request) => service.categories(request.body),
  );

  r.post(
    '/api/client-finstrument-list/',
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: "Bonds by category values and filters, with the reference's age and the caller's firm's open quotes",
        body: ClientFinstrumentListRequestSchema,
        response: { 200: ClientFinstrumentListSchema },
      },
    },
    async (request) => service.clientList(request.principal!, request.body),
  );

  r.post(
    '/api/quote/market/:id/',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Market quote: the reference mark (mid) priced for settlement, its source and age, spread to the G-sec curve',
        params: FinstrumentIdParamsSchema,
        body: SettlementRequestSchema.nullish(),
        response: { 200: MarketQuoteSchema },
      },
    },
    async (request) => service.marketQuote(request.params.id, request.body ?? {}),
  );

  r.post(
    '/api/quote/:id/',
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'Quote calculation: price/yield, consideration, durations, PV01, spread to the curve and to the mark',
        params: FinstrumentIdParamsSchema,
        body: QuoteCalcRequestSchema,
        response: { 200: QuoteCalcSchema },
      },
    },
    async (request) => service.quote(request.params.id, request.body),
  );

  r.post(
    '/api/v1/finstrument/master/quote/:id',
    {
      config: SECURITY_DATA,
      schema: {
        tags,
        summary: 'Master quote: every reference source (close, trade, valuation, model) with its age; the chosen first',
        params: FinstrumentIdParamsSchema,
        body: SettlementRequestSchema.nullish(),
        response: { 200: MasterQuoteSchema },
      },
    },
    async (request) => service.masterQuote(request.params.id, request.body ?? {}),
  );

  r.get(
    '/api/v2/finstrument/info/:id',
    {
      config: PUBLIC,
      schema: {
        tags,
        summary: 'Security header and its T+1 pricing in one answer, with the mark’s source and age',
        params: FinstrumentIdParamsSchema,
        response: { 200: FinstrumentInfoV2Schema },
      },
    },
    async (request) => service.infoV2(request.params.id),
  );
}
