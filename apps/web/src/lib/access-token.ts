/**
 * The access token lives in memory only (never in storage): a page load starts without one and
 * obtains it from the refresh cookie. See lib/api-client.ts.
 */
let accessToken: string | null = null;

export function getAccessToken(): string | null {
  return accessToken;
}

export function setAccessToken(token: string | null): void {
  accessToken = token;
}
