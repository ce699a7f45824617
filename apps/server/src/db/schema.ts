/**
 * The Drizzle schema: one source for both drivers (PGlite and node-postgres). Migrations in
 * ../../migrations are generated from it (`npm run db:generate -w @dart/server`) and applied at start.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Tenants. Exchange credentials are placeholders (references to a secret store), never secrets. */
export const clients = pgTable('clients', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  clientType: text('client_type').notNull(),
  clientMode: text('client_mode').notNull().default('SOFTWARE'),
  segment: text('segment').notNull().default('INSTITUTIONAL'),
  tier: text('tier').notNull().default('BASIC'),
  category: text('category'),
  pan: text('pan'),
  isBroker: boolean('is_broker').notNull().default(false),
  hasBrokers: boolean('has_brokers').notNull().default(false),
  tradesOnBooks: boolean('trades_on_books').notNull().default(false),
  allowedExchanges: text('allowed_exchanges').array().notNull().default(sql`ARRAY['NSE','BSE']::text[]`),
  allowedReportingExchanges: text('allowed_reporting_exchanges').array().notNull().default(sql`ARRAY['NSE','BSE']::text[]`),
  rfqExchanges: text('rfq_exchanges').array().notNull().default(sql`ARRAY[]::text[]`),
  stpExchanges: text('stp_exchanges').array().notNull().default(sql`ARRAY[]::text[]`),
  nsccl_name: text('nsccl_name'),
  iccl_name: text('iccl_name'),
  nscclCredentialsRef: text('nsccl_credentials_ref'),
  icclCredentialsRef: text('iccl_credentials_ref'),
  createdAt: createdAt(),
});

export const roles = pgTable('roles', { value: text('value').primaryKey(), label: text('label').notNull() });
export const permissions = pgTable('permissions', { code: text('code').primaryKey(), label: text('label').notNull() });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uniqueId: text('unique_id').notNull(),
    email: text('email').notNull(),
    mobile: text('mobile'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    pan: text('pan'),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    whatsappConsent: boolean('whatsapp_consent').notNull().default(false),
    singleScreenWaitlistJoined: boolean('single_screen_waitlist_joined').notNull().default(false),
    hasAcceptedChatTerms: boolean('has_accepted_chat_terms').notNull().default(false),
    securityPreferences: jsonb('security_preferences').$type<Record<string, boolean>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_mobile_key').on(t.mobile), uniqueIndex('users_unique_id_key').on(t.uniqueId)],
);

/** A user's membership of a client, with the roles and permissions it carries. */
export const userAccounts = pgTable(
  'user_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    status: text('status').notNull().default('active'),
    isDefault: boolean('is_default').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_accounts_user_client_key').on(t.userId, t.clientId), index('user_accounts_client_idx').on(t.clientId)],
);

export const userAccountRoles = pgTable(
  'user_account_roles',
  {
    userAccountId: uuid('user_account_id').notNull().references(() => userAccounts.id),
    role: text('role').notNull().references(() => roles.value),
  },
  (t) => [primaryKey({ columns: [t.userAccountId, t.role] })],
);

export const userAccountPermissions = pgTable(
  'user_account_permissions',
  {
    userAccountId: uuid('user_account_id').notNull().references(() => userAccounts.id),
    permission: text('permission').notNull().references(() => permissions.code),
  },
  (t) => [primaryKey({ columns: [t.userAccountId, t.permission] })],
);

/** A sign-in session = one refresh-token family. Revoking it ends every token of the family. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    userAccountId: uuid('user_account_id').notNull().references(() => userAccounts.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedReason: text('revoked_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** Refresh tokens, stored as SHA-256 hashes; `usedAt` set on rotation (reuse → family revoked). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id').notNull().references(() => authSessions.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** One-time passwords: hashed, expiring, attempt-limited, single-use, bound to one challenge. */
export const oneTimePasswords = pgTable(
  'one_time_passwords',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identity: text('identity').notNull(),
    channel: text('channel').notNull(),
    requestType: text('request_type').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    invalidatedAt: timestamp('invalidated_at', { withTimezone: true, mode: 'date' }),
    verificationHash: text('verification_hash'),
    verificationExpiresAt: timestamp('verification_expires_at', { withTimezone: true, mode: 'date' }),
    verificationUsedAt: timestamp('verification_used_at', { withTimezone: true, mode: 'date' }),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('otp_identity_idx').on(t.identity, t.createdAt), index('otp_ip_idx').on(t.ip, t.createdAt), index('otp_verification_idx').on(t.verificationHash)],
);

export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    email: text('email').notNull(),
    roles: text('roles').array().notNull(),
    permissions: text('permissions').array().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invites_token_key').on(t.tokenHash)],
);

/**
 * Append-only, hash-chained audit trail of every state change (RELIABILITY #35, #36).
 * A trigger refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    actorClientId: uuid('actor_client_id'),
    actorEmail: text('actor_email'),
    actorRoles: text('actor_roles').array(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [index('audit_client_idx').on(t.actorClientId, t.id), index('audit_action_entity_idx').on(t.action, t.entityId, t.at)],
);

/** Outbox of domain events; `position` is the monotonically increasing stream position. */
export const events = pgTable(
  'events',
  {
    position: bigserial('position', { mode: 'number' }).primaryKey(),
    topic: text('topic').notNull(),
    clientId: uuid('client_id'),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_client_idx').on(t.clientId, t.position)],
);

export const supportRequests = pgTable('support_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  clientId: uuid('client_id').notNull().references(() => clients.id),
  userId: uuid('user_id').notNull().references(() => users.id),
  kind: text('kind').notNull(),
  message: text('message').notNull(),
  page: text('page'),
  status: text('status').notNull().default('open'),
  createdAt: createdAt(),
});

export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company'),
  message: text('message').notNull(),
  ip: text('ip'),
  createdAt: createdAt(),
});

/** Development outbox: what the dev Mailer/SmsSender "sent". Never used in production. */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dev_outbox_recipient_idx').on(t.recipient, t.createdAt)],
);
