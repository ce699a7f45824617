/** Surveillance: the firm's audit trail for compliance officers (spec application §2 /surveillance). */
import { Readable } from 'node:stream';
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_FILTER_MESSAGES,
  AuditExportQuerySchema,
  AuditIntegritySchema,
  AuditListQuerySchema,
  AuditListSchema,
  AuditUserListSchema,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import type { AuditService } from './audit.service';

/**
 * Compliance officers of a Premium firm, read-only (spec: surveillance is for the compliance role).
 * Each sees the rows of their own firm's people only.
 */
const COMPLIANCE = { policy: { kind: 'authenticated', roles: ['complianceofficer'], premium: true } } as const;
const tags = ['surveillance'];

export function registerAuditRoutes(app: FastifyInstance, audit: AuditService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/surveillance/audit/',
    {
      config: COMPLIANCE,
      schema: {
        tags,
        summary: "Audit trail of the caller's firm: readable, filtered, paged (newest first)",
        querystring: AuditListQuerySchema,
        response: { 200: AuditListSchema },
      },
    },
    async (request) => audit.list(request.principal!.clientId, request.query),
  );

  r.get(
    '/api/surveillance/audit/users/',
    {
      config: COMPLIANCE,
      schema: { tags, summary: "People of the caller's firm, for the audit trail's user filter", response: { 200: AuditUserListSchema } },
    },
    async (request) => audit.users(request.principal!.clientId),
  );

  r.get(
    '/api/surveillance/audit/integrity/',
    {
      config: COMPLIANCE,
      schema: {
        tags,
        summary: "The audit trail's tamper evidence checked now: every row's hash and every seal (intact or not)",
        response: { 200: AuditIntegritySchema },
      },
    },
    async () => audit.integrity(),
  );

  r.get(
    '/api/surveillance/audit/export/',
    {
      config: COMPLIANCE,
      schema: {
        tags,
        summary: `The filtered audit trail as CSV (UTF-8, at most ${AUDIT_EXPORT_MAX_ROWS} rows, formula-safe cells)`,
        querystring: AuditExportQuerySchema,
      },
    },
    async (request, reply) => {
      const clientId = request.principal!.clientId;
      // Checked before the first byte: once the CSV streams, an error can only cut it short.
      if ((await audit.exportCount(clientId, request.query)) > AUDIT_EXPORT_MAX_ROWS)
        throw new AppError('BAD_REQUEST', AUDIT_FILTER_MESSAGES.exportTooLarge);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${audit.exportFileName()}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(audit.exportCsv(clientId, request.query)));
    },
  );
}
