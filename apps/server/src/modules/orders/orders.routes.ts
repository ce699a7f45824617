/**
 * The orders' HTTP edge (spec trading-domain §7 "Orders"; ours: the blotter export and the contract note).
 * Every call exists for both kinds: `api/orders/…` is the seller's side of a ticket, `api/procurement-orders/…`
 * the buyer's; the spec's methods differ only for modify (PUT on orders, PATCH on procurement orders).
 * Reading is for the dealers, viewers and back office of a Premium firm (the `/client/transactions` route rule);
 * acting is for its traders (dealers with trade access), never view-only roles.
 */
import {
  ORDER_EXPORT_FORMATS,
  OrderAcceptRejectSchema,
  OrderCancelSchema,
  OrderIdParamsSchema,
  OrderListSchema,
  OrderModifySchema,
  OrderReportSchema,
  OrderSchema,
  OrderUnifiedQuerySchema,
  SettleCancelBodySchema,
  SettleCancelParamsSchema,
  type AccessPolicy,
  type OrderKind,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { typedJsonSerializer } from '../../lib/typed-json';
import { ordersCsv, ordersXlsx } from './orders.documents';
import type { OrdersService } from './orders.service';

/** `/client/transactions` (spec route rules): dealers, viewers and back office; Premium; the API also answers compliance. */
// Compliance officers read the firm's trades too (issue 16: "reads all of the own firm's chats and trades"), view only.
const READ: AccessPolicy = {
  kind: 'authenticated',
  roles: ['clientdealer', 'clientviewer', 'backoffice', 'complianceofficer'],
  premium: true,
};
/** Only traders act: dealers with trade access; view-only roles never. */
const TRADE: AccessPolicy = {
  kind: 'authenticated',
  roles: ['clientdealer'],
  permissions: ['client.can_trade'],
  write: true,
  premium: true,
};

const OrderExportQuerySchema = OrderUnifiedQuerySchema.omit({ page: true, page_size: true, paginate: true }).extend({
  format: z.enum(ORDER_EXPORT_FORMATS, { error: 'format should be csv or xlsx.' }).default('csv'),
});
const PATHS: Record<OrderKind, string> = { order: '/api/orders', procurement: '/api/procurement-orders' };
const TITLE: Record<OrderKind, string> = { order: 'order (seller)', procurement: 'procurement order (buyer)' };

export function registerOrdersRoutes(app: FastifyInstance, orders: OrdersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['orders'];

  r.get(
    '/api/orders/unified/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: "The firm's orders and procurement orders: state, kind, search, filters (JSON), page, page_size, paginate",
        querystring: OrderUnifiedQuerySchema,
        response: { 200: OrderListSchema },
      },
      // Rows built field by field by `toOrder` (typed); the per-request zod check was 17 % of the route's CPU.
      serializerCompiler: typedJsonSerializer,
    },
    async (request) => orders.list(request.principal!, request.query),
  );

  r.get(
    '/api/orders/unified/export/',
    {
      config: { policy: READ },
      schema: {
        tags,
        summary: 'The filtered blotter as CSV (formula-safe, UTF-8) or XLSX, at most 50,000 rows',
        querystring: OrderExportQuerySchema,
      },
    },
    async (request, reply) => {
      const rows = await orders.exportRows(request.principal!, request.query);
      const day = new Date().toISOString().slice(0, 10);
      const xlsx = request.query.format === 'xlsx';
      return reply
        .header('content-type', xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${day}.${xlsx ? 'xlsx' : 'csv'}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(xlsx ? await ordersXlsx(rows, app.deps.config.productName) : ordersCsv(rows));
    },
  );

  for (const kind of ['order', 'procurement'] as const) {
    const base = PATHS[kind];
    const what = TITLE[kind];

    r.post(
      `${base}/`,
      {
        config: { policy: TRADE, idempotent: true },
        schema: {
          tags,
          summary: `Report the firm's ${what} of a confirmed ticket now (again after a mismatch); the existing one otherwise`,
          body: OrderReportSchema,
          response: { 200: OrderSchema },
        },
      },
      async (request) => orders.report(request.principal!, kind, request.body.ticket_id, request.audit()),
    );

    r.get(
      `${base}/:id/`,
      {
        config: { policy: READ },
        schema: { tags, summary: `One ${what} of the firm`, params: OrderIdParamsSchema, response: { 200: OrderSchema } },
      },
      async (request) => orders.get(request.principal!, kind, request.params.id),
    );

    r.get(
      `${base}/:id/contract-note/`,
      {
        config: { policy: READ },
        schema: { tags, summary: `Contract note (PDF) of a reported ${what}`, params: OrderIdParamsSchema },
      },
      async (request, reply) => {
        const note = await orders.contractNote(request.principal!, kind, request.params.id);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${note.filename}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(note.body);
      },
    );

    r.put(
      `${base}/:id/accept-reject/`,
      {
        config: { policy: TRADE, idempotent: true },
        schema: {
          tags,
          summary: `Accept or reject (the consideration: cancels the trade) a reported ${what}`,
          params: OrderIdParamsSchema,
          body: OrderAcceptRejectSchema,
          response: { 200: OrderSchema },
        },
      },
      async (request) => orders.acceptReject(request.principal!, kind, request.params.id, request.body, request.audit()),
    );

    r.post(
      `${base}/:id/cancel/`,
      {
        config: { policy: TRADE, idempotent: true },
        schema: {
          tags,
          summary: `Cancel the trade of a ${what} before it settles (both sides, with the reason)`,
          params: OrderIdParamsSchema,
          body: OrderCancelSchema,
          response: { 200: OrderSchema },
        },
      },
      async (request) => orders.cancel(request.principal!, kind, request.params.id, request.body, request.audit()),
    );

    // spec §7: PUT on orders, PATCH on procurement orders.
    r.route({
      method: kind === 'order' ? 'PUT' : 'PATCH',
      url: `${base}/:id/modify/`,
      config: { policy: TRADE, idempotent: true },
      schema: {
        tags,
        summary: `Modify this side's report of a ${what} before the venue matched it (re-reported at once)`,
        params: OrderIdParamsSchema,
        body: OrderModifySchema,
        response: { 200: OrderSchema },
      },
      handler: async (request) => orders.modify(request.principal!, kind, request.params.id, request.body, request.audit()),
    });

    r.patch(
      `${base}/settle-cancel/:id/:action/`,
      {
        config: { policy: TRADE, idempotent: true },
        schema: {
          tags,
          summary: `A failed settlement of a ${what}: settle (run the pay-in again) or cancel (the trade)`,
          params: SettleCancelParamsSchema,
          body: SettleCancelBodySchema,
          response: { 200: OrderSchema },
        },
      },
      async (request) =>
        orders.settleCancel(request.principal!, kind, request.params.id, request.params.action, request.body, request.audit()),
    );
  }
}
