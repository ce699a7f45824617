/**
 * Chat (issue 6): Dart's own messaging service, replacing the chat SaaS of the original product.
 * Shapes follow spec trading-domain §3 (chat channel, chat message, channel creation payload), the
 * rules of §4 (messaging connection), §5 (channel list), §6, §7 (chat session and history), §8 (chat
 * errors) and §9 (chat constants).
 *
 * Transport: REST for everything that changes state or pages history, and one WebSocket per browser
 * tab at `CHAT_PATH` for live delivery. The socket authenticates with a chat session token from
 * `POST /api/issue-sb-session-token`, never with the access token.
 *
 * Order and durability: the database is the truth. Every message gets the next `position` of its
 * channel (1, 2, 3 … with no gaps), and every edit or delete the next `change_seq` of its channel. A
 * client that reconnects sends, per channel it holds, the last position (and change sequence) it has;
 * the server replays exactly the changes and the messages after them, in order, once, then goes live.
 * Wire names are snake_case like the rest of the API, except where the spec names a field in
 * camelCase (channel and message fields, the creation payload), which keep the spec's spelling.
 */
import { z } from 'zod';
import { findBadText } from './text';

export const CHAT_PATH = '/ws/chat/';
export const CHAT_PROTOCOL_VERSION = 1;

/** Channel kinds (spec §3 customType). */
export const CHANNEL_TYPES = ['direct', 'group', 'trading group', 'broadcast'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const MESSAGE_TYPES = ['user', 'file', 'admin'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MEMBER_STATES = ['joined', 'invited'] as const;
export const CONNECTION_STATUSES = ['online', 'offline'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Spec §9 constants plus our own where the spec says "taken from configuration; values not shown". */
export const CHAT_LIMITS = {
  /** Messages a user may send per second, over all channels (issue 6). */
  messagesPerSecond: 5,
  markDeliveredThrottleMs: 1000,
  buzzDurationMs: 2000,
  channelRefreshIntervalMs: 10 * 60_000,
  channelRefreshBatchSize: 5,
  channelRefreshBatchPauseMs: 60_000,
  channelVisibilityThreshold: 0.1,
  scrollBottomTolerancePx: 20,
  userSearchPageSize: 20,
  /** Our choices for the values the spec leaves to configuration. */
  channelPageSizeDefault: 20,
  channelPageSizeMax: 100,
  messagePageSizeDefault: 30,
  messagePageSizeMax: 100,
  messageMaxLength: 5000,
  channelNameMaxLength: 100,
  groupMaxMembers: 100,
  broadcastMaxMembers: 500,
  /** Most messages replayed per channel on resume; beyond it the server sends `resync`. */
  resumeLimitPerChannel: 500,
  fileMaxBytes: 10 * 1024 * 1024,
  /** Chat session tokens live 12 hours; the socket re-issues on 4401. */
  sessionTokenTtlSeconds: 12 * 3600,
  typingTimeoutMs: 5000,
  /**
   * A user whose last chat socket (on any node) closed is announced offline only after this long
   * without a new one, so a reconnect or a page reload does not flap the online dot.
   */
  presenceOfflineDelayMs: 5000,
} as const;

/** File types a chat file message may carry (by mime type). */
export const CHAT_FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
] as const;

/** Spec wording (§4, §8) and ours where it is silent. */
export const CHAT_MESSAGES = {
  declined: (nickname: string) => `${nickname} declined your request`,
  sdkNotInitialised: 'Chat is not initialised.',
  noUserFound: 'No user found.',
  noCurrentChannel: 'No channel is selected.',
  fileUploadFailed: 'Error uploading file',
  termsRequired: 'Accept the chat terms to use chat.',
  notMember: 'You are not a member of this channel.',
  notOperator: 'Only an operator of this channel can do this.',
  channelNotFound: 'Channel not found.',
  messageNotFound: 'Message not found.',
  banned: 'You have been removed from this channel.',
  tooManyMessages: 'You are sending messages too fast. Please wait a moment.',
  /** A dependency (Redis) is down: the API's own 503 wording (plugins/errors.ts), so REST and socket say the same. */
  serviceUnavailable: 'Service temporarily unavailable.',
  fileTooLarge: `Files can be at most ${CHAT_LIMITS.fileMaxBytes / (1024 * 1024)} MB.`,
  fileTypeNotAllowed: 'This file type cannot be sent in chat.',
  emptyMessage: 'Type a message.',
  directNeedsOne: 'A direct chat is with exactly one other user.',
  cannotInviteSelf: 'You cannot invite yourself.',
  userNotFound: 'One or more users were not found.',
  notEditable: 'You can only change your own messages.',
  rangeRequired: 'The end time should be after the start time.',
} as const;

/** WebSocket close codes of the chat socket and what the client does (spec §8). */
export const CHAT_CLOSE = {
  /** Token missing, invalid or expired: fetch a new chat session token and reconnect. */
  tokenInvalid: 4401,
  /** Session revoked, user deactivated, deleted or not found: clear the chat cache and state. */
  sessionEnded: 4403,
  /** Over the per-user socket cap, or more than 30 frames a second: do not retry at once. */
  policyViolation: 1008,
  goingAway: 1001,
  /** A frame over `WS.maxPayloadBytes` (64 KB). */
  tooBig: 1009,
  /** RFC 6455 "Try Again Later": a dependency (Redis, the database) is down, or the socket fell too far behind; reconnect with back-off. */
  tryAgainLater: 1013,
} as const;

/** Ids and channel urls are ours (uuids, `dart_<type>_<hex>`): letters, digits, `_` and `-` only, so a
 * NUL byte or a path never reaches a query. */
export const chatIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'Invalid id.' });
const channelUrl = chatIdSchema;
const userId = chatIdSchema;
const isoDateTime = z.iso.datetime({ offset: true, error: 'Should be a date-time (ISO 8601).' });

// ---- session ----------------------------------------------------------------------------------

/** `POST /api/issue-sb-session-token`: userId must be the caller's own id. */
export const ChatSessionRequestSchema = z.strictObject({ userId });
export const ChatSessionTokenSchema = z.object({ token: z.string(), expires_at: z.string(), user_id: z.string() });
/** `DELETE /api/remove-sb-session` (query or body userId): revokes every chat session of the caller. */
export const ChatSessionRemoveSchema = z.strictObject({ userId });

// ---- people -----------------------------------------------------------------------------------

export const ChatMemberSchema = z.object({
  userId: z.string(),
  /** Staff members show the product name to others (spec §6). */
  nickname: z.string(),
  role: z.enum(['operator', 'none']),
  connectionStatus: z.enum(CONNECTION_STATUSES),
  state: z.enum(MEMBER_STATES),
  metaData: z.object({
    is_staff: z.boolean(),
    client_id: z.string(),
    brand_name: z.string(),
    is_active: z.boolean(),
    data: z.record(z.string(), z.unknown()),
  }),
  /** Receipts: the highest message position this member has read / has had delivered. */
  read_position: z.number().int(),
  delivered_position: z.number().int(),
});
export type ChatMember = z.infer<typeof ChatMemberSchema>;

/** `GET api/chatter/user/search` (spec §7): empty search_param gives the suggested list. */
export const ChatUserSearchQuerySchema = z.strictObject({
  search_param: z.string().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(CHAT_LIMITS.userSearchPageSize).default(CHAT_LIMITS.userSearchPageSize),
  connections_only: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export const ChatUserSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  client_id: z.string(),
  brand_name: z.string(),
  is_staff: z.boolean(),
  /** False until the user has accepted the chat terms; direct channels with them are hidden (spec §5). */
  onboarded: z.boolean(),
  is_connection: z.boolean(),
});
export const ChatUserListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(ChatUserSchema),
  suggested: z.boolean(),
});

// ---- messages ---------------------------------------------------------------------------------

/** A link preview of Dart's own links (a bond `/find/...`, a quote); other sites are never fetched. */
export const OgMetaDataSchema = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(['bond', 'quote']),
});

export const ChatFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  type: z.string(),
  url: z.string(),
});

export const ChatMessageSchema = z.object({
  messageId: z.string(),
  /** The sender's request id (idempotency and matching the optimistic copy); null for admin messages. */
  reqId: z.string().nullable(),
  channelUrl: z.string(),
  position: z.number().int(),
  messageType: z.enum(MESSAGE_TYPES),
  /** Mime type for file messages; null otherwise. */
  type: z.string().nullable(),
  message: z.string(),
  ogMetaData: OgMetaDataSchema.nullable(),
  data: z.record(z.string(), z.unknown()),
  customType: z.string().nullable(),
  file: ChatFileSchema.nullable(),
  sender: z.object({ userId: z.string(), nickname: z.string(), is_staff: z.boolean() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

const messageData = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 4000, { error: 'Message data is too large.' })
  .refine((v) => !JSON.stringify(v).includes('\\u0000'), { error: 'Text cannot contain the NUL character.' });
/** PostgreSQL text cannot hold NUL; the socket path has no HTTP input guard, so the schema refuses it. */
const noNul = (value: string) => !value.includes('\u0000');
export const SendMessageSchema = z.strictObject({
  reqId: z.string().min(1).max(100).refine(noNul, { error: 'Invalid request id.' }),
  message: z
    .string()
    .trim()
    .min(1, { error: CHAT_MESSAGES.emptyMessage })
    .max(CHAT_LIMITS.messageMaxLength)
    .refine(noNul, { error: 'Text cannot contain the NUL character.' }),
  data: messageData.default({}),
  customType: z.string().max(50).nullable().default(null),
});
export type SendMessage = z.input<typeof SendMessageSchema>;
export const EditMessageSchema = z.strictObject({
  message: z.string().trim().min(1, { error: CHAT_MESSAGES.emptyMessage }).max(CHAT_LIMITS.messageMaxLength),
});
/** File upload: the raw file is the request body (Content-Type = its mime type); these are the query. */
export const FileUploadQuerySchema = z.strictObject({
  reqId: z.string().min(1).max(100),
  fileName: z.string().trim().min(1).max(200),
});
/** Load previous (`before`) or next (`after`) messages; neither = the latest page. */
export const MessageListQuerySchema = z.strictObject({
  before: z.coerce.number().int().min(1).optional(),
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_LIMITS.messagePageSizeMax).default(CHAT_LIMITS.messagePageSizeDefault),
});
export const MessageListSchema = z.object({
  messages: z.array(ChatMessageSchema),
  has_more: z.boolean(),
  /**
   * The channel's change sequence when the page was read: the page shows every edit and delete up to
   * it. A client resumes with it (see `ChatCursorSchema`) to be sent the edits and deletes it missed.
   */
  change_seq: z.number().int(),
});
export const ReceiptUpdateSchema = z.strictObject({ position: z.number().int().min(0) });

// ---- channels ---------------------------------------------------------------------------------

export const ChannelSchema = z.object({
  url: z.string(),
  customType: z.enum(CHANNEL_TYPES),
  name: z.string(),
  memberCount: z.number().int(),
  members: z.array(ChatMemberSchema),
  lastMessage: z
    .object({
      data: z.record(z.string(), z.unknown()),
      message: z.string(),
      customType: z.string().nullable(),
      sender: z.string().nullable(),
      createdAt: z.string(),
      position: z.number().int(),
    })
    .nullable(),
  /** Highest message position in the channel (0 = empty). */
  lastPosition: z.number().int(),
  createdAt: z.string(),
  invitedAt: z.string().nullable(),
  inviter: z.object({ userId: z.string(), nickname: z.string() }).nullable(),
  creator: z.object({ userId: z.string(), nickname: z.string() }).nullable(),
  myMemberState: z.enum(MEMBER_STATES),
  myRole: z.enum(['operator', 'none']),
  unreadMessageCount: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  is_whatsapp_linked_channel: z.boolean(),
});
export type Channel = z.infer<typeof ChannelSchema>;

/** Spec §3 channel creation payload. */
export const ChannelCreateSchema = z
  .strictObject({
    isDistinct: z.boolean().default(false),
    invitedUserIds: z.array(userId).min(1).max(CHAT_LIMITS.broadcastMaxMembers),
    operatorUserIds: z.array(userId).max(CHAT_LIMITS.groupMaxMembers).default([]),
    name: z.string().trim().max(CHAT_LIMITS.channelNameMaxLength).default(''),
    customType: z.enum(CHANNEL_TYPES),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((value, ctx) => {
    if (value.customType === 'direct' && value.invitedUserIds.length !== 1)
      ctx.addIssue({ code: 'custom', path: ['invitedUserIds'], message: CHAT_MESSAGES.directNeedsOne });
    if (value.customType !== 'direct' && value.customType !== 'broadcast' && value.invitedUserIds.length > CHAT_LIMITS.groupMaxMembers)
      ctx.addIssue({ code: 'custom', path: ['invitedUserIds'], message: `A group has at most ${CHAT_LIMITS.groupMaxMembers} members.` });
    if (value.customType !== 'direct' && value.name.length === 0)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'This field is required' });
  });
export type ChannelCreate = z.input<typeof ChannelCreateSchema>;
export const ChannelUrlParamsSchema = z.strictObject({ url: channelUrl });
export const ChannelMessageParamsSchema = z.strictObject({ url: channelUrl, messageId: chatIdSchema });
export const ChannelListQuerySchema = z.strictObject({
  /** Opaque cursor from the previous page's `next`. */
  token: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_LIMITS.channelPageSizeMax).default(CHAT_LIMITS.channelPageSizeDefault),
  customType: z.enum(CHANNEL_TYPES).optional(),
});
export const ChannelListSchema = z.object({ channels: z.array(ChannelSchema), next: z.string().nullable() });
/** `POST api/chatter/invite-users` (spec §7): the chat provider's user ids are Dart user ids. */
export const InviteUsersSchema = z.strictObject({
  channel_url: channelUrl,
  sendbird_user_ids: z.array(userId).min(1).max(CHAT_LIMITS.groupMaxMembers),
});
export const OperatorsUpdateSchema = z.strictObject({
  add: z.array(userId).max(100).default([]),
  remove: z.array(userId).max(100).default([]),
});
export const BanSchema = z.strictObject({ user_id: userId });

// ---- terms, export ----------------------------------------------------------------------------

export const ChatTermsSchema = z.strictObject({ has_accepted_chat_terms: z.literal(true) });
/** `POST /api/download-chats` (spec §7): one channel, a time range; answers a text transcript file. */
export const ChatExportSchema = z
  .strictObject({ startTime: isoDateTime, endTime: isoDateTime, channelIds: z.array(channelUrl).length(1) })
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), { path: ['endTime'], error: CHAT_MESSAGES.rangeRequired });

// ---- socket protocol --------------------------------------------------------------------------

/**
 * What a client holds of one channel, sent on resume: the last position (a bare number, the first
 * form of the protocol, still accepted) or `{position, change_seq}`, adding the channel's change
 * sequence up to which the client holds every edit and delete (from `MessageList.change_seq` and the
 * `change_seq` of `message_updated` / `message_deleted` frames).
 */
export const ChatCursorSchema = z.union([
  z.number().int().min(0),
  z.strictObject({ position: z.number().int().min(0), change_seq: z.number().int().min(0).optional() }),
]);
export type ChatCursor = z.infer<typeof ChatCursorSchema>;

const chatClientFrames = z.discriminatedUnion('type', [
  /** First message. `cursors`: channel url → what the client holds of it (resume). */
  z.strictObject({
    type: z.literal('auth'),
    token: z.string().min(1).max(4000),
    cursors: z.record(channelUrl, ChatCursorSchema).default({}),
  }),
  z.strictObject({ type: z.literal('ping') }),
  z.strictObject({ type: z.literal('send'), channel_url: channelUrl, ...SendMessageSchema.shape }),
  z.strictObject({ type: z.literal('typing'), channel_url: channelUrl, typing: z.boolean() }),
  z.strictObject({ type: z.literal('read'), channel_url: channelUrl, position: z.number().int().min(0) }),
  /** Clients send at most one per channel per `markDeliveredThrottleMs`; the server enforces it too. */
  z.strictObject({ type: z.literal('delivered'), channel_url: channelUrl, position: z.number().int().min(0) }),
]);
/**
 * The socket has no HTTP input guard: NUL or a lone surrogate anywhere in a frame (a value or a key) is
 * refused here, with the HTTP guard's messages, before it can reach a text or jsonb column.
 */
export const ChatClientMessageSchema = chatClientFrames.superRefine((frame, ctx) => {
  const bad = findBadText(frame);
  if (bad) ctx.addIssue({ code: 'custom', path: bad.path === 'non_field_errors' ? [] : bad.path.split('.'), message: bad.message });
});
export type ChatClientMessage = z.input<typeof ChatClientMessageSchema>;

export const CHANNEL_EVENTS = [
  'created',
  'updated',
  'invited',
  'joined',
  'declined',
  'left',
  'banned',
  'operators',
  'message_updated',
  'message_deleted',
] as const;

export const ChatServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth_ok'), version: z.literal(CHAT_PROTOCOL_VERSION), user_id: z.string() }),
  z.object({ type: z.literal('pong') }),
  /** A message of a channel, at its position; delivered exactly once, in order per channel. */
  z.object({ type: z.literal('message'), channel_url: z.string(), position: z.number().int(), message: ChatMessageSchema }),
  /** Answer to a socket `send`: the stored message, or why it was refused. */
  z.object({ type: z.literal('ack'), reqId: z.string(), message: ChatMessageSchema }),
  /**
   * `code` as the REST error would carry it: RATE_LIMITED (too fast), SERVICE_UNAVAILABLE (a dependency
   * is down: nothing was stored, send again with the same reqId after `retry_after` seconds), …
   */
  z.object({
    type: z.literal('nack'),
    reqId: z.string(),
    code: z.string(),
    message: z.string(),
    retry_after: z.number().int().min(0).optional(),
  }),
  /** Channel changes; `channel` is the channel as the receiver sees it (null once they are out of it). */
  z.object({
    type: z.literal('channel'),
    event: z.enum(CHANNEL_EVENTS),
    channel_url: z.string(),
    channel: ChannelSchema.nullable(),
    /** Who did it / who it concerns (e.g. the decliner, the banned user). */
    actor: z.object({ userId: z.string(), nickname: z.string() }).nullable(),
    target_user_ids: z.array(z.string()),
    message: ChatMessageSchema.nullable(),
    /**
     * `message_updated` / `message_deleted`: the channel's change sequence of this change. Per channel
     * per connection they arrive once and in order, like positions; a resume replays the changes after
     * the client's `change_seq` (same frame, the message as it is now) before `resumed`.
     */
    change_seq: z.number().int().optional(),
  }),
  z.object({
    type: z.literal('receipt'),
    channel_url: z.string(),
    user_id: z.string(),
    read_position: z.number().int(),
    delivered_position: z.number().int(),
  }),
  z.object({ type: z.literal('typing'), channel_url: z.string(), user_id: z.string(), nickname: z.string(), typing: z.boolean() }),
  /**
   * A user who shares a channel with the receiver came online (their first chat socket anywhere) or
   * went offline (their last one closed, `presenceOfflineDelayMs` ago). Sets that member's
   * `connectionStatus` in every channel the receiver holds.
   */
  z.object({ type: z.literal('presence'), user_id: z.string(), connection_status: z.enum(CONNECTION_STATUSES) }),
  /** More was missed than `resumeLimitPerChannel`: reload the channel's latest page over REST. */
  z.object({ type: z.literal('resync'), channel_url: z.string() }),
  /** Sent after the replay of every cursor is done; live messages follow. */
  z.object({ type: z.literal('resumed') }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type ChatServerMessage = z.infer<typeof ChatServerMessageSchema>;

/**
 * Private runs sent into a chat (spec §1: "private runs (quotes sent from chats)"). The sender first
 * creates a private quote addressed to the firms of the channel's other members (POST
 * api/trade/eoi/ with `counterparties`), then sends a message with `customType: 'private_run'` and
 * `data: { quote_id }`. The server checks the quote is the sender's firm's, private, and addressed to
 * every other firm in the channel, then stores the card below in `data.private_run` and writes the
 * text itself; whatever text and data the client sent are replaced, so a card cannot be forged.
 */
export const PRIVATE_RUN_CUSTOM_TYPE = 'private_run';
export const PrivateRunSendDataSchema = z.strictObject({ quote_id: z.uuid({ error: 'Not a quote id.' }) });
export const PrivateRunCardSchema = z.object({
  quote_id: z.string(),
  quote_type: z.enum(['BID', 'ASK']),
  finstrument_id: z.number().int(),
  isin: z.string(),
  display_name: z.string(),
  /** Fraction, 6 dp (0.0791 = 7.91 %). */
  yield_stored: z.number(),
  /** Clean price per 100, 4 dp. */
  unit_price_stored: z.number(),
  /** Face value in rupees (issue 12 §1). */
  quantum: z.number(),
  /** Rupees of face value in one bond (bonds = quantum ÷ this); absent on cards sent before issue 12. */
  face_value_per_bond: z.number().optional(),
  settlement_date: z.string(),
  expiry_date_stored: z.string(),
});
export type PrivateRunCard = z.infer<typeof PrivateRunCardSchema>;
export const PRIVATE_RUN_MESSAGES = {
  notFound: 'Quote not found.',
  notYours: 'You can only send your own firm’s quotes.',
  notPrivate: 'Only a private run can be sent into a chat; publish other quotes to the market.',
  notAddressed: 'This private run is not sent to every firm in this chat.',
  notOpen: 'This quote is no longer open.',
  noOtherFirm: 'Nobody from another firm is in this chat.',
} as const;
