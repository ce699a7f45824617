/** The book's HTTP edge (spec §7 Inventory; README "Calls"). Every write is idempotent (Idempotency-Key). */
import {
  CashflowCalendarQuerySchema,
  CashflowCalendarSchema,
  ConfirmPreviousResultSchema,
  ConfirmPreviousSchema,
  EditValuationCostSchema,
  ExternalTradeSchema,
  INVENTORY_MESSAGES,
  INVENTORY_UPLOAD_MAX_BYTES,
  InventoryListQuerySchema,
  InventoryMovementSchema,
  InventoryOfferSchema,
  InventorySchema,
  InventoryTemplateQuerySchema,
  InventoryUploadErrorSchema,
  InventoryUploadResultSchema,
  PositionSchema,
  QuoteSchema,
  type Inventory,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fieldError } from '../../lib/errors';
import { INVENTORY_OFFER, INVENTORY_READ, INVENTORY_WRITE, type InventoryService } from './inventory.service';
import { InventoryRowsError, templateCsv, templateXlsx } from './inventory.upload';

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The raw-body types the upload accepts; the file type itself is decided by its magic bytes. */
const UPLOAD_BODY_TYPES = [CSV, XLSX, 'application/vnd.ms-excel', 'application/octet-stream'];
const WRITE = { policy: INVENTORY_WRITE, idempotent: true };

export function registerInventoryRoutes(app: FastifyInstance, inventory: InventoryService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['inventory'];

  r.get(
    '/api/inventory/',
    {
      config: { policy: INVENTORY_READ },
      schema: {
        tags,
        summary: "The firm's book valued on the reference price waterfall: a page of holdings, totals and breakdowns",
        querystring: InventoryListQuerySchema,
        response: { 200: InventorySchema },
      },
    },
    // The answer is JSON in UTF-8 already, checked against InventorySchema when it was cut (README "Speed"):
    // Fastify sends a Buffer as it is, without the schema's serialiser or encoding 40 KB again. The cast only tells
    // the type provider so; the schema above still documents the answer.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send((await inventory.listJson(request.principal!, request.query)) as unknown as Inventory),
  );
  r.get(
    '/api/inventory/cashflows/',
    {
      config: { policy: INVENTORY_READ },
      schema: {
        tags,
        summary: "The book's coupons and redemptions paid in the next 30 or 90 days (days)",
        querystring: CashflowCalendarQuerySchema,
        response: { 200: CashflowCalendarSchema },
      },
    },
    async (request) => inventory.cashflows(request.principal!, request.query.days),
  );
  r.get(
    '/api/inventory/upload/template/',
    {
      config: { policy: INVENTORY_READ },
      schema: {
        tags,
        summary: 'The holdings upload template (CSV or XLSX) with its columns and two example rows',
        querystring: InventoryTemplateQuerySchema,
      },
    },
    async (request, reply) => {
      const xlsx = request.query.format === 'xlsx';
      return reply
        .header('content-type', xlsx ? XLSX : `${CSV}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="dart-inventory-template.${xlsx ? 'xlsx' : 'csv'}"`)
        .header('x-content-type-options', 'nosniff')
        .send(xlsx ? await templateXlsx() : templateCsv());
    },
  );
  // The upload takes the file itself as the body (CSV or XLSX); its parser lives in this scope only.
  app.register(async (scope) => {
    scope.addContentTypeParser(UPLOAD_BODY_TYPES, { parseAs: 'buffer', bodyLimit: INVENTORY_UPLOAD_MAX_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/inventory/upload/',
      {
        config: WRITE,
        bodyLimit: INVENTORY_UPLOAD_MAX_BYTES,
        schema: {
          tags,
          summary: 'Holdings upload: a CSV or XLSX file as the body; every row valid or nothing imported (400 with row_errors)',
          response: { 201: InventoryUploadResultSchema, 400: InventoryUploadErrorSchema },
        },
      },
      async (request, reply) => {
        const file = request.body;
        if (!Buffer.isBuffer(file)) throw fieldError('file', INVENTORY_MESSAGES.unsupported);
        try {
          return reply.status(201).send(await inventory.upload(request.principal!, file, request.audit()));
        } catch (error) {
          if (!(error instanceof InventoryRowsError)) throw error;
          const errors: Record<string, string[]> = {};
          for (const e of error.rowErrors) (errors[`row_${e.row}.${e.field}`] ??= []).push(e.message);
          return reply.status(400).send({ code: 'VALIDATION_FAILED', message: error.message, errors, row_errors: error.rowErrors });
        }
      },
    );
  });
  r.post(
    '/api/inventory/external-trade/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Record a trade done outside Dart: it moves the holding at weighted-average cost (realised P&L on sells)',
        body: ExternalTradeSchema,
        response: { 201: InventoryMovementSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await inventory.externalTrade(request.principal!, request.body, request.audit())),
  );
  r.put(
    '/api/inventory/edit-valuation-cost/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "A holding's valuation cost (clean per ₹100): its unrealised P&L moves with it",
        body: EditValuationCostSchema,
        response: { 200: PositionSchema },
      },
    },
    async (request) => inventory.editValuationCost(request.principal!, request.body, request.audit()),
  );
  r.put(
    '/api/inventory/confirm-previous/',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Confirm the reviewed previous day's book (book_date) and carry it forward to today",
        body: ConfirmPreviousSchema,
        response: { 200: ConfirmPreviousResultSchema },
      },
    },
    async (request) => inventory.confirmPrevious(request.principal!, request.body, request.audit()),
  );
  r.post(
    '/api/inventory/offer/',
    {
      config: { policy: INVENTORY_OFFER, idempotent: true },
      schema: {
        tags,
        summary: 'Offer a holding as a public run, a private run or an exchange RFQ (an ASK; never more than is held)',
        body: InventoryOfferSchema,
        response: { 201: QuoteSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await inventory.offer(request.principal!, request.body, request.audit())),
  );
}
