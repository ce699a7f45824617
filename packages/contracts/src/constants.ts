/** Business constants and limits of spec application §9. */
export const PRODUCT_NAME_DEFAULT = 'Dart';
export const RETRYABLE_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
export const DEFAULT_RETRIES = { GET: 1, PATCH: 0, POST: 0, PUT: 0, DELETE: 0 } as const;
export const UNAUTHORIZED_RETRY_LIMIT_PER_URL = 2;
export const ROUTE_PREFETCH_DELAY_MS = 1000;
/** The spec leaves the build-manifest poll interval open; we poll every 5 minutes. */
export const BUILD_MANIFEST_POLL_MS = 300_000;
export const SESSION_REFRESH_MS = 240_000;
export const WS = {
  pingIntervalMs: 10_000,
  offlineThresholdMs: 30_000,
  reconnectMinMs: 1_000,
  reconnectMaxMs: 10_000,
  reconnectFactor: 1.3,
  connectionTimeoutMs: 4_000,
  /** Largest WebSocket frame the server accepts (RELIABILITY #33). */
  maxPayloadBytes: 64 * 1024,
} as const;
export const TOAST = {
  lifetimeMs: 4000,
  pauseOnHover: true,
  groups: {
    default: { position: 'top-center' },
    'suprsend-notif': { position: 'top-right', width: '20rem' },
    loader: { position: 'bottom-center' },
    connectivity: { position: 'bottom-left' },
  },
} as const;
export const Z_INDEX = { tooltip: 1100, modal: 1100, overlay: 1000 } as const;
export const DEFAULT_DATE_FORMAT = 'mm/dd/yy';
export const CONNECTIVITY_MESSAGES = { offline: 'You are offline', online: 'Connected' } as const;
/** Access tokens live 5 minutes: longer than the 240 s session refresh, short per ASVS 7.3. */
export const ACCESS_TOKEN_TTL_SECONDS = 300;
/** Refresh tokens: idle 12 hours, absolute 7 days (documented in README decisions). */
export const REFRESH_TOKEN_IDLE_SECONDS = 12 * 3600;
export const REFRESH_TOKEN_ABSOLUTE_SECONDS = 7 * 24 * 3600;
export const OTP = {
  length: 6,
  ttlSeconds: 300,
  maxAttempts: 5,
  /** Sends per identity and per IP in the window (RELIABILITY #3). */
  maxSendsPerWindow: 5,
  sendWindowSeconds: 900,
} as const;
export const LOGIN_THROTTLE = { maxFailuresPerWindow: 10, windowSeconds: 900 } as const;
/** The spec leaves the /market and /trade redirect targets open; both lead to the trading workspace. */
export const ROUTE_REDIRECTS: Readonly<Record<string, string>> = { '/market': '/dart', '/trade': '/dart' };
