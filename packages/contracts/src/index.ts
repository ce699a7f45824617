export {
  ROLES, ROLE_LABELS, PERMISSIONS, PERMISSION_LABELS, CLIENT_TYPES, CLIENT_MODES, CLIENT_SEGMENTS, CLIENT_TIERS,
  INDIVIDUAL_CATEGORIES, USER_ACCOUNT_STATUSES, EXCHANGES, DEFAULT_ALLOWED_EXCHANGES,
  hasAnyRole, hasAllPermissions, isComplianceUser, isViewerOnly, isViewOnly, homeRouteFor, isBasicTier, isPremiumTier,
  isClientOpsAdmin, isIndividualClient, isBrokerClient, isOnlyIccl, canOverridePrice, evaluateAccess,
} from './roles';
export type {
  Role, Permission, ClientType, ClientMode, ClientSegment, ClientTier, IndividualCategory, UserAccountStatus, Exchange,
  AccessSubject, AccessPolicy, AccessDecision,
} from './roles';
export {
  MESSAGES, requiredLabel, PAN_PATTERN, MOBILE_PATTERN, panSchema, mobileSchema, emailSchema, businessEmailSchema,
  isPersonalEmail, nameSchema, loginOtpSchema, pincodeSchema, accountNumberSchema, ifscSchema, gstSchema, boIdSchema,
  dpIdSchema, clientIdSchema, timeSchema, yieldFieldSchema, priceFieldSchema, quantumFieldSchema, passwordSchema,
  PASSWORD_MESSAGE,
} from './validation';
export { ERROR_CODES, ErrorBodySchema, INTERNAL_ERROR_MESSAGE, firstErrorMessage } from './errors';
export type { ErrorCode, ErrorBody } from './errors';
export {
  PRODUCT_NAME_DEFAULT, RETRYABLE_STATUSES, DEFAULT_RETRIES, UNAUTHORIZED_RETRY_LIMIT_PER_URL, ROUTE_PREFETCH_DELAY_MS,
  BUILD_MANIFEST_POLL_MS, SESSION_REFRESH_MS, WS, TOAST, Z_INDEX, DEFAULT_DATE_FORMAT, CONNECTIVITY_MESSAGES,
  ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_IDLE_SECONDS, REFRESH_TOKEN_ABSOLUTE_SECONDS, OTP, LOGIN_THROTTLE,
  ROUTE_REDIRECTS,
} from './constants';
export { formatIndianNumber, formatRupees, formatRupeesCompact, formatDateDefault } from './format';
export {
  OTP_REQUEST_TYPES, AUTH_MODES, LoginRequestSchema, TokenResponseSchema, RefreshRequestSchema, RequestOtpSchema,
  RequestOtpResponseSchema, OtpLoginSchema, ValidateOtpSchema, ValidateOtpResponseSchema, ResetPasswordSchema,
  ChangePasswordSchema, PASSWORDS_DIFFER, RegistrationSchema, UserAccountSchema, SessionUserSchema,
  SECURITY_PREFERENCES, UpdateProfileSchema, SecurityPreferenceUpdateSchema, UserSecurityPreferenceSchema,
} from './auth';
export type {
  OtpRequestType, AuthMode, LoginRequest, TokenResponse, RequestOtp, OtpLogin, ValidateOtp, ChangePassword,
  Registration, SessionUser, SecurityPreferenceKey,
} from './auth';
export { LAYOUTS, WEB_ROUTES, findWebRoute, webRoutePolicy, ERROR_PAGES, pageNotFoundText } from './web-routes';
export type { Layout, WebRoute } from './web-routes';
export {
  VersionSchema, BuildManifestSchema, HealthSchema, RedirectLookupQuerySchema, RedirectLookupSchema, SUPPORT_KINDS,
  SupportRequestSchema, SupportRequestCreatedSchema, ContactFormSchema, InviteCreateSchema, InviteSchema,
  InviteValidationSchema, PendingInviteListSchema, ClientUserSchema, ClientUserListSchema, AuditEntrySchema, AuditListQuerySchema,
  AuditListSchema, OutboxMessageSchema,
} from './app';
export type { Health, ContactForm } from './app';
export {
  LIVE_PROTOCOL_VERSION, LIVE_PATH, LiveClientMessageSchema, LiveServerMessageSchema, LIVE_CLOSE, LIVE_REPLAY_LIMIT, LIVE_LIMITS,
} from './live';
export type { LiveClientMessage, LiveServerMessage } from './live';
export {
  MIN_SEARCH_CHARACTERS, SEARCH_DEBOUNCE_MS, SEARCH_MAX_RESULTS, SEARCH_PLACEHOLDER, SEARCH_EMPTY_STATES, MATURED_LABEL, UNLISTED_LABEL,
  NOT_AVAILABLE, IM_DOWNLOAD_HINT, IM_DOWNLOAD_SUCCESS, PRICE_YIELD_SWITCH_THRESHOLD, SETTLEMENT_DELTAS, DEFAULT_SETTLEMENT_DELTA,
  LIST_PAGE_SIZE_MAX, LIST_PAGE_SIZE_DEFAULT, PRICING_MESSAGES, isinSchema, FinstrumentIdParamsSchema, SECURITY_TYPES,
  FinstrumentSearchQuerySchema, FinstrumentSummarySchema, FinstrumentSearchResponseSchema, RatingSchema, ReferencePriceSchema,
  FinstrumentDetailSchema, PriceRequestSchema, ConsiderationDetailsSchema, PriceInfoSchema, CashflowRequestSchema,
  CashflowScheduleSchema, NUMERIC_FILTER_TYPES, DATE_FILTER_TYPES, PaginationSchema, FINSTRUMENT_NUMERIC_FIELDS,
  FINSTRUMENT_DATE_FIELDS, FINSTRUMENT_SORT_FIELDS, IssuerBondsRequestSchema, FinstrumentListRequestSchema,
  FinstrumentListRowSchema, FinstrumentListSchema, TRADE_NUMERIC_FIELDS, TRADE_DATE_FIELDS, TRADE_SORT_FIELDS,
  TradesRequestSchema, TradeRowSchema, TradeListSchema, CreditRationaleSchema, ImDownloadRequestSchema, QuoteDownloadRequestSchema,
} from './finstruments';
export type { FinstrumentSummary, FinstrumentDetail, PriceRequest, ConsiderationDetails, PriceInfo } from './finstruments';
