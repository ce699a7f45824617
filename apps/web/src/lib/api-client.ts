/**
 * The one HTTP client of the web app: same origin, credentials included, and the retry and
 * 401-refresh rules of spec application §8 (implemented by @dart/client).
 */
import { createApi, createHttpClient, HttpError } from '@dart/client';
import { getAccessToken, setAccessToken } from './access-token';

let sessionLostHandler: () => void = () => undefined;

/** Registers what happens when the session cannot be recovered (the app goes to /auth/logout). */
export function onSessionLost(handler: () => void): void {
  sessionLostHandler = handler;
}

/** Tells the app the session is gone (refresh failed or returned 401). */
export function reportSessionLost(): void {
  sessionLostHandler();
}

let refreshInFlight: Promise<boolean> | null = null;
let lastRefreshAt = 0;

/**
 * Exchanges the httpOnly refresh cookie for a new access token. Concurrent callers share one
 * request: refresh tokens rotate, and two parallel refreshes would look like token reuse.
 * Resolves false when the server refuses (no session); rejects on network failure.
 */
export function refreshAccessToken(): Promise<boolean> {
  refreshInFlight ??= api
    .refresh()
    .then((tokens) => {
      setAccessToken(tokens.access);
      lastRefreshAt = Date.now();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
        setAccessToken(null);
        return false;
      }
      throw error;
    })
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

/** Milliseconds since the last successful refresh (Infinity when none). */
export function millisecondsSinceRefresh(): number {
  return lastRefreshAt === 0 ? Number.POSITIVE_INFINITY : Date.now() - lastRefreshAt;
}

export const http = createHttpClient({
  baseUrl: '',
  getAccessToken,
  refreshSession: refreshAccessToken,
  onLogout: () => sessionLostHandler(),
});

export const api = createApi(http);
