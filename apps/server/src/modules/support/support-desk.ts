/**
 * The `SupportDesk` interface (the spec's Intercom calls under `ext/`) and Dart's built-in desk: tickets are
 * stored with their conversation and attachments, Dart Support staff work a queue (reply, change status),
 * requesters list their tickets with status, replies and an unread count, and every step e-mails through the
 * Mailer (the dev outbox here). Each write is one transaction with its audit row, its outbox event and the
 * idempotency fence. No Fastify types here (routes are support.routes.ts).
 */
import {
  ACCOUNT_TOPICS,
  isClientOpsAdmin,
  parseSupportTicketIds,
  SUPPORT_MESSAGES,
  SUPPORT_REQUEST_TYPE_LABELS,
  SUPPORT_REQUEST_TYPE_TICKET_TYPES,
  SUPPORT_TICKET_STATUS_LABELS,
  SUPPORT_TICKET_STATUSES,
  SupportQueueQuerySchema,
  SupportReplySchema,
  SupportGrantUpgradeSchema,
  SupportStatusChangeSchema,
  SupportTicketCreateSchema,
  SupportTicketCreatedSchema,
  SupportTicketListQuerySchema,
  SupportTicketListSchema,
  supportToastFor,
  supportTicketTypeOf,
  type SupportAttachment,
  type SupportRequestType,
  type SupportTicket,
  type SupportTicketStatus,
  type SupportTicketSummary,
  type SupportTicketType,
} from '@dart/contracts';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import { appendEvent, publishAll } from '../../lib/events';
import type { BusMessage } from '../../lib/bus';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { checkAttachment, safeFileName } from './support.files';
import * as repo from './support.repository';

type Created = z.infer<typeof SupportTicketCreatedSchema>;
type List = z.infer<typeof SupportTicketListSchema>;
export type SupportActor = Pick<Principal, 'userId' | 'clientId' | 'email' | 'roles'>;

/** The spec's support calls. The built-in desk is Dart's own; an external desk (Intercom) would implement the same. */
export interface SupportDesk {
  readonly kind: 'builtin';
  /** The ticket type ids in force (`SUPPORT_TICKET_IDS`). */
  readonly ticketTypeIds: Readonly<Record<SupportTicketType, number>>;
  uploadAttachment(
    actor: SupportActor,
    file: { fileName: string; mimeType: string; bytes: Buffer },
    audit: AuditContext,
  ): Promise<SupportAttachment>;
  createTicket(actor: SupportActor, input: z.output<typeof SupportTicketCreateSchema>, audit: AuditContext): Promise<Created>;
  listTickets(actor: SupportActor, query: z.output<typeof SupportTicketListQuerySchema>): Promise<List>;
  unread(actor: SupportActor): Promise<{ unread: number; tickets: number }>;
  getTicket(actor: SupportActor, id: string): Promise<SupportTicket>;
  markRead(actor: SupportActor, id: string, audit: AuditContext): Promise<{ unread: number; tickets: number }>;
  reply(actor: SupportActor, id: string, input: z.output<typeof SupportReplySchema>, audit: AuditContext): Promise<SupportTicket>;
  queue(actor: SupportActor, query: z.output<typeof SupportQueueQuerySchema>): Promise<List>;
  /** Whether the caller is Dart Support staff (the web shows the queue to them only). */
  isStaff(actor: SupportActor): Promise<boolean>;
  changeStatus(
    actor: SupportActor,
    id: string,
    input: z.output<typeof SupportStatusChangeSchema>,
    audit: AuditContext,
  ): Promise<SupportTicket>;
  /** Staff: the requester's Basic firm moves to Premium on an access request, which is resolved with a reply. */
  grantUpgrade(
    actor: SupportActor,
    id: string,
    input: z.output<typeof SupportGrantUpgradeSchema>,
    audit: AuditContext,
  ): Promise<SupportTicket>;
  attachment(actor: SupportActor, ticketId: string, attachmentId: string): Promise<{ name: string; mimeType: string; bytes: Buffer }>;
}

const notFound = () => new AppError('NOT_FOUND', SUPPORT_MESSAGES.ticketNotFound);
const staffOnly = () => new AppError('FORBIDDEN', SUPPORT_MESSAGES.staffOnly);
const attachmentUrl = (ticketId: string | null, id: string) => (ticketId ? `/ext/tickets/${ticketId}/attachments/${id}/` : null);

export function createBuiltinSupportDesk(deps: AppDeps): SupportDesk {
  const { database, bus, mailer, files, config } = deps;
  const db = database.db;
  const ids = parseSupportTicketIds(config.supportTicketIds);
  const product = config.productName;

  const attachmentView = (row: repo.AttachmentRow): SupportAttachment => ({
    id: row.id,
    name: row.name,
    type: row.mimeType,
    size: row.size,
    url: attachmentUrl(row.ticketId, row.id),
  });

  const summaryOf = (row: repo.TicketListRow, actor: SupportActor): SupportTicketSummary => ({
    id: row.id,
    number: row.number,
    title: row.title,
    ticket_type: row.ticketType as SupportTicketType,
    ticket_type_id: row.ticketTypeId,
    request_type: row.requestType as SupportRequestType | null,
    status: row.status as SupportTicketStatus,
    status_label: SUPPORT_TICKET_STATUS_LABELS[row.status as SupportTicketStatus],
    requester: {
      id: row.userId,
      name: row.requesterName,
      email: row.requesterEmail,
      client_id: row.clientId,
      client_name: row.clientName,
      client_tier: row.clientTier === 'PREMIUM' ? 'PREMIUM' : 'BASIC',
    },
    reply_count: row.replyCount,
    unread_replies: row.userId === actor.userId ? Math.max(0, row.staffReplies - row.requesterSeenReplies) : 0,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  /** Who may see a ticket: its requester, an ops admin of its firm, Dart Support. Anyone else: 404. */
  async function visibleTicket(tx: DbOrTx, actor: SupportActor, id: string, staff: boolean) {
    const row = await repo.ticketById(tx, id);
    if (!row) throw notFound();
    const allowed = staff || row.userId === actor.userId || (row.clientId === actor.clientId && isClientOpsAdmin(actor));
    if (!allowed) throw notFound();
    return row;
  }

  async function fullView(tx: DbOrTx, actor: SupportActor, row: repo.TicketListRow): Promise<SupportTicket> {
    const [messages, attachments] = await Promise.all([repo.messagesOf(tx, row.id), repo.attachmentsOf(tx, row.id)]);
    return {
      ...summaryOf(row, actor),
      description: row.description,
      extras: row.extras,
      attachments: attachments.filter((a) => a.messageId === null).map(attachmentView),
      messages: messages.map((m) => ({
        id: m.id,
        author: m.isStaff ? 'staff' : 'user',
        // Staff answer under the product's support name, as in chat (spec §6).
        author_name: m.isStaff ? `${product} Support` : m.authorName,
        body: m.body,
        attachments: attachments.filter((a) => a.messageId === m.id).map(attachmentView),
        created_at: m.createdAt.toISOString(),
      })),
    };
  }

  /** Runs a write with its event(s) and the idempotency fence in one transaction; publishes after commit. */
  async function write<T>(work: (tx: Tx, emit: (event: BusMessage) => void) => Promise<T>): Promise<T> {
    const emitted: BusMessage[] = [];
    const result = await db.transaction(async (tx) => {
      const value = await work(tx, (event) => emitted.push(event));
      await fenceIdempotency(tx);
      return value;
    });
    await publishAll(bus, emitted);
    return result;
  }

  const ticketEvent = (tx: Tx, row: Pick<repo.TicketRow, 'id' | 'number' | 'status' | 'clientId' | 'userId'>, action: string) =>
    appendEvent(tx, {
      topic: 'support.ticket_changed',
      clientId: row.clientId,
      // Ids and status only: the firm's other sockets learn that something changed, never what was written.
      payload: { ticket_id: row.id, number: row.number, status: row.status, user_id: row.userId, action },
    });

  const subjectOf = (row: Pick<repo.TicketRow, 'number' | 'title'>) => `${product} Support #${row.number}: ${row.title}`;

  async function takeAttachments(tx: Tx, actor: SupportActor, attachmentIds: readonly string[], field: string) {
    const unique = [...new Set(attachmentIds)];
    const found = await repo.lockUnusedAttachments(tx, actor.userId, unique);
    if (found.length !== unique.length) throw fieldError(field, SUPPORT_MESSAGES.attachmentNotFound);
    return unique;
  }

  return {
    kind: 'builtin',
    ticketTypeIds: ids,

    async uploadAttachment(actor, file, audit) {
      const mime = checkAttachment(file.mimeType, file.bytes);
      const name = safeFileName(file.fileName);
      // Scanned in `put` (an infected file is refused and never written); stored before the row that names it.
      const stored = await files.put(file.bytes);
      const row = await write(async (tx) => {
        const created = await repo.insertAttachment(tx, {
          uploaderId: actor.userId,
          clientId: actor.clientId,
          storageKey: stored.key,
          name,
          mimeType: mime,
          size: stored.size,
          sha256: stored.sha256,
        });
        await writeAudit(tx, audit, {
          action: 'support.attachment_uploaded',
          entity: 'support_attachment',
          entityId: created.id,
          after: { name, type: mime, size: stored.size },
        });
        return created;
      });
      return attachmentView(row);
    },

    async createTicket(actor, input, audit) {
      const type = supportTicketTypeOf(ids, input.ticket_type_id);
      if (!type) throw fieldError('ticket_type_id', SUPPORT_MESSAGES.unknownTicketType);
      const attributes = input.ticket_attributes;
      const requestType = attributes.request_type ?? null;
      if (requestType && SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType] !== type)
        throw fieldError(
          'ticket_type_id',
          SUPPORT_MESSAGES.typeMismatch(
            SUPPORT_REQUEST_TYPE_LABELS[requestType].toLowerCase(),
            SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType],
          ),
        );
      if (!requestType && type !== 'feedback') throw fieldError('ticket_attributes.request_type', SUPPORT_MESSAGES.requestTypeRequired);
      for (const contact of input.contacts)
        if ((contact.id && contact.id !== actor.userId) || (contact.email && contact.email.toLowerCase() !== actor.email.toLowerCase()))
          throw fieldError('contacts', SUPPORT_MESSAGES.contactsSelf);
      // Intercom's attribute names (spec §7), read once.
      const { _default_description_: description, _default_title_: givenTitle } = attributes;
      const title =
        givenTitle ||
        (requestType ? SUPPORT_REQUEST_TYPE_LABELS[requestType] : 'Feedback') +
          `: ${description.length > 60 ? `${description.slice(0, 57)}...` : description}`;

      const ticket = await write(async (tx, emit) => {
        const attachmentIds = await takeAttachments(tx, actor, attributes.attachment_ids, 'ticket_attributes.attachment_ids');
        const row = await repo.insertTicket(tx, {
          clientId: actor.clientId,
          userId: actor.userId,
          ticketType: type,
          ticketTypeId: input.ticket_type_id,
          requestType,
          title,
          description,
          extras: attributes.extras,
        });
        await repo.attachToTicket(tx, attachmentIds, row.id, null);
        await writeAudit(tx, audit, {
          action: 'support.ticket_created',
          entity: 'support_ticket',
          entityId: row.id,
          after: { number: row.number, ticket_type: type, request_type: requestType, attachments: attachmentIds.length },
        });
        const toast = supportToastFor(type, requestType);
        await mailer.send(
          { to: actor.email, subject: subjectOf(row), text: `${toast}\n\nYour request:\n${description}\n\nReference: #${row.number}` },
          tx,
        );
        for (const staff of await repo.staffEmails(tx))
          await mailer.send(
            {
              to: staff,
              subject: `New ${type} ticket ${subjectOf(row)}`,
              text: `From ${actor.email}.\n\n${description}\n\nAttachments: ${attachmentIds.length}`,
            },
            tx,
          );
        emit(await ticketEvent(tx, row, 'created'));
        return row;
      });
      return {
        id: ticket.id,
        number: ticket.number,
        ticket_type: type,
        ticket_type_id: ticket.ticketTypeId,
        request_type: requestType,
        status: ticket.status as SupportTicketStatus,
        detail: supportToastFor(type, requestType),
      };
    },

    async listTickets(actor, query) {
      if (query.scope === 'firm' && !isClientOpsAdmin(actor)) throw new AppError('FORBIDDEN', SUPPORT_MESSAGES.firmScopeOpsAdmin);
      const filter = query.scope === 'firm' ? { clientId: actor.clientId } : { userId: actor.userId };
      const { count, rows } = await repo.listTickets(
        db,
        { ...filter, ...(query.status ? { statuses: [query.status] } : {}) },
        { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      );
      return { count, page: query.page, page_size: query.page_size, results: rows.map((row) => summaryOf(row, actor)) };
    },

    unread: (actor) => repo.unreadOf(db, actor.userId),

    async getTicket(actor, id) {
      const staff = await repo.isStaff(db, actor.userId);
      return fullView(db, actor, await visibleTicket(db, actor, id, staff));
    },

    async markRead(actor, id, audit) {
      await write(async (tx) => {
        const row = await visibleTicket(tx, actor, id, false);
        // Only the requester's own reading clears the badge; an ops admin looking on changes nothing.
        if (row.userId !== actor.userId || row.staffReplies === row.requesterSeenReplies) return;
        await repo.markRepliesSeen(tx, id);
        await writeAudit(tx, audit, {
          action: 'support.ticket_read',
          entity: 'support_ticket',
          entityId: id,
          after: { number: row.number, replies_read: row.staffReplies },
        });
      });
      return repo.unreadOf(db, actor.userId);
    },

    async reply(actor, id, input, audit) {
      const staff = await repo.isStaff(db, actor.userId);
      const row = await write(async (tx, emit) => {
        const locked = await repo.lockTicket(tx, id);
        if (!locked) throw notFound();
        const view = await visibleTicket(tx, actor, id, staff);
        // Ops admins read their firm's tickets; the conversation is between the requester and Dart Support.
        if (!staff && view.userId !== actor.userId) throw new AppError('FORBIDDEN', SUPPORT_MESSAGES.staffOnly);
        if (locked.status === 'closed') throw new AppError('CONFLICT', SUPPORT_MESSAGES.closed);
        const attachmentIds = await takeAttachments(tx, actor, input.attachment_ids, 'attachment_ids');
        const message = await repo.insertMessage(tx, { ticketId: id, authorId: actor.userId, isStaff: staff, body: input.body });
        await repo.attachToTicket(tx, attachmentIds, id, message.id);
        // A staff answer starts the work; the requester's answer puts it back with the desk.
        const status: SupportTicketStatus = staff
          ? locked.status === 'open'
            ? 'in_progress'
            : (locked.status as SupportTicketStatus)
          : locked.status === 'waiting_on_customer'
            ? 'in_progress'
            : locked.status === 'resolved'
              ? 'open'
              : (locked.status as SupportTicketStatus);
        const updated = await repo.updateTicket(tx, id, {
          status,
          ...(staff ? { staffReplies: locked.staffReplies + 1 } : {}),
        });
        await writeAudit(tx, audit, {
          action: 'support.ticket_replied',
          entity: 'support_ticket',
          entityId: id,
          before: { status: locked.status },
          after: { number: locked.number, by: staff ? 'staff' : 'requester', status, attachments: attachmentIds.length },
        });
        if (staff)
          await mailer.send(
            {
              to: view.requesterEmail,
              subject: `Re: ${subjectOf(locked)}`,
              text: `${product} Support replied:\n\n${input.body}\n\nStatus: ${SUPPORT_TICKET_STATUS_LABELS[status]}`,
            },
            tx,
          );
        else
          for (const address of await repo.staffEmails(tx))
            await mailer.send({ to: address, subject: `Re: ${subjectOf(locked)}`, text: `${actor.email} replied:\n\n${input.body}` }, tx);
        emit(await ticketEvent(tx, updated, 'replied'));
        return updated;
      });
      return fullView(db, actor, (await repo.ticketById(db, row.id))!);
    },

    async isStaff(actor) {
      return repo.isStaff(db, actor.userId);
    },

    async queue(actor, query) {
      if (!(await repo.isStaff(db, actor.userId))) throw staffOnly();
      const { count, rows } = await repo.listTickets(
        db,
        { statuses: query.status ? [query.status] : repo.OPEN_STATUSES },
        { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      );
      return { count, page: query.page, page_size: query.page_size, results: rows.map((row) => summaryOf(row, actor)) };
    },

    async changeStatus(actor, id, input, audit) {
      if (!(await repo.isStaff(db, actor.userId))) throw staffOnly();
      if (!(SUPPORT_TICKET_STATUSES as readonly string[]).includes(input.status)) throw fieldError('status', 'Choose a valid status.');
      await write(async (tx, emit) => {
        const locked = await repo.lockTicket(tx, id);
        if (!locked) throw notFound();
        if (locked.version !== input.version)
          throw new AppError('CONFLICT', 'This request changed since you opened it. Reload it and try again.');
        if (locked.status === 'closed') throw new AppError('CONFLICT', SUPPORT_MESSAGES.closed);
        if (locked.status === input.status)
          throw new AppError('CONFLICT', `This request is already ${SUPPORT_TICKET_STATUS_LABELS[input.status].toLowerCase()}.`);
        const updated = await repo.updateTicket(tx, id, { status: input.status });
        await writeAudit(tx, audit, {
          action: 'support.ticket_status_changed',
          entity: 'support_ticket',
          entityId: id,
          before: { status: locked.status },
          after: { number: locked.number, status: input.status },
        });
        const requester = await repo.userEmail(tx, locked.userId);
        if (requester)
          await mailer.send(
            {
              to: requester,
              subject: `${subjectOf(locked)} is ${SUPPORT_TICKET_STATUS_LABELS[input.status].toLowerCase()}`,
              text: `Your request #${locked.number} is now ${SUPPORT_TICKET_STATUS_LABELS[input.status]}.`,
            },
            tx,
          );
        emit(await ticketEvent(tx, updated, 'status'));
      });
      return fullView(db, actor, (await repo.ticketById(db, id))!);
    },

    async grantUpgrade(actor, id, input, audit) {
      if (!(await repo.isStaff(db, actor.userId))) throw staffOnly();
      const granted = await write(async (tx, emit) => {
        const locked = await repo.lockTicket(tx, id);
        if (!locked) throw notFound();
        if (locked.version !== input.version)
          throw new AppError('CONFLICT', 'This request changed since you opened it. Reload it and try again.');
        if (locked.status === 'closed') throw new AppError('CONFLICT', SUPPORT_MESSAGES.closed);
        if (locked.ticketType !== 'access') throw new AppError('CONFLICT', SUPPORT_MESSAGES.upgradeNotAccess);
        const tier = await repo.lockClientTier(tx, locked.clientId);
        if (tier === 'PREMIUM') throw new AppError('CONFLICT', SUPPORT_MESSAGES.alreadyPremium);
        await repo.setClientTier(tx, locked.clientId, 'PREMIUM');
        const body = `Your organisation is now on the Premium plan. Sign-ins refresh on their own; every Premium page is open to your team.`;
        await repo.insertMessage(tx, { ticketId: id, authorId: actor.userId, isStaff: true, body });
        const updated = await repo.updateTicket(tx, id, { status: 'resolved', staffReplies: locked.staffReplies + 1 });
        await writeAudit(tx, audit, {
          action: 'support.upgrade_granted',
          entity: 'client',
          entityId: locked.clientId,
          before: { tier },
          after: { tier: 'PREMIUM', ticket: locked.number },
        });
        const requester = await repo.userEmail(tx, locked.userId);
        if (requester)
          await mailer.send({ to: requester, subject: `Re: ${subjectOf(locked)}`, text: `${product} Support replied:\n\n${body}` }, tx);
        emit(await ticketEvent(tx, updated, 'upgrade_granted'));
        emit(
          await appendEvent(tx, {
            topic: ACCOUNT_TOPICS.upgradeGranted,
            clientId: locked.clientId,
            payload: { ticket_id: id, number: locked.number, tier: 'PREMIUM', user_id: locked.userId },
          }),
        );
        return { clientId: locked.clientId, userIds: await repo.clientUserIds(tx, locked.clientId) };
      });
      // Cached principals and open sockets of the firm's users pick up the new plan (as a role change does).
      for (const userId of granted.userIds) await bus.publish({ topic: 'auth.user_changed', payload: { userId } }).catch(() => undefined);
      return fullView(db, actor, (await repo.ticketById(db, id))!);
    },

    async attachment(actor, ticketId, attachmentId) {
      const staff = await repo.isStaff(db, actor.userId);
      await visibleTicket(db, actor, ticketId, staff);
      const row = await repo.attachmentById(db, attachmentId);
      if (!row || row.ticketId !== ticketId) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.attachmentNotFound);
      const bytes = await files.get(row.storageKey);
      if (!bytes) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.attachmentNotFound);
      return { name: row.name, mimeType: row.mimeType, bytes };
    },
  };
}
