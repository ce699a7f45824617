/**
 * The chat HTTP edge (spec trading-domain §7 "Chat session and history", "Chat and tickets").
 * Every route declares its policy; writes are `write: true` (view-only roles → 403 VIEW_ONLY); all
 * but the session and terms routes need the chat terms accepted (403 CHAT_TERMS_REQUIRED).
 */
import {
  BanSchema,
  CHAT_FILE_TYPES,
  CHAT_LIMITS,
  CHAT_MESSAGES,
  ChannelCreateSchema,
  ChannelListQuerySchema,
  ChannelListSchema,
  ChannelMessageParamsSchema,
  ChannelSchema,
  ChannelUrlParamsSchema,
  chatIdSchema,
  ChatExportSchema,
  ChatMessageSchema,
  ChatSessionRemoveSchema,
  ChatSessionRequestSchema,
  ChatSessionTokenSchema,
  ChatTermsSchema,
  ChatUserListSchema,
  ChatUserSearchQuerySchema,
  EditMessageSchema,
  FileUploadQuerySchema,
  InviteUsersSchema,
  MessageListQuerySchema,
  MessageListSchema,
  OperatorsUpdateSchema,
  ReceiptUpdateSchema,
  SendMessageSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, fieldError } from '../../lib/errors';
import { acceptRawBody } from '../../lib/raw-body';
import { replaceUnsafe, type ChatService } from './chat.service';

const READ: AccessPolicy = { kind: 'authenticated' };
const WRITE: AccessPolicy = { kind: 'authenticated', write: true };
const Detail = z.object({ detail: z.string() });
const Receipts = z.object({ read_position: z.number().int(), delivered_position: z.number().int() });
const DeliveredAnswer = z.object({
  throttled: z.boolean(),
  read_position: z.number().int().optional(),
  delivered_position: z.number().int().optional(),
});
const FileParams = z.strictObject({ id: chatIdSchema });
const RemoveQuery = z.strictObject({ userId: chatIdSchema.optional() });

/** RFC 6266: an ASCII fallback plus the UTF-8 name; quotes, separators and control characters removed. */
function contentDisposition(name: string): string {
  const safe = replaceUnsafe(name, '"\\/');
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_') || 'file';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

export function registerChatRoutes(app: FastifyInstance, chat: ChatService): void {
  const tags = ['chat'];
  const actor = (request: FastifyRequest) => chat.actorOf(request.principal!.userId);

  void app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    // ---- sessions and terms (no terms gate) ----
    r.post(
      '/api/issue-sb-session-token',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Issue a chat session token for the chat socket (userId must be your own)',
          body: ChatSessionRequestSchema,
          response: { 200: ChatSessionTokenSchema },
        },
      },
      async (request) => chat.issueSession(request.principal!.userId, request.principal!.sessionId, request.body.userId, request.audit()),
    );
    r.delete(
      '/api/remove-sb-session',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Revoke every chat session of the caller (userId in the query or body); open chat sockets close 4403',
          querystring: RemoveQuery,
          body: ChatSessionRemoveSchema.nullish(),
          response: { 200: z.object({ revoked: z.number().int() }) },
        },
      },
      async (request) => {
        const requested = request.body?.userId ?? request.query.userId;
        if (!requested) throw fieldError('userId', 'This field is required');
        return chat.removeSessions(request.principal!.userId, requested, request.audit());
      },
    );
    r.patch(
      '/api/client/chat-terms/',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Accept the chat terms (chat is blocked until then)',
          body: ChatTermsSchema,
          response: { 200: z.object({ has_accepted_chat_terms: z.literal(true) }) },
        },
      },
      async (request) => chat.acceptTerms(request.principal!.userId, request.audit()),
    );

    // ---- people ----
    r.get(
      '/api/chatter/user/search',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Search chat users by name, e-mail or firm; empty search_param = suggested list (connections first)',
          querystring: ChatUserSearchQuerySchema,
          response: { 200: ChatUserListSchema },
        },
      },
      async (request) => chat.searchUsers(await actor(request), request.query),
    );
    r.post(
      '/api/chatter/invite-users',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Invite users to a group, trading group or broadcast channel',
          body: InviteUsersSchema,
          response: { 200: ChannelSchema },
        },
      },
      async (request) => chat.invite(await actor(request), request.body.channel_url, request.body.sendbird_user_ids, request.audit()),
    );

    // ---- channels ----
    r.get(
      '/api/chat/channels/',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'My channels (spec §5 rules), newest activity first; `next` pages on',
          querystring: ChannelListQuerySchema,
          response: { 200: ChannelListSchema },
        },
      },
      async (request) => chat.listChannels(await actor(request), request.query),
    );
    r.post(
      '/api/chat/channels/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Create a channel (isDistinct direct: the existing one comes back with 200)',
          body: ChannelCreateSchema,
          response: { 200: ChannelSchema, 201: ChannelSchema },
        },
      },
      async (request, reply) => {
        const { channel, created } = await chat.createChannel(await actor(request), request.body, request.audit());
        return reply.status(created ? 201 : 200).send(channel);
      },
    );
    r.get(
      '/api/chat/channels/:url/',
      {
        config: { policy: READ },
        schema: { tags, summary: 'One channel (refresh)', params: ChannelUrlParamsSchema, response: { 200: ChannelSchema } },
      },
      async (request) => chat.getChannel(await actor(request), request.params.url),
    );
    r.get(
      '/api/chat/channels/:url/messages/',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Messages: latest page, `before` a position (load previous) or `after` one (load next)',
          params: ChannelUrlParamsSchema,
          querystring: MessageListQuerySchema,
          response: { 200: MessageListSchema },
        },
      },
      async (request) => chat.listMessages(await actor(request), request.params.url, request.query),
    );
    r.post(
      '/api/chat/channels/:url/messages/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Send a user message; the same reqId again returns the stored message (200)',
          params: ChannelUrlParamsSchema,
          body: SendMessageSchema,
          response: { 200: ChatMessageSchema, 201: ChatMessageSchema },
        },
      },
      async (request, reply) => {
        const result = await chat.sendMessage(await actor(request), request.params.url, request.body);
        return reply.status(result.replayed ? 200 : 201).send(result.message);
      },
    );
    r.patch(
      '/api/chat/channels/:url/messages/:messageId/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Edit an own message (previous versions kept)',
          params: ChannelMessageParamsSchema,
          body: EditMessageSchema,
          response: { 200: ChatMessageSchema },
        },
      },
      async (request) =>
        chat.editMessage(await actor(request), request.params.url, request.params.messageId, request.body.message, request.audit()),
    );
    r.delete(
      '/api/chat/channels/:url/messages/:messageId/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Delete an own message (kept for the compliance export)',
          params: ChannelMessageParamsSchema,
          response: { 200: ChatMessageSchema },
        },
      },
      async (request) => chat.deleteMessage(await actor(request), request.params.url, request.params.messageId, request.audit()),
    );
    r.post(
      '/api/chat/channels/:url/read/',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Mark read up to a position (monotonic)',
          params: ChannelUrlParamsSchema,
          body: ReceiptUpdateSchema,
          response: { 200: Receipts },
        },
      },
      async (request) => chat.markRead(await actor(request), request.params.url, request.body.position),
    );
    r.post(
      '/api/chat/channels/:url/delivered/',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Mark delivered up to a position (at most one write per 1000 ms per channel; later ones are merged)',
          params: ChannelUrlParamsSchema,
          body: ReceiptUpdateSchema,
          response: { 200: DeliveredAnswer },
        },
      },
      async (request) => chat.markDelivered(await actor(request), request.params.url, request.body.position),
    );
    for (const [action, summary] of [
      ['accept', 'Accept an invitation'],
      ['decline', 'Decline an invitation (group: the inviter is told; direct: the channel goes away)'],
      ['leave', 'Leave the channel'],
    ] as const)
      r.post(
        `/api/chat/channels/:url/${action}/`,
        {
          config: { policy: WRITE, idempotent: true },
          schema: {
            tags,
            summary,
            params: ChannelUrlParamsSchema,
            response: { 200: action === 'accept' ? ChannelSchema : Detail },
          },
        },
        async (request) => {
          const who = await actor(request);
          if (action === 'accept') return chat.accept(who, request.params.url, request.audit());
          if (action === 'decline') return chat.decline(who, request.params.url, request.audit());
          return chat.leave(who, request.params.url, request.audit());
        },
      );
    r.post(
      '/api/chat/channels/:url/operators/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Add or remove operators (operators only)',
          params: ChannelUrlParamsSchema,
          body: OperatorsUpdateSchema,
          response: { 200: ChannelSchema },
        },
      },
      async (request) => chat.updateOperators(await actor(request), request.params.url, request.body, request.audit()),
    );
    r.post(
      '/api/chat/channels/:url/ban/',
      {
        config: { policy: WRITE, idempotent: true },
        schema: {
          tags,
          summary: 'Ban a member (operators only): removed at once, cannot come back',
          params: ChannelUrlParamsSchema,
          body: BanSchema,
          response: { 200: ChannelSchema },
        },
      },
      async (request) => chat.ban(await actor(request), request.params.url, request.body.user_id, request.audit()),
    );
    r.get(
      '/api/chat/files/:id/',
      {
        config: { policy: READ },
        schema: { tags, summary: 'Download a chat file (members of a channel carrying it)', params: FileParams },
      },
      async (request, reply) => {
        const { file, bytes } = await chat.download(await actor(request), request.params.id);
        return reply
          .header('content-type', file.mimeType)
          .header('content-disposition', contentDisposition(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(bytes);
      },
    );
    r.post(
      '/api/download-chats',
      {
        config: { policy: READ },
        schema: {
          tags,
          summary: 'Transcript of one channel in a time range (text file): members, or compliance officers of a member firm',
          body: ChatExportSchema,
        },
      },
      async (request, reply) => {
        const { fileName, text } = await chat.exportChat(await actor(request), request.body, request.audit());
        return reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', contentDisposition(fileName))
          .send(text);
      },
    );

    // ---- file upload: the raw body is the file; its own parser lives in this scope only ----
    await scope.register(async (upload) => {
      // Every content type reaches the handler as bytes (so a wrong type gets the chat message, not 415).
      acceptRawBody(upload, CHAT_LIMITS.fileMaxBytes, () => new AppError('PAYLOAD_TOO_LARGE', CHAT_MESSAGES.fileTooLarge));
      upload.withTypeProvider<ZodTypeProvider>().post(
        '/api/chat/channels/:url/files/',
        {
          config: { policy: WRITE, idempotent: true },
          bodyLimit: CHAT_LIMITS.fileMaxBytes + 1024,
          schema: {
            tags,
            summary: `Send a file message: the request body is the file, Content-Type its mime type (${CHAT_FILE_TYPES.length} types allowed)`,
            params: ChannelUrlParamsSchema,
            querystring: FileUploadQuerySchema,
            response: { 200: ChatMessageSchema, 201: ChatMessageSchema },
          },
        },
        async (request, reply) => {
          const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const result = await chat.sendFile(await actor(request), request.params.url, {
            reqId: request.query.reqId,
            fileName: request.query.fileName,
            mimeType: String(request.headers['content-type'] ?? ''),
            bytes,
          });
          return reply.status(result.replayed ? 200 : 201).send(result.message);
        },
      );
    });
  });
}
