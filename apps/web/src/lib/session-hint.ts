/**
 * A non-secret marker that this browser signed in before, so a page load only asks the server to
 * refresh a session that may exist. Visitors who never signed in cost the server no refresh call
 * (the refresh endpoint is rate-limited per IP). The refresh token itself stays in its httpOnly
 * cookie; this marker grants nothing.
 */
const KEY = 'dart.session-hint';

export function hasSessionHint(): boolean {
  try {
    return window.localStorage.getItem(KEY) === '1';
  } catch {
    return true;
  }
}

export function setSessionHint(present: boolean): void {
  try {
    if (present) window.localStorage.setItem(KEY, '1');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private mode): every page load then tries a refresh.
  }
}
