/**
 * The Drizzle schema: one source for both drivers (PGlite and node-postgres). Migrations in
 * ../../migrations are generated from it (`npm run db:generate -w @dart/server`) and applied at start.
 */
import type { DateFormat } from '@dart/contracts';
import type { WorkspaceLayoutDocument } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  serial,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
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
  allowedExchanges: text('allowed_exchanges')
    .array()
    .notNull()
    .default(sql`ARRAY['NSE','BSE']::text[]`),
  allowedReportingExchanges: text('allowed_reporting_exchanges')
    .array()
    .notNull()
    .default(sql`ARRAY['NSE','BSE']::text[]`),
  rfqExchanges: text('rfq_exchanges')
    .array()
    .notNull()
    .default(sql`ARRAY[]::text[]`),
  stpExchanges: text('stp_exchanges')
    .array()
    .notNull()
    .default(sql`ARRAY[]::text[]`),
  nsccl_name: text('nsccl_name'),
  iccl_name: text('iccl_name'),
  nscclCredentialsRef: text('nsccl_credentials_ref'),
  icclCredentialsRef: text('iccl_credentials_ref'),
  /** The organisation's website host (issue 15 §1; unique when set, for `GET api/client/by-website/`). */
  website: text('website'),
  /** The organisation profile of `PUT api/client/{id}/` (modules/team): GST, addresses, bank account, demat. */
  profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
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
    /** Display preferences (issue 12): one of DATE_FORMATS, and whether toast sounds play. */
    dateFormat: text('date_format').$type<DateFormat>().notNull().default('mm/dd/yy'),
    soundsEnabled: boolean('sounds_enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_mobile_key').on(t.mobile),
    uniqueIndex('users_unique_id_key').on(t.uniqueId),
    check('users_date_format_check', sql`${t.dateFormat} IN ('mm/dd/yy', 'dd/mm/yy', 'DD-Mon-YYYY')`),
  ],
);

/** A user's membership of a client, with the roles and permissions it carries. */
export const userAccounts = pgTable(
  'user_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    status: text('status').notNull().default('active'),
    isDefault: boolean('is_default').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_accounts_user_client_key').on(t.userId, t.clientId), index('user_accounts_client_idx').on(t.clientId)],
);

export const userAccountRoles = pgTable(
  'user_account_roles',
  {
    userAccountId: uuid('user_account_id')
      .notNull()
      .references(() => userAccounts.id),
    role: text('role')
      .notNull()
      .references(() => roles.value),
  },
  (t) => [primaryKey({ columns: [t.userAccountId, t.role] })],
);

export const userAccountPermissions = pgTable(
  'user_account_permissions',
  {
    userAccountId: uuid('user_account_id')
      .notNull()
      .references(() => userAccounts.id),
    permission: text('permission')
      .notNull()
      .references(() => permissions.code),
  },
  (t) => [primaryKey({ columns: [t.userAccountId, t.permission] })],
);

/** A sign-in session = one refresh-token family. Revoking it ends every token of the family. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    userAccountId: uuid('user_account_id')
      .notNull()
      .references(() => userAccounts.id),
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
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id),
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
  (t) => [
    index('otp_identity_idx').on(t.identity, t.createdAt),
    index('otp_ip_idx').on(t.ip, t.createdAt),
    index('otp_verification_idx').on(t.verificationHash),
  ],
);

export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    email: text('email').notNull(),
    roles: text('roles').array().notNull(),
    permissions: text('permissions').array().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    /** Revoked by an ops admin (issue 15 §1); a revoked invite's expires_at is set to the revocation time too. */
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedBy: uuid('revoked_by').references(() => users.id),
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
    /** The previous row's hash: rows written before migration 0022 only (later rows are sealed in batches). */
    prevHash: text('prev_hash'),
    /** Migration 0022 on: the SHA-256 of the row's own content. Before: chained to `prevHash`. */
    hash: text('hash').notNull(),
    /** The writing transaction's id (`txid_current()`, set by the database): which seal covers the row. */
    xid: bigint('xid', { mode: 'number' }),
  },
  (t) => [
    index('audit_client_idx').on(t.actorClientId, t.id),
    index('audit_action_entity_idx').on(t.action, t.entityId, t.at),
    // Migration 0017: the surveillance user filter.
    index('audit_actor_user_idx').on(t.actorUserId, t.id),
  ],
);

/**
 * Seals of the audit trail (migration 0022): each covers the rows of the transactions `fromXid <= xid < toXid`,
 * hashed in id order after the previous seal's hash. Append-only like the trail.
 */
export const auditSeals = pgTable('audit_seals', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  sealedAt: timestamp('sealed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  fromXid: bigint('from_xid', { mode: 'number' }).notNull(),
  toXid: bigint('to_xid', { mode: 'number' }).notNull(),
  rowCount: integer('row_count').notNull(),
  firstId: bigint('first_id', { mode: 'number' }).notNull(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull(),
});

/** Outbox of domain events; `position` is the monotonically increasing stream position. */
export const events = pgTable(
  'events',
  {
    position: bigserial('position', { mode: 'number' }).primaryKey(),
    topic: text('topic').notNull(),
    clientId: uuid('client_id'),
    /** Set on a user-scoped event (a notification): only that user's sockets get it. Migration 0025. */
    userId: uuid('user_id'),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_client_idx').on(t.clientId, t.position)],
);

export const supportRequests = pgTable('support_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  clientId: uuid('client_id')
    .notNull()
    .references(() => clients.id),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
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

/* ---------------------------------------------------------------------------------------------
 * Reference data of the bond universe (issue 4), loaded by modules/finstruments/importer.ts.
 * Dates are ISO strings (`date` columns, mode string): calendar dates without a time zone.
 * ------------------------------------------------------------------------------------------- */

/** One issuer: the first 7 ISIN characters for companies, `IN0-GOI`, or `SDL-<state code>`. */
export const issuers = pgTable('issuers', {
  key: text('key').primaryKey(),
  name: text('name').notNull(),
  securityTypes: text('security_types'),
  mostCommonRating: text('most_common_rating'),
  contentHash: text('content_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A debt instrument with everything pricing needs. `provenance` maps a field to the source column or
 * file it came from; `assumed` lists the fields filled by a documented default (shown on the page).
 */
export const finstruments = pgTable(
  'finstruments',
  {
    id: serial('id').primaryKey(),
    isin: text('isin').notNull(),
    displayName: text('display_name').notNull(),
    longName: text('long_name'),
    issuerKey: text('issuer_key').references(() => issuers.key),
    issuerName: text('issuer_name'),
    securityType: text('security_type').notNull(),
    couponRate: doublePrecision('coupon_rate'),
    couponFrequency: integer('coupon_frequency'),
    dayCount: text('day_count'),
    faceValue: doublePrecision('face_value'),
    paidUpValue: doublePrecision('paid_up_value'),
    issueDate: date('issue_date', { mode: 'string' }),
    listingDate: date('listing_date', { mode: 'string' }),
    maturityDate: date('maturity_date', { mode: 'string' }),
    maturityYear: integer('maturity_year'),
    perpetual: boolean('perpetual').notNull().default(false),
    tenorDays: integer('tenor_days'),
    callSchedule: jsonb('call_schedule').$type<Array<{ date: string; price: number }>>().notNull().default([]),
    putSchedule: jsonb('put_schedule').$type<Array<{ date: string; price: number }>>().notNull().default([]),
    isListed: boolean('is_listed').notNull().default(false),
    exchanges: text('exchanges')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    nseSymbol: text('nse_symbol'),
    nseSeries: text('nse_series'),
    bseScripCode: text('bse_scrip_code'),
    bseSymbol: text('bse_symbol'),
    isinStatus: text('isin_status'),
    creditRating: text('credit_rating'),
    ratingAgency: text('rating_agency'),
    ratingAsOf: date('rating_as_of', { mode: 'string' }),
    provenance: jsonb('provenance').$type<Record<string, string>>().notNull().default({}),
    assumed: text('assumed')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    /** Lower-cased name, ISIN, symbols and issuer: the trigram-indexed search text. */
    searchText: text('search_text').notNull(),
    /** Traded value seen in the trade files (₹), a liquidity hint for ranking. */
    liquidity: doublePrecision('liquidity').notNull().default(0),
    /** The best reference yield (fraction) and its source, denormalised for the Find grid filters. */
    referenceYield: doublePrecision('reference_yield'),
    referenceSource: text('reference_source'),
    contentHash: text('content_hash').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('finstruments_isin_key').on(t.isin),
    index('finstruments_issuer_idx').on(t.issuerKey, t.maturityDate),
    index('finstruments_maturity_idx').on(t.maturityDate),
    index('finstruments_type_idx').on(t.securityType, t.maturityDate),
  ],
);

/** Every agency/rating pair seen for an instrument, with the date and the source. */
export const finstrumentRatings = pgTable(
  'finstrument_ratings',
  {
    id: serial('id').primaryKey(),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    agency: text('agency').notNull(),
    rating: text('rating').notNull(),
    asOf: date('as_of', { mode: 'string' }),
    source: text('source').notNull(),
  },
  (t) => [uniqueIndex('finstrument_ratings_key').on(t.finstrumentId, t.agency, t.rating, t.source)],
);

/** Observed prices/yields: exchange closes, reported OTC trades and fund valuations. */
export const finstrumentTrades = pgTable(
  'finstrument_trades',
  {
    id: serial('id').primaryKey(),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    tradeDate: date('trade_date', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    /** Clean price per ₹100 face (null when the source gives only a yield). */
    pricePer100: doublePrecision('price_per_100'),
    /** Yield as a fraction (0.0718), null when the source gives only a price. */
    yieldFraction: doublePrecision('yield_fraction'),
    valueInr: doublePrecision('value_inr'),
    numTrades: integer('num_trades'),
    detail: text('detail'),
    source: text('source').notNull(),
  },
  (t) => [uniqueIndex('finstrument_trades_key').on(t.finstrumentId, t.tradeDate, t.kind, t.detail)],
);

/** The reference price/yield of an instrument used as the pricing default (one per source and date). */
export const referencePrices = pgTable(
  'reference_prices',
  {
    id: serial('id').primaryKey(),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    priceDate: date('price_date', { mode: 'string' }).notNull(),
    /** Clean price per ₹100 face; null when derived from a yield. */
    cleanPrice: doublePrecision('clean_price'),
    /** Yield as a fraction, in the bond's own compounding. */
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    /** NSE_CM_CLOSE | NSE_OTC_TRADE | MF_VALUATION | MATRIX. */
    source: text('source').notNull(),
    /** Lower wins: observed trades before valuations before the matrix. */
    priority: integer('priority').notNull(),
    detail: text('detail'),
  },
  (t) => [
    uniqueIndex('reference_prices_key').on(t.finstrumentId, t.source, t.priceDate),
    index('reference_prices_pick_idx').on(t.finstrumentId, t.priority, t.priceDate.desc()),
  ],
);

/* ---------- market (issue 5) ---------- */

const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * A quote / expression of interest. Prices are clean per ₹100 (4 dp), yields fractions (6 dp) in the
 * bond's compounding, quantum is face value in rupees (issue 12 §1, migration 0013: a whole number of
 * bonds, modules/market/market.sizes.ts). `remaining_quantum` is what is still free to match: quantum
 * minus what proposed clusters reserve and deals filled. `recipients` null = public run.
 */
export const quotes = pgTable(
  'quotes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    userAccountId: uuid('user_account_id')
      .notNull()
      .references(() => userAccounts.id),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    quoteType: text('quote_type').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    remainingQuantum: bigint('remaining_quantum', { mode: 'number' }).notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    fixedField: text('fixed_field').notNull(),
    yieldType: text('yield_type').notNull(),
    priceOverridden: boolean('price_overridden').notNull().default(false),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    settlementDelta: integer('settlement_delta'),
    validityMinutes: integer('validity_minutes').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    mandateExpiresAt: timestamp('mandate_expires_at', { withTimezone: true, mode: 'date' }),
    source: text('source').notNull(),
    state: text('state').notNull(),
    status: text('status').notNull().default('open'),
    isBest: boolean('is_best').notNull().default(false),
    sendToRfq: boolean('send_to_rfq').notNull().default(false),
    whatsappConsent: boolean('whatsapp_consent').notNull().default(false),
    replaces: uuid('replaces'),
    replacedBy: uuid('replaced_by'),
    respondTo: uuid('respond_to'),
    recipients: uuid('recipients').array(),
    brokerId: uuid('broker_id'),
    clearingCorporation: text('clearing_corporation'),
    rfqMode: text('rfq_mode'),
    otoParticipantDetails: jsonb('oto_participant_details'),
    originTrade: text('origin_trade'),
    endClientId: text('end_client_id'),
    /** Exchange RFQs only: the venue (NSE / BSE), its RFQ number, and whether the quoting firm is hidden. */
    exchange: text('exchange'),
    exchangeRef: text('exchange_ref'),
    rfqAnonymous: boolean('rfq_anonymous').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('quotes_rfq_idx').on(t.exchange, t.status, t.createdAt),
    index('quotes_market_idx').on(t.status, t.createdAt),
    index('quotes_book_idx').on(t.finstrumentId, t.quoteType, t.status, t.settlementDate),
    index('quotes_client_idx').on(t.clientId, t.status, t.createdAt),
    index('quotes_expiry_idx').on(t.status, t.expiresAt),
  ],
);

/** A proposed match of one bid and one ask (see modules/market/README.md for the rules). */
export const clusters = pgTable(
  'clusters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    bidQuoteId: uuid('bid_quote_id')
      .notNull()
      .references(() => quotes.id),
    askQuoteId: uuid('ask_quote_id')
      .notNull()
      .references(() => quotes.id),
    bidClientId: uuid('bid_client_id')
      .notNull()
      .references(() => clients.id),
    askClientId: uuid('ask_client_id')
      .notNull()
      .references(() => clients.id),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('proposed'),
    bidAcceptedAt: timestamp('bid_accepted_at', { withTimezone: true, mode: 'date' }),
    askAcceptedAt: timestamp('ask_accepted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('clusters_bid_idx').on(t.bidClientId, t.status),
    index('clusters_ask_idx').on(t.askClientId, t.status),
    index('clusters_quotes_idx').on(t.bidQuoteId, t.askQuoteId),
  ],
);

/** A counter-offer thread on one quote between its owner (quoter) and one other firm (responder). */
export const negotiations = pgTable(
  'negotiations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id),
    quoterClientId: uuid('quoter_client_id')
      .notNull()
      .references(() => clients.id),
    responderClientId: uuid('responder_client_id')
      .notNull()
      .references(() => clients.id),
    status: text('status').notNull().default('open'),
    history: jsonb('history')
      .$type<
        Array<{
          action: string;
          by_client: 'quoter' | 'responder';
          by_user_id: string;
          at: string;
          unit_price_stored: number;
          yield_stored: number;
          quantum: number;
        }>
      >()
      .notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('negotiations_quote_idx').on(t.quoteId), index('negotiations_responder_idx').on(t.responderClientId)],
);

/** The result of the market: both sides, price, yield, quantum, settlement date, consideration. */
export const deals = pgTable(
  'deals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    buyerClientId: uuid('buyer_client_id')
      .notNull()
      .references(() => clients.id),
    sellerClientId: uuid('seller_client_id')
      .notNull()
      .references(() => clients.id),
    buyerUserId: uuid('buyer_user_id').references(() => users.id),
    sellerUserId: uuid('seller_user_id').references(() => users.id),
    bidQuoteId: uuid('bid_quote_id'),
    askQuoteId: uuid('ask_quote_id'),
    clusterId: uuid('cluster_id'),
    negotiationId: uuid('negotiation_id'),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    /** ₹ to the paisa (bond-math consideration: principal + accrued). */
    consideration: doublePrecision('consideration').notNull(),
    considerationDetails: jsonb('consideration_details'),
    createdAt: createdAt(),
  },
  (t) => [
    index('deals_buyer_idx').on(t.buyerClientId, t.createdAt),
    index('deals_seller_idx').on(t.sellerClientId, t.createdAt),
    // Migration 0012: the exchange job's search for recent deals no node recorded.
    index('deals_created_idx').on(t.createdAt),
  ],
);

/** Stripe-style idempotency claims: the first response to a key is stored and replayed (RELIABILITY #41; plugins/idempotency.ts). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** pending (the first request runs) → applied (its business transaction committed) → done (answer stored). */
    state: text('state').notNull().default('done'),
    /** The fencing token of the request holding a pending claim (a takeover after the lease changes it). */
    owner: text('owner'),
    /** A pending claim older than this was left by a crashed node and may be taken over. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // The state CHECK lives in migration 0011.
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * A deal struck on an exchange RFQ, as reported to the venue (SimulatedExchange or a real gateway),
 * with its settlement status at the clearing corporation (NSCCL for NSE, ICCL for BSE).
 */
export const exchangeTrades = pgTable(
  'exchange_trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    exchange: text('exchange').notNull(),
    clearingCorporation: text('clearing_corporation').notNull(),
    /** The venue's trade number once reported. */
    exchangeTradeId: text('exchange_trade_id'),
    /** pending | reported | failed */
    reportStatus: text('report_status').notNull().default('pending'),
    /** pending | settled | failed */
    settlementStatus: text('settlement_status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('exchange_trades_deal_key').on(t.dealId), index('exchange_trades_status_idx').on(t.reportStatus, t.settlementStatus)],
);

/* ---------------------------------------------------------------------------------------------
 * Chat (issue 6): see modules/chat/README.md. Every message has the next gap-free `position` of
 * its channel, assigned by `UPDATE chat_channels SET last_position = last_position + 1 RETURNING`
 * inside the message's transaction (the row lock serialises writers of one channel).
 * ------------------------------------------------------------------------------------------- */

/** Chat session tokens (SHA-256 hashed) for the chat socket; bound to the sign-in session that issued them. */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    authSessionId: uuid('auth_session_id').references(() => authSessions.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('chat_sessions_token_key').on(t.tokenHash), index('chat_sessions_user_idx').on(t.userId)],
);

/** Platform staff: shown to others under the product name (spec §6). */
export const chatStaff = pgTable('chat_staff', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  createdAt: createdAt(),
});

export const chatChannels = pgTable(
  'chat_channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    customType: text('custom_type').notNull(),
    name: text('name').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    creatorId: uuid('creator_id').references(() => users.id),
    /** Direct channels created with isDistinct: the two user ids, sorted; creating again returns this channel. */
    distinctKey: text('distinct_key'),
    lastPosition: bigint('last_position', { mode: 'number' }).notNull().default(0),
    /**
     * The channel's change sequence: each edit or delete of one of its messages takes the next number
     * (under the channel's row lock, so gap-free) and stamps it on the message; a resuming socket asks
     * for the messages changed after the number it holds.
     */
    changeSeq: bigint('change_seq', { mode: 'number' }).notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }),
    isWhatsappLinked: boolean('is_whatsapp_linked').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chat_channels_url_key').on(t.url), uniqueIndex('chat_channels_distinct_key').on(t.distinctKey)],
);

/**
 * Membership. `leftAt` set = not a member any more (left, declined or banned). `hidden` = a broadcast
 * recipient: listed to the creator, never shown the broadcast channel itself. Receipts are monotonic.
 */
export const chatMembers = pgTable(
  'chat_members',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => chatChannels.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state').notNull().default('joined'),
    role: text('role').notNull().default('none'),
    hidden: boolean('hidden').notNull().default(false),
    inviterId: uuid('inviter_id').references(() => users.id),
    invitedAt: timestamp('invited_at', { withTimezone: true, mode: 'date' }),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }),
    /** The channel's last position when this membership began: live delivery starts after it. */
    joinedPosition: bigint('joined_position', { mode: 'number' }).notNull().default(0),
    readPosition: bigint('read_position', { mode: 'number' }).notNull().default(0),
    deliveredPosition: bigint('delivered_position', { mode: 'number' }).notNull().default(0),
    leftAt: timestamp('left_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), index('chat_members_user_idx').on(t.userId, t.leftAt)],
);

export const chatBans = pgTable(
  'chat_bans',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => chatChannels.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    bannedBy: uuid('banned_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] })],
);

/** File metadata; the bytes live in the FileStore under `storageKey` (never the client's file name). */
export const chatFiles = pgTable(
  'chat_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => chatChannels.id),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_files_channel_idx').on(t.channelId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => chatChannels.id),
    position: bigint('position', { mode: 'number' }).notNull(),
    senderId: uuid('sender_id').references(() => users.id),
    reqId: text('req_id'),
    messageType: text('message_type').notNull(),
    mimeType: text('mime_type'),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    customType: text('custom_type'),
    ogMetaData: jsonb('og_meta_data').$type<Record<string, unknown>>(),
    fileId: uuid('file_id').references(() => chatFiles.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
    /** Soft delete: the text stays for the compliance export; views show it blank. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    /** The channel's change sequence at this message's latest edit or delete; 0 = never changed. */
    changeSeq: bigint('change_seq', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('chat_messages_position_key').on(t.channelId, t.position),
    uniqueIndex('chat_messages_req_key').on(t.channelId, t.senderId, t.reqId),
    index('chat_messages_created_idx').on(t.channelId, t.createdAt),
    index('chat_messages_changes_idx')
      .on(t.channelId, t.changeSeq)
      .where(sql`${t.changeSeq} > 0`),
  ],
);

/** Every previous version of an edited message (compliance export). */
export const chatMessageEdits = pgTable(
  'chat_message_edits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id),
    previousMessage: text('previous_message').notNull(),
    editedBy: uuid('edited_by').references(() => users.id),
    editedAt: timestamp('edited_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('chat_message_edits_message_idx').on(t.messageId, t.id)],
);

/**
 * Daily business quotas (lib/quotas.ts): how much of each capped action a user or a firm used on one
 * IST day. Incremented in the same transaction as the action, so a refused or failed action uses none.
 */
export const usageQuotas = pgTable(
  'usage_quotas',
  {
    scope: text('scope').notNull(),
    subjectId: uuid('subject_id').notNull(),
    action: text('action').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subjectId, t.action, t.day] })],
);

/** PostgreSQL bytea as a Buffer (node-postgres returns Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The bytes of uploaded files on PostgreSQL (lib/file-store.ts `createPostgresFileStore`), so every node
 * serves every file: one row per distinct content, keyed by its SHA-256 (chat_files.storage_key).
 * Written before the row that names it; never updated. Migration 0010 also stores `bytes` uncompressed
 * out of line (STORAGE EXTERNAL), so slice reads touch only their own chunks.
 */
export const fileBlobs = pgTable(
  'file_blobs',
  {
    sha256: text('sha256').primaryKey(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('file_blobs_size_check', sql`${t.size} = octet_length(${t.bytes})`)],
);

/* ---------------------------------------------------------------------------------------------
 * The SimulatedExchange's venue book (modules/exchange/simulated-exchange.ts, migration 0012). A real
 * venue is one system for every node, so the simulator keeps its book in the shared database: any node
 * answers, cancels or polls what another raised or reported, and a leader change loses nothing.
 * Venue numbers (`NSE-RFQ-000001`) come from the one sequence `exchange_sim_seq`.
 * ------------------------------------------------------------------------------------------- */

/** An RFQ placed on the simulated venue; `cancelled` when Dart withdrew it (compensation). */
export const exchangeSimRfqs = pgTable(
  'exchange_sim_rfqs',
  {
    ref: text('ref').primaryKey(),
    exchange: text('exchange').notNull(),
    mode: text('mode').notNull(),
    anonymous: boolean('anonymous').notNull(),
    isin: text('isin').notNull(),
    side: text('side').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true, mode: 'date' }).notNull(),
    counterparty: text('counterparty'),
    /** open | cancelled */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
  },
  // The status CHECK lives in migration 0012.
  (t) => [index('exchange_sim_rfqs_status_idx').on(t.status, t.createdAt)],
);

/** A response or counter on the simulated venue; `withdrawn` when Dart undid it (compensation). */
export const exchangeSimResponses = pgTable(
  'exchange_sim_responses',
  {
    ref: text('ref').primaryKey(),
    /** No foreign key: a venue takes answers to RFQs it does not list (raised before migration 0012). */
    rfqRef: text('rfq_ref').notNull(),
    exchange: text('exchange').notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    /** open | withdrawn */
    status: text('status').notNull().default('open'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('exchange_sim_responses_rfq_idx').on(t.rfqRef)],
);

/**
 * A deal reported to the simulated venue; it settles `EXCHANGE_SIM_SETTLE_MS` after `reported_at`. One trade
 * per deal: a repeated report (two nodes at once, a retry after a lost answer) gets the same trade number.
 */
export const exchangeSimTrades = pgTable(
  'exchange_sim_trades',
  {
    tradeId: text('trade_id').primaryKey(),
    exchange: text('exchange').notNull(),
    dealId: text('deal_id').notNull(),
    rfqRef: text('rfq_ref'),
    isin: text('isin').notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    consideration: doublePrecision('consideration').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('exchange_sim_trades_deal_key').on(t.dealId)],
);

/** The /dart workspace layout a user saved (issue 12 §2): the dock's grid and its panel list, +1 `version` per save. */
export const workspaceLayouts = pgTable(
  'workspace_layouts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    layout: jsonb('layout').$type<WorkspaceLayoutDocument>().notNull(),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('workspace_layouts_version_check', sql`${t.version} > 0`)],
);

/* ---------------------------------------------------------------------------------------------
 * Post-trade (issue 13, migration 0018): tickets, their history, custodians, orders and procurement
 * orders. See modules/tickets/README.md and modules/orders/README.md. Money in integer paise.
 * ------------------------------------------------------------------------------------------- */

/** SEBI-registered custodians (reference-data/participants/custodians.csv, seeded by migration 0018). */
export const custodians = pgTable('custodians', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
});

export const tickets = pgTable(
  'tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `TKT-000123` from the sequence `ticket_number_seq`. */
    number: bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('ticket_number_seq')`),
    /** One ticket per deal (unique); null for a manual ticket. */
    dealId: uuid('deal_id').references(() => deals.id),
    /** negotiation | cluster | exchange_rfq | private_run | deal | manual */
    source: text('source').notNull(),
    state: text('state').notNull(),
    version: integer('version').notNull().default(1),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    buyerClientId: uuid('buyer_client_id')
      .notNull()
      .references(() => clients.id),
    buyerUserId: uuid('buyer_user_id').references(() => users.id),
    sellerClientId: uuid('seller_client_id')
      .notNull()
      .references(() => clients.id),
    sellerUserId: uuid('seller_user_id').references(() => users.id),
    buyerBrokerClientId: uuid('buyer_broker_client_id').references(() => clients.id),
    buyerBrokerUserId: uuid('buyer_broker_user_id').references(() => users.id),
    sellerBrokerClientId: uuid('seller_broker_client_id').references(() => clients.id),
    sellerBrokerUserId: uuid('seller_broker_user_id').references(() => users.id),
    buyerBrokeragePaise: bigint('buyer_brokerage_paise', { mode: 'number' }),
    sellerBrokeragePaise: bigint('seller_brokerage_paise', { mode: 'number' }),
    createdByClientId: uuid('created_by_client_id').references(() => clients.id),
    createdByUserId: uuid('created_by_user_id').references(() => users.id),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    /** Face value in ₹ (whole bonds). */
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    /** NSE | BSE: where the trade is reported; its clearing corporation settles it. */
    exchange: text('exchange').notNull(),
    clearingCorporation: text('clearing_corporation').notNull(),
    accruedDays: integer('accrued_days').notNull(),
    principalPaise: bigint('principal_paise', { mode: 'number' }).notNull(),
    accruedInterestPaise: bigint('accrued_interest_paise', { mode: 'number' }).notNull(),
    /** principal + accrued. */
    considerationPaise: bigint('consideration_paise', { mode: 'number' }).notNull(),
    stampDutyPaise: bigint('stamp_duty_paise', { mode: 'number' }).notNull(),
    priceConfirmedAt: timestamp('price_confirmed_at', { withTimezone: true, mode: 'date' }),
    priceConfirmedBy: uuid('price_confirmed_by').references(() => users.id),
    buyerAcceptedAt: timestamp('buyer_accepted_at', { withTimezone: true, mode: 'date' }),
    buyerAcceptedBy: uuid('buyer_accepted_by').references(() => users.id),
    buyerCustodianId: uuid('buyer_custodian_id').references(() => custodians.id),
    sellerAcceptedAt: timestamp('seller_accepted_at', { withTimezone: true, mode: 'date' }),
    sellerAcceptedBy: uuid('seller_accepted_by').references(() => users.id),
    sellerCustodianId: uuid('seller_custodian_id').references(() => custodians.id),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    /** When the trade was struck: the reporting deadline is 15 minutes later. */
    tradedAt: timestamp('traded_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** null | alert (10 minutes unreported) | escalated (15 minutes). */
    reportAlert: text('report_alert'),
    /** Reason of a reject, cancel or settlement failure. */
    reason: text('reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tickets_deal_key').on(t.dealId),
    uniqueIndex('tickets_number_key').on(t.number),
    index('tickets_buyer_idx').on(t.buyerClientId, t.updatedAt),
    index('tickets_seller_idx').on(t.sellerClientId, t.updatedAt),
    index('tickets_buyer_broker_idx').on(t.buyerBrokerClientId, t.updatedAt),
    index('tickets_seller_broker_idx').on(t.sellerBrokerClientId, t.updatedAt),
    index('tickets_state_idx').on(t.state, t.tradedAt),
    check('tickets_version_check', sql`${t.version} > 0`),
  ],
);

/** Every transition of a ticket, stamped (who, when, what changed): the ticket's history. */
export const ticketEvents = pgTable(
  'ticket_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    action: text('action').notNull(),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id),
    actorClientId: uuid('actor_client_id').references(() => clients.id),
    changes: jsonb('changes'),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ticket_events_seq_key').on(t.ticketId, t.seq)],
);

/** The two sides of a confirmed ticket: `order` (the seller's) and `procurement` (the buyer's). */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** order | procurement */
    kind: text('kind').notNull(),
    /** `ORD-000123` / `PRO-000123` from the sequence `order_number_seq`. */
    number: bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('order_number_seq')`),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => tickets.id),
    /** The firm whose book this side is. */
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    userId: uuid('user_id').references(() => users.id),
    counterpartyClientId: uuid('counterparty_client_id')
      .notNull()
      .references(() => clients.id),
    state: text('state').notNull(),
    /** ACCEPTED | REJECTED once the firm answered the reported trade. */
    reportedOrderStatus: text('reported_order_status'),
    version: integer('version').notNull().default(1),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    exchange: text('exchange').notNull(),
    clearingCorporation: text('clearing_corporation').notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    tradeDate: date('trade_date', { mode: 'string' }).notNull(),
    accruedDays: integer('accrued_days').notNull(),
    principalPaise: bigint('principal_paise', { mode: 'number' }).notNull(),
    accruedInterestPaise: bigint('accrued_interest_paise', { mode: 'number' }).notNull(),
    considerationPaise: bigint('consideration_paise', { mode: 'number' }).notNull(),
    stampDutyPaise: bigint('stamp_duty_paise', { mode: 'number' }).notNull(),
    custodianId: uuid('custodian_id').references(() => custodians.id),
    /** The venue's number of this side's report, and of the matched trade. */
    exchangeReportRef: text('exchange_report_ref'),
    exchangeTradeId: text('exchange_trade_id'),
    reportAttempts: integer('report_attempts').notNull().default(0),
    /** When the reporter may try again (back-off); null when nothing is due. */
    nextReportAt: timestamp('next_report_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    reason: text('reason'),
    tradedAt: timestamp('traded_at', { withTimezone: true, mode: 'date' }).notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_ticket_kind_key').on(t.ticketId, t.kind),
    uniqueIndex('orders_number_key').on(t.kind, t.number),
    index('orders_client_idx').on(t.clientId, t.createdAt),
    index('orders_client_state_idx').on(t.clientId, t.state, t.createdAt),
    index('orders_report_due_idx').on(t.state, t.nextReportAt),
    check('orders_version_check', sql`${t.version} > 0`),
  ],
);

/* ---------------------------------------------------------------------------------------------
 * The simulated post-trade venue (migration 0019; modules/exchange/simulated-reporting.ts and
 * simulated-clearing.ts): the NSE / BSE trade reporting platform and the clearing corporations
 * (NSCCL / ICCL). Shared by every node like the RFQ book above. Not Dart's data: ids are plain text.
 * ------------------------------------------------------------------------------------------- */

/** One side's report of a trade (unique per ticket + side): a repeated report finds this row. */
export const exchangeSimReports = pgTable(
  'exchange_sim_reports',
  {
    /** `NSE-RPT-000001` from `exchange_sim_seq`. */
    ref: text('ref').primaryKey(),
    exchange: text('exchange').notNull(),
    /** The common reference both sides quote (Dart's ticket id). */
    ticketId: text('ticket_id').notNull(),
    /** buy | sell */
    side: text('side').notNull(),
    /** The reporting member (Dart client id) and the counterparty it names. */
    member: text('member').notNull(),
    counterparty: text('counterparty').notNull(),
    isin: text('isin').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    price: doublePrecision('price').notNull(),
    yieldFraction: doublePrecision('yield_fraction').notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    /** The money of this side's report, in integer paise (bond-math, as Dart computed it). */
    accruedDays: integer('accrued_days').notNull(),
    principalPaise: bigint('principal_paise', { mode: 'number' }).notNull(),
    accruedInterestPaise: bigint('accrued_interest_paise', { mode: 'number' }).notNull(),
    considerationPaise: bigint('consideration_paise', { mode: 'number' }).notNull(),
    stampDutyPaise: bigint('stamp_duty_paise', { mode: 'number' }).notNull(),
    custodian: text('custodian'),
    /** pending (waiting for the other side) | refused (terms differ) | matched | cancelled */
    status: text('status').notNull(),
    reason: text('reason'),
    tradeId: text('trade_id'),
    /**
     * The member's revision of its report (Dart sends the order's version): a modify sends a higher one; a
     * report of a lower revision (a stale copy arriving late) changes nothing and gets the current answer.
     */
    revision: integer('revision').notNull(),
    /** Times the report was sent at all (retries and repeats too): the proof that a repeat changed nothing. */
    submissions: integer('submissions').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The side, status and revision CHECKs live in migration 0019.
  (t) => [uniqueIndex('exchange_sim_reports_ticket_side_key').on(t.ticketId, t.side)],
);

/**
 * A matched trade at its clearing corporation: DVP-I pay-in / pay-out (funds from the buyer, securities from the
 * seller), run once per attempt (`payin_runs`: a retry after a failure is a second run, nothing runs twice).
 */
export const exchangeSimSettlements = pgTable(
  'exchange_sim_settlements',
  {
    /** `NSE-TRD-000002`: the venue's trade number. */
    tradeId: text('trade_id').primaryKey(),
    exchange: text('exchange').notNull(),
    /** NSCCL | ICCL */
    clearingCorporation: text('clearing_corporation').notNull(),
    ticketId: text('ticket_id').notNull(),
    isin: text('isin').notNull(),
    quantum: bigint('quantum', { mode: 'number' }).notNull(),
    price: doublePrecision('price').notNull(),
    settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
    considerationPaise: bigint('consideration_paise', { mode: 'number' }).notNull(),
    stampDutyPaise: bigint('stamp_duty_paise', { mode: 'number' }).notNull(),
    /** The members paying funds (buyer) and delivering securities (seller), with their custodians. */
    buyer: text('buyer').notNull(),
    seller: text('seller').notNull(),
    buyerCustodian: text('buyer_custodian'),
    sellerCustodian: text('seller_custodian'),
    /** pending | settled | failed | cancelled */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    /** The pay-in runs at or after this instant (the simulator's compressed settlement clock). */
    settleAfter: timestamp('settle_after', { withTimezone: true, mode: 'date' }).notNull(),
    payinRuns: integer('payin_runs').notNull().default(0),
    /** When the venue matched the two sides' reports (the trade was reported). */
    reportedAt: timestamp('reported_at', { withTimezone: true, mode: 'date' }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    updatedAt: updatedAt(),
  },
  // The status and clearing-corporation CHECKs live in migration 0019.
  (t) => [uniqueIndex('exchange_sim_settlements_ticket_key').on(t.ticketId)],
);

/* ---------------------------------------------------------------------------------------------
 * Inventory (issue 14, migration 0021; modules/inventory/README.md): each firm's book.
 * ------------------------------------------------------------------------------------------- */

/** A firm's book date (the daily cycle): confirm-previous carries the book forward to today. */
export const inventoryBooks = pgTable('inventory_books', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  bookDate: date('book_date', { mode: 'string' }).notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  confirmedBy: uuid('confirmed_by').references(() => users.id),
  updatedAt: updatedAt(),
});

/**
 * One holding: a firm × bond × account, at weighted-average cost. `cost_paise` is the book cost of the
 * face value held (the average cost per ₹100 is cost_paise ÷ face_value); a sell takes cost out at the average.
 */
export const inventoryPositions = pgTable(
  'inventory_positions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    finstrumentId: integer('finstrument_id')
      .notNull()
      .references(() => finstruments.id),
    account: text('account').notNull(),
    /** ₹ face value held, whole rupees (never negative). */
    faceValue: bigint('face_value', { mode: 'number' }).notNull(),
    costPaise: bigint('cost_paise', { mode: 'number' }).notNull(),
    realisedPnlPaise: bigint('realised_pnl_paise', { mode: 'number' }).notNull().default(0),
    /** The date of the holding as last uploaded or moved. */
    asOf: date('as_of', { mode: 'string' }).notNull(),
    /** The firm's book version (`inventory_versions`) of the holding's last change (migration 0031). */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('inventory_positions_key').on(t.clientId, t.finstrumentId, t.account),
    index('inventory_positions_version_idx').on(t.clientId, t.version),
    check('inventory_positions_face_value_check', sql`${t.faceValue} >= 0`),
    check('inventory_positions_cost_check', sql`${t.costPaise} >= 0`),
  ],
);

/**
 * The version of a firm's book, raised in the transaction of every change of its holdings: a node keeps the
 * valued book in memory and checks this one row to know it is still current (inventory README "Speed").
 */
export const inventoryVersions = pgTable('inventory_versions', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * The valuation inputs' change log (migration 0031; inventory README "Speed"): every statement writing reference
 * prices or a bond's valued columns raises the one version row (its triggers) and lists the bonds it touched.
 */
export const valuationInputVersions = pgTable('valuation_input_versions', {
  id: integer('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
export const valuationInputChanges = pgTable(
  'valuation_input_changes',
  {
    version: bigint('version', { mode: 'number' }).notNull(),
    finstrumentId: integer('finstrument_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.version, t.finstrumentId] })],
);

/**
 * Each bond's stored figures for one unit (migration 0032; inventory README "Speed"), with what a book's read shows of
 * the bond and its reference pick (migration 0033). Valid by construction for the inputs it names: any change of
 * them deletes the row in the writer's transaction, and a store is serialised with those writers; a reader checks the
 * method and the settlement date.
 */
export const inventoryBondValuations = pgTable('inventory_bond_valuations', {
  finstrumentId: integer('finstrument_id')
    .primaryKey()
    .references(() => finstruments.id),
  method: integer('method').notNull(),
  contentHash: text('content_hash').notNull(),
  settlementDate: date('settlement_date', { mode: 'string' }).notNull(),
  referenceYield: doublePrecision('reference_yield'),
  cleanPrice: doublePrecision('clean_price'),
  bondYield: doublePrecision('bond_yield'),
  modifiedDuration: doublePrecision('modified_duration'),
  pv01Per100: doublePrecision('pv01_per_100'),
  faceValuePerUnit: doublePrecision('face_value_per_unit'),
  accruedPer100: doublePrecision('accrued_per_100'),
  reason: text('reason'),
  valuedAt: timestamp('valued_at', { withTimezone: true }).notNull().defaultNow(),
  isin: text('isin').notNull(),
  displayName: text('display_name').notNull(),
  issuerName: text('issuer_name'),
  creditRating: text('credit_rating'),
  securityType: text('security_type').notNull(),
  faceValue: doublePrecision('face_value'),
  maturityDate: date('maturity_date', { mode: 'string' }),
  perpetual: boolean('perpetual').notNull(),
  referenceId: integer('reference_id'),
  referencePriceDate: date('reference_price_date', { mode: 'string' }),
  referenceSource: text('reference_source'),
});

/** A change of a holding: an external trade, or a settled order (`order_id`, unique: a settlement moves it once). */
export const inventoryMovements = pgTable(
  'inventory_movements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    positionId: uuid('position_id')
      .notNull()
      .references(() => inventoryPositions.id),
    /** EXTERNAL | ORDER */
    source: text('source').notNull(),
    side: text('side').notNull(),
    faceValue: bigint('face_value', { mode: 'number' }).notNull(),
    price: doublePrecision('price').notNull(),
    tradeDate: date('trade_date', { mode: 'string' }).notNull(),
    realisedPnlPaise: bigint('realised_pnl_paise', { mode: 'number' }).notNull().default(0),
    orderId: uuid('order_id').references(() => orders.id),
    counterparty: text('counterparty'),
    reference: text('reference'),
    userId: uuid('user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('inventory_movements_position_idx').on(t.positionId, t.createdAt),
    uniqueIndex('inventory_movements_order_key').on(t.orderId),
    check('inventory_movements_side_check', sql`${t.side} IN ('BUY', 'SELL')`),
    check('inventory_movements_face_value_check', sql`${t.faceValue} > 0`),
  ],
);

/**
 * A firm's login at a clearing corporation's RFQ platform (issue 14; migration 0020): one row per firm and
 * corp (`NSCCL`, `ICCL`). The password is sealed with envelope encryption (modules/credentials/README.md):
 * `password_sealed` is AES-256-GCM under a per-record data key, `data_key_wrapped` that key sealed under the
 * configured CREDENTIALS_KEY (`key_id` names which). `clients.nsccl_credentials_ref` / `iccl_credentials_ref`
 * point here.
 */
export const exchangeCredentials = pgTable(
  'exchange_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    corp: text('corp').$type<'NSCCL' | 'ICCL'>().notNull(),
    participantCode: text('participant_code').notNull(),
    participantName: text('participant_name').notNull(),
    username: text('username').notNull(),
    passwordSealed: text('password_sealed').notNull(),
    dataKeyWrapped: text('data_key_wrapped').notNull(),
    keyId: text('key_id').notNull(),
    setByUserId: uuid('set_by_user_id').references(() => users.id),
    setByName: text('set_by_name').notNull(),
    setAt: timestamp('set_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('exchange_credentials_client_corp_key').on(t.clientId, t.corp),
    check('exchange_credentials_corp_check', sql`${t.corp} IN ('NSCCL', 'ICCL')`),
  ],
);

/**
 * The support desk (issue 15 §2; migration 0023; modules/support/README.md): Dart Support staff, the tickets
 * users raise through `ext/tickets/`, their conversation and their virus-scanned attachments.
 */
export const supportStaff = pgTable('support_staff', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  createdAt: createdAt(),
});

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    ticketType: text('ticket_type').notNull(),
    ticketTypeId: integer('ticket_type_id').notNull(),
    requestType: text('request_type'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    extras: jsonb('extras').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').notNull().default('open'),
    version: integer('version').notNull().default(1),
    /** Staff replies so far, and how many of them the requester has opened: the difference is the badge. */
    staffReplies: integer('staff_replies').notNull().default(0),
    requesterSeenReplies: integer('requester_seen_replies').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('support_tickets_number_key').on(t.number),
    index('support_tickets_user_idx').on(t.userId, t.updatedAt),
    index('support_tickets_client_idx').on(t.clientId, t.updatedAt),
    index('support_tickets_status_idx').on(t.status, t.updatedAt),
    check('support_tickets_type_check', sql`${t.ticketType} IN ('query', 'issue', 'access', 'feedback')`),
    check('support_tickets_status_check', sql`${t.status} IN ('open', 'in_progress', 'waiting_on_customer', 'resolved', 'closed')`),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    isStaff: boolean('is_staff').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_messages_ticket_idx').on(t.ticketId, t.createdAt)],
);

export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    storageKey: text('storage_key').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    ticketId: uuid('ticket_id').references(() => supportTickets.id),
    messageId: uuid('message_id').references(() => supportMessages.id),
    createdAt: createdAt(),
  },
  (t) => [index('support_attachments_ticket_idx').on(t.ticketId)],
);

/**
 * Counterparties a firm records offline (`POST api/client/register-user/lite`, issue 15 §1): not on the platform,
 * visible to the recording firm only (`GET api/clients/?offline_record=true`). Migration 0024.
 */
export const offlineClients = pgTable(
  'offline_clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerClientId: uuid('owner_client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    pan: text('pan'),
    contactFirstName: text('contact_first_name').notNull(),
    contactLastName: text('contact_last_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactMobile: text('contact_mobile'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('offline_clients_owner_email_key').on(t.ownerClientId, t.contactEmail)],
);

/**
 * The notification centre (issue 15 §3, modules/notifications): one row per source event and audience, fanned out on
 * read (migration 0030): `user_id` NULL = the firm's trading users, else that user only. Unique on (source ref, firm,
 * user) so a replayed event never duplicates. Per-user state lives in `notification_reads` and `hidden_for`.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null: every active member of the firm with `client.can_trade` who joined before it was made. */
    userId: uuid('user_id').references(() => users.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    category: text('category').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /** The events position the notification was made from, and its idempotency key (`event:<position>`). */
    sourcePosition: bigint('source_position', { mode: 'number' }),
    sourceRef: text('source_ref').notNull(),
    /** Users of the audience whose in-app channel for the category was off when it was made: they never see it. */
    hiddenFor: uuid('hidden_for')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** The position of its own `notify.created` event (null for rows made before 0030). */
    livePosition: bigint('live_position', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_source_audience_key').on(
      t.sourceRef,
      t.clientId,
      sql`coalesce(${t.userId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    index('notifications_firm_created_idx')
      .on(t.clientId, t.createdAt)
      .where(sql`${t.userId} IS NULL`),
    index('notifications_user_created_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.userId} IS NOT NULL`),
  ],
);

/** Per user and notification: when the user read it (a mark per reader, not a column of a shared row). */
export const notificationReads = pgTable(
  'notification_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.notificationId] })],
);

/** Per user, category and channel (in_app, email, sms): on or off, and snoozed until when. Missing row = the default. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    category: text('category').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.category, t.channel] }),
    check('notification_preferences_channel_check', sql`${t.channel} IN ('in_app', 'email', 'sms')`),
  ],
);

/** How far a tailing consumer of the events table has read; advanced in the transaction that acts on the events. */
export const eventCursors = pgTable('event_cursors', {
  name: text('name').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Surveillance alerts (issue 16 §1, modules/surveillance, migration 0027): one row per alert per firm (the compliance
 * officer's firm it belongs to), unique on (firm, dedupe key) so a rescan never duplicates. `evidence` holds that firm's
 * side only: ids of chat messages, quotes, deals, tickets, orders and audit rows with excerpts.
 */
export const surveillanceAlerts = pgTable(
  'surveillance_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    kind: text('kind').notNull(),
    score: integer('score').notNull(),
    status: text('status').notNull().default('open'),
    assigneeUserId: uuid('assignee_user_id').references(() => users.id),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** Links alerts of one firm about the same counterparty pair (README "Linked alerts"). */
    groupKey: text('group_key'),
    /** When the fact behind the alert happened (the message, the deal, the report deadline). */
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('surveillance_alerts_dedupe_key').on(t.clientId, t.dedupeKey),
    index('surveillance_alerts_client_created_idx').on(t.clientId, t.createdAt),
    index('surveillance_alerts_group_idx').on(t.clientId, t.groupKey),
    check('surveillance_alerts_score_check', sql`${t.score} BETWEEN 0 AND 100`),
    check('surveillance_alerts_status_check', sql`${t.status} IN ('open', 'assigned', 'escalated', 'closed')`),
  ],
);

/** The triage history of an alert: assign, comment, escalate, close (who, when, what). Append-only. */
export const surveillanceAlertEvents = pgTable(
  'surveillance_alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => surveillanceAlerts.id),
    action: text('action').notNull(),
    actorUserId: uuid('actor_user_id')
      .notNull()
      .references(() => users.id),
    assigneeUserId: uuid('assignee_user_id'),
    comment: text('comment'),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('surveillance_alert_events_alert_idx').on(t.alertId, t.id)],
);

/**
 * WhatsApp consent history (issue 16 §2, modules/whatsapp, migration 0028): one row per answer, with its time and
 * source; the newest (by `at`, then id) stands. No row: `users.whatsapp_consent` as given at registration.
 */
export const whatsappConsents = pgTable(
  'whatsapp_consents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    consented: boolean('consented').notNull(),
    source: text('source').notNull(),
    sourceRef: text('source_ref'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('whatsapp_consents_user_at_idx').on(t.userId, t.at, t.id),
    check('whatsapp_consents_source_check', sql`${t.source} IN ('registration', 'quote', 'profile')`),
  ],
);

/** Every message that crossed the WhatsApp bridge, both ways, with its status history; retained like chat messages. */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    direction: text('direction').notNull(),
    /** The firm of the user (its compliance reads it); null for an inbound message from an unknown number. */
    clientId: uuid('client_id').references(() => clients.id),
    userId: uuid('user_id').references(() => users.id),
    phone: text('phone').notNull(),
    channelId: uuid('channel_id').references(() => chatChannels.id),
    chatMessageId: uuid('chat_message_id'),
    kind: text('kind').notNull(),
    template: text('template'),
    body: text('body').notNull(),
    /** What made it (`event:<position>`, `chat:<message id>`, an inbound provider id): unique per direction and number. */
    sourceRef: text('source_ref').notNull(),
    providerMessageId: text('provider_message_id'),
    contextMessageId: text('context_message_id'),
    status: text('status').notNull(),
    statusHistory: jsonb('status_history').$type<Array<{ status: string; at: string; reason: string | null }>>().notNull().default([]),
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_messages_source_key').on(t.direction, t.phone, t.sourceRef),
    uniqueIndex('whatsapp_messages_provider_key').on(t.providerMessageId),
    index('whatsapp_messages_client_created_idx').on(t.clientId, t.createdAt),
    index('whatsapp_messages_queued_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'queued'`),
    check('whatsapp_messages_direction_check', sql`${t.direction} IN ('outbound', 'inbound')`),
    check('whatsapp_messages_kind_check', sql`${t.kind} IN ('template', 'text')`),
  ],
);

/** Chat channels linked to WhatsApp and the position of the last message their relay handled. */
export const whatsappChannelLinks = pgTable('whatsapp_channel_links', {
  channelId: uuid('channel_id')
    .primaryKey()
    .references(() => chatChannels.id),
  relayedPosition: bigint('relayed_position', { mode: 'number' }).notNull(),
  linkedBy: uuid('linked_by')
    .notNull()
    .references(() => users.id),
  linkedAt: timestamp('linked_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The surveillance scanner's watermarks (migration 0027): per source table, the (timestamp, id) of the last row read,
 * advanced in the pass's transaction. A missing row = start from the beginning of the table.
 */
export const surveillanceCursors = pgTable('surveillance_cursors', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  lastId: text('last_id').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Masked session recording (migration 0029, modules/recording): a signed-in user's recorded browser session. */
export const recordingSessions = pgTable(
  'recording_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    authSessionId: uuid('auth_session_id'),
    userAgent: text('user_agent'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastEventAt: timestamp('last_event_at', { withTimezone: true, mode: 'date' }),
    chunkCount: integer('chunk_count').notNull().default(0),
    eventCount: integer('event_count').notNull().default(0),
    bytes: integer('bytes').notNull().default(0),
  },
  (t) => [
    index('recording_sessions_client_started_idx').on(t.clientId, t.startedAt),
    index('recording_sessions_started_idx').on(t.startedAt),
  ],
);

/** One uploaded batch of a recording's rrweb events (masked in the browser), numbered by the recorder from 0. */
export const recordingChunks = pgTable(
  'recording_chunks',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => recordingSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    events: jsonb('events').$type<unknown[]>().notNull(),
    eventCount: integer('event_count').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.seq] })],
);
