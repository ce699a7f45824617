/**
 * Which write controls a user is shown. The server refuses every business write of a view-only user
 * (viewer, compliance: 403 VIEW_ONLY; contracts `evaluateAccess` with `write: true`); the app shows
 * those users no control that would only earn that refusal. Every feature asks here, not the roles.
 */
import { isViewOnly, type SessionUser } from '@dart/contracts';
import { toAccessSubject } from './access-subject';
import { useSession } from './session';

/** Signed in and not view-only: may chat (start, send, edit, delete, accept, manage members). */
export function canWrite(user: SessionUser | null): boolean {
  return user !== null && !isViewOnly(toAccessSubject(user));
}

/** May post and answer quotes: a writer with the trading permission. */
export function canTrade(user: SessionUser | null): boolean {
  return user !== null && canWrite(user) && user.permissions.includes('client.can_trade');
}

/** `canWrite` for the signed-in session (false while it loads and for visitors). */
export function useCanWrite(): boolean {
  return canWrite(useSession().user);
}

/** `canTrade` for the signed-in session. */
export function useCanTrade(): boolean {
  return canTrade(useSession().user);
}
