/** Which screens a user can reach from the menus, decided by the same rules as the route guards. */
import { evaluateAccess, findWebRoute, isComplianceUser, isClientOpsAdmin, webRoutePolicy, type SessionUser } from '@dart/contracts';
import { toAccessSubject } from '../lib/session';

export type NavVisibility = 'visible' | 'premium' | 'hidden';

/** 'premium': shown with a Premium badge (BASIC clients reach the 402 page and can ask to upgrade). */
export function navVisibility(path: string, user: SessionUser | null): NavVisibility {
  const route = findWebRoute(path);
  if (!route) return 'hidden';
  if (!user) return route.access === 'authenticated' ? 'hidden' : 'visible';
  const subject = toAccessSubject(user);
  if (route.complianceRestricted && isComplianceUser(subject)) return 'hidden';
  const decision = evaluateAccess(webRoutePolicy(route), subject);
  if (decision === 'allow') return 'visible';
  if (decision === 'premium_required') return 'premium';
  return 'hidden';
}

export const APP_NAV_PATHS = ['/dart', '/find', '/inventory', '/client/transactions', '/surveillance'] as const;

export const APP_NAV_LABELS: Record<(typeof APP_NAV_PATHS)[number], string> = {
  '/dart': 'Workspace',
  '/find': 'Find',
  '/inventory': 'Inventory',
  '/client/transactions': 'Transactions',
  '/surveillance': 'Surveillance',
};

export const SETTINGS_NAV = [
  { path: '/profile', label: 'Profile' },
  { path: '/client/profile', label: 'Organisation' },
  { path: '/manage-users', label: 'Manage users' },
  { path: '/exchange-credentials', label: 'Exchange credentials' },
  { path: '/support/requests', label: 'My requests' },
  { path: '/ops/sessions', label: 'Session recordings' },
  { path: '/whatsapp/messages', label: 'WhatsApp messages' },
] as const;

export const canManageOrganisation = (user: SessionUser | null): boolean => user !== null && isClientOpsAdmin(toAccessSubject(user));
