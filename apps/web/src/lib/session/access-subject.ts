import type { AccessSubject, SessionUser } from '@dart/contracts';
import { homeRouteFor } from '@dart/contracts';

/** The view of a session user that the contracts' access rules take. */
export function toAccessSubject(user: SessionUser): AccessSubject {
  return {
    roles: user.user_info.roles,
    permissions: user.permissions,
    clientTier: user.client_tier,
    clientType: user.client_type,
    isBroker: user.is_broker,
    allowedExchanges: user.allowed_exchanges,
  };
}

/** Home route: after sign-in per role (spec §2); '/' for visitors. */
export function homePathFor(user: SessionUser | null): string {
  return user ? homeRouteFor(toAccessSubject(user)) : '/';
}

/** Only same-origin paths are followed after sign-in (no open redirect). */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/auth/')) return null;
  return value;
}
