/**
 * The support desk's HTTP edge (spec §7 "Support": `POST ext/public/upload/` and the ticket endpoint under
 * `ext/`; README "Calls"). Every caller is signed in; view-only roles may raise and follow their own requests
 * (a support request is not a business write, as `POST api/support/requests/`). Staff-only calls are
 * declared `authenticated` and checked against `support_staff` in the desk (403 otherwise).
 */
import {
  LEGACY_SUPPORT_DEFAULT_TEXT,
  LEGACY_SUPPORT_KIND_REQUEST_TYPES,
  SUPPORT_LIMITS,
  SUPPORT_REQUEST_TYPE_TICKET_TYPES,
  SupportRequestCreatedSchema,
  SupportRequestSchema,
  SupportAttachmentParamsSchema,
  SupportAttachmentSchema,
  SupportGrantUpgradeSchema,
  SupportQueueQuerySchema,
  SupportReplySchema,
  SupportSettingsSchema,
  SupportStatusChangeSchema,
  SupportTicketCreateSchema,
  SupportTicketCreatedSchema,
  SupportTicketIdParamsSchema,
  SupportTicketListQuerySchema,
  SupportTicketListSchema,
  SupportTicketSchema,
  SupportUnreadSchema,
  SupportUploadQuerySchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { acceptRawBody } from '../../lib/raw-body';
import { safeFileName } from './support.files';
import type { SupportDesk } from './support-desk';

/** Any signed-in user, view-only roles included: raising and following a support request is not a business write. */
const SIGNED_IN: AccessPolicy = { kind: 'authenticated' };
/** Dart Support staff only: signed in here, then `support_staff` membership in the desk (403 `Only Dart Support can do this.`). */
const STAFF: AccessPolicy = { kind: 'authenticated' };
/** Submits: Idempotency-Key honoured; the global per-user rate limit applies (RATE_LIMIT_PER_MINUTE). */
const SUBMIT = { policy: SIGNED_IN, idempotent: true };

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(name: string): string {
  const safe = safeFileName(name).replace(/"/g, '_');
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_') || 'file';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

export async function registerSupportRoutes(app: FastifyInstance, desk: SupportDesk): Promise<void> {
  const tags = ['support'];
  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/ext/tickets/',
      {
        config: SUBMIT,
        schema: {
          tags,
          summary: 'Raise a support ticket: ticket_type_id (SUPPORT_TICKET_IDS), contacts (the caller), ticket_attributes',
          body: SupportTicketCreateSchema,
          response: { 201: SupportTicketCreatedSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await desk.createTicket(request.principal!, request.body, request.audit())),
    );
    // Ours, kept for API clients: the same desk ticket as `POST ext/tickets/` (README "Calls"), answered `{ id, detail }`.
    r.post(
      '/api/support/requests/',
      {
        config: { ...SUBMIT, rateLimit: { max: 10, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Raise a support request (upgrade, support, report_issue) as a desk ticket: shown in My requests and the queue',
          body: SupportRequestSchema,
          response: { 201: SupportRequestCreatedSchema },
        },
      },
      async (request, reply) => {
        const { kind, message, page } = request.body;
        const requestType = LEGACY_SUPPORT_KIND_REQUEST_TYPES[kind](page ?? '');
        const created = await desk.createTicket(
          request.principal!,
          {
            ticket_type_id: desk.ticketTypeIds[SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType]],
            contacts: [],
            ticket_attributes: {
              _default_description_: message || LEGACY_SUPPORT_DEFAULT_TEXT[kind],
              request_type: requestType,
              extras: page ? { page } : {},
              attachment_ids: [],
            },
          },
          request.audit(),
        );
        return reply.status(201).send({ id: created.id, detail: created.detail });
      },
    );
    r.get(
      '/ext/tickets/',
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: "My requests (scope=firm: an ops admin sees the organisation's), newest activity first",
          querystring: SupportTicketListQuerySchema,
          response: { 200: SupportTicketListSchema },
        },
      },
      async (request) => desk.listTickets(request.principal!, request.query),
    );
    r.get(
      '/ext/tickets/unread/',
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: 'The badge: staff replies I have not opened, and on how many tickets',
          response: { 200: SupportUnreadSchema },
        },
      },
      async (request) => desk.unread(request.principal!),
    );
    r.get(
      '/ext/tickets/:id/',
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: 'One ticket with its conversation and attachments (requester, ops admin of the firm, Dart Support)',
          params: SupportTicketIdParamsSchema,
          response: { 200: SupportTicketSchema },
        },
      },
      async (request) => desk.getTicket(request.principal!, request.params.id),
    );
    r.post(
      '/ext/tickets/:id/read/',
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: "The requester has read the ticket's replies (clears its part of the badge)",
          params: SupportTicketIdParamsSchema,
          response: { 200: SupportUnreadSchema },
        },
      },
      async (request) => desk.markRead(request.principal!, request.params.id, request.audit()),
    );
    r.post(
      '/ext/tickets/:id/reply/',
      {
        config: SUBMIT,
        schema: {
          tags,
          summary: 'Reply on a ticket: the requester, or Dart Support (e-mailed to the other side)',
          params: SupportTicketIdParamsSchema,
          body: SupportReplySchema,
          response: { 201: SupportTicketSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await desk.reply(request.principal!, request.params.id, request.body, request.audit())),
    );
    r.patch(
      '/ext/tickets/:id/status/',
      {
        config: { policy: STAFF, idempotent: true },
        schema: {
          tags,
          summary: 'Dart Support: change the status {status, version}',
          params: SupportTicketIdParamsSchema,
          body: SupportStatusChangeSchema,
          response: { 200: SupportTicketSchema },
        },
      },
      async (request) => desk.changeStatus(request.principal!, request.params.id, request.body, request.audit()),
    );
    r.post(
      '/ext/tickets/:id/grant-upgrade/',
      {
        config: { policy: STAFF, idempotent: true },
        schema: {
          tags,
          summary: "Dart Support (ours): the requester's Basic firm moves to Premium on an access request {version}; resolved with a reply",
          params: SupportTicketIdParamsSchema,
          body: SupportGrantUpgradeSchema,
          response: { 200: SupportTicketSchema },
        },
      },
      async (request) => desk.grantUpgrade(request.principal!, request.params.id, request.body, request.audit()),
    );
    r.get(
      '/ext/tickets/:id/attachments/:attachmentId/',
      {
        config: { policy: SIGNED_IN },
        schema: { tags, summary: 'Download an attachment of a ticket I may see', params: SupportAttachmentParamsSchema },
      },
      async (request, reply) => {
        const file = await desk.attachment(request.principal!, request.params.id, request.params.attachmentId);
        return reply
          .header('content-type', file.mimeType)
          .header('content-disposition', contentDisposition(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.bytes);
      },
    );
    r.get(
      '/ext/support/settings/',
      {
        config: { policy: SIGNED_IN },
        schema: {
          tags,
          summary: 'The ticket type ids the desk accepts (SUPPORT_TICKET_IDS) and whether the caller is Dart Support staff',
          response: { 200: SupportSettingsSchema },
        },
      },
      async (request) => ({ ticket_type_ids: { ...desk.ticketTypeIds }, staff: await desk.isStaff(request.principal!) }),
    );
    r.get(
      '/ext/support/queue/',
      {
        config: { policy: STAFF },
        schema: {
          tags,
          summary: 'Dart Support: the queue of every firm (open work unless a status is given), newest activity first',
          querystring: SupportQueueQuerySchema,
          response: { 200: SupportTicketListSchema },
        },
      },
      async (request) => desk.queue(request.principal!, request.query),
    );

    // ---- upload: the raw body is the file (Content-Type its type); its own parser lives in this scope only ----
    await scope.register(async (upload) => {
      acceptRawBody(
        upload,
        SUPPORT_LIMITS.fileMaxBytes,
        () => new AppError('PAYLOAD_TOO_LARGE', `Files can be at most ${SUPPORT_LIMITS.fileMaxBytes / (1024 * 1024)} MB.`),
      );
      upload.withTypeProvider<ZodTypeProvider>().post(
        '/ext/public/upload/',
        {
          config: SUBMIT,
          bodyLimit: SUPPORT_LIMITS.fileMaxBytes + 1024,
          schema: {
            tags,
            summary: 'Upload an attachment (the body is the file, Content-Type its type; virus-scanned before it is stored)',
            querystring: SupportUploadQuerySchema,
            response: { 201: SupportAttachmentSchema },
          },
        },
        async (request, reply) => {
          const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const attachment = await desk.uploadAttachment(
            request.principal!,
            { fileName: request.query.fileName, mimeType: String(request.headers['content-type'] ?? ''), bytes },
            request.audit(),
          );
          return reply.status(201).send(attachment);
        },
      );
    });
  });
}
