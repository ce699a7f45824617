/**
 * Surveillance alerts' HTTP edge (issue 16 §1; the spec names no paths: README "Calls"). Compliance officers of a
 * Premium firm only, like the audit trail, each on the own firm's alerts (another firm's id: 404). Triage writes are
 * compliance records, not business writes: the compliance role is view-only on business data, so these routes carry
 * no `write` flag (README "Who may call").
 */
import {
  SurveillanceAlertDetailSchema,
  SurveillanceAlertIdParamsSchema,
  SurveillanceAlertListQuerySchema,
  SurveillanceAssignSchema,
  SurveillanceCloseSchema,
  SurveillanceCommentSchema,
  SurveillanceEscalateSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SurveillanceService } from './surveillance.service';

const COMPLIANCE: AccessPolicy = { kind: 'authenticated', roles: ['complianceofficer'], premium: true };
const TRIAGE = { policy: COMPLIANCE, idempotent: true };
const tags = ['surveillance'];

export function registerSurveillanceRoutes(app: FastifyInstance, service: SurveillanceService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/surveillance/alerts/',
    {
      config: { policy: COMPLIANCE },
      schema: {
        tags,
        summary:
          "The caller's firm's surveillance alerts, newest first: filtered by kind, status, assignee and IST days; paged " +
          '(JSON `{ results, count }`), or `format=csv` for the filtered list as a CSV file',
        querystring: SurveillanceAlertListQuerySchema,
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      if (request.query.format === 'csv') {
        const file = await service.exportCsv(principal, request.query, request.audit());
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(file.body);
      }
      return service.list(principal, request.query);
    },
  );

  r.get(
    '/api/surveillance/alerts/:id/',
    {
      config: { policy: COMPLIANCE },
      schema: {
        tags,
        summary: 'One alert with its evidence (the firm side only), the facts behind its score, linked alerts and triage history',
        params: SurveillanceAlertIdParamsSchema,
        response: { 200: SurveillanceAlertDetailSchema },
      },
    },
    async (request) => service.get(request.principal!, request.params.id),
  );

  r.get(
    '/api/surveillance/alerts/:id/evidence.pdf',
    {
      config: { policy: COMPLIANCE },
      schema: {
        tags,
        summary: 'The evidence pack as a PDF: the alert, chat excerpt, quotes, deal, ticket and orders, audit entries, triage history',
        params: SurveillanceAlertIdParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await service.evidencePdf(request.principal!, request.params.id, request.audit());
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  r.post(
    '/api/surveillance/alerts/:id/assign/',
    {
      config: TRIAGE,
      schema: {
        tags,
        summary: 'Assign the alert to a compliance officer of the firm (an escalated alert stays escalated)',
        params: SurveillanceAlertIdParamsSchema,
        body: SurveillanceAssignSchema,
        response: { 200: SurveillanceAlertDetailSchema },
      },
    },
    async (request) => service.assign(request.principal!, request.params.id, request.body, request.audit()),
  );

  r.post(
    '/api/surveillance/alerts/:id/comment/',
    {
      config: TRIAGE,
      schema: {
        tags,
        summary: 'Add a comment to the alert',
        params: SurveillanceAlertIdParamsSchema,
        body: SurveillanceCommentSchema,
        response: { 200: SurveillanceAlertDetailSchema },
      },
    },
    async (request) => service.comment(request.principal!, request.params.id, request.body, request.audit()),
  );

  r.post(
    '/api/surveillance/alerts/:id/escalate/',
    {
      config: TRIAGE,
      schema: {
        tags,
        summary: 'Escalate the alert (optional comment)',
        params: SurveillanceAlertIdParamsSchema,
        body: SurveillanceEscalateSchema,
        response: { 200: SurveillanceAlertDetailSchema },
      },
    },
    async (request) => service.escalate(request.principal!, request.params.id, request.body, request.audit()),
  );

  r.post(
    '/api/surveillance/alerts/:id/close/',
    {
      config: TRIAGE,
      schema: {
        tags,
        summary: 'Close the alert with a reason (required); a closed alert takes no further triage',
        params: SurveillanceAlertIdParamsSchema,
        body: SurveillanceCloseSchema,
        response: { 200: SurveillanceAlertDetailSchema },
      },
    },
    async (request) => service.close(request.principal!, request.params.id, request.body, request.audit()),
  );
}
