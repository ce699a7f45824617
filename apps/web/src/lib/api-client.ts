/**
 * The one HTTP client of the web app: same origin, credentials included, and the retry and
 * 401-refresh rules of spec application §8 (implemented by @dart/client).
 */
import { createApi, createHttpClient, HttpError } from '@dart/client';
import { getAccessToken, setAccessToken } from './access-token';
import { setSessionHint } from './session-hint';

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
 * Resolves false when the server refuses the refresh token (no session); rejects on network
 * failures and on 429/5xx, which say nothing about the session.
 */
export function refreshAccessToken(): Promise<boolean> {
  refreshInFlight ??= api
    .refresh()
    .then((tokens) => {
      setAccessToken(tokens.access);
      setSessionHint(true);
      lastRefreshAt = Date.now();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof HttpError && [400, 401, 403].includes(error.status)) {
        setAccessToken(null);
        setSessionHint(false);
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
