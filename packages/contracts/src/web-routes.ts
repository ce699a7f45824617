/** The web route table of spec application §2, with layouts and access rules. */
import type { AccessPolicy, Permission, Role } from './roles';

export const LAYOUTS = [
  'index',
  'noheader',
  'independentblue',
  'default',
  'bare',
  'dart',
  'settings',
  'productdart',
  'productfind',
  'nofooter',
] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface WebRoute {
  path: string;
  layouts: readonly Layout[];
  access: 'public' | 'unauthenticated-only' | 'authenticated';
  roles?: readonly Role[];
  permissions?: readonly Permission[];
  /** Compliance users get the 401 page here. */
  complianceRestricted?: boolean;
  /** BASIC-tier clients get the 402 page here (our choice: portfolio features are premium). */
  premium?: boolean;
  /** A redirect-middleware route: its target comes from the redirect lookup. */
  redirect?: boolean;
  title: string;
}

export const WEB_ROUTES: readonly WebRoute[] = [
  { path: '/', layouts: ['index', 'noheader'], access: 'public', title: 'Home' },
  { path: '/about', layouts: ['noheader'], access: 'public', title: 'About' },
  { path: '/auth/forgot-password', layouts: ['independentblue'], access: 'unauthenticated-only', title: 'Forgot password' },
  { path: '/auth/login', layouts: ['independentblue'], access: 'unauthenticated-only', title: 'Sign in' },
  { path: '/auth/logout', layouts: ['default'], access: 'public', title: 'Signed out' },
  { path: '/auth/reset-password', layouts: ['independentblue'], access: 'unauthenticated-only', title: 'Reset password' },
  { path: '/best-practices', layouts: ['default'], access: 'public', title: 'Best practices' },
  { path: '/chat-policy', layouts: ['default'], access: 'public', title: 'Chat policy' },
  { path: '/chat', layouts: ['dart'], access: 'authenticated', title: 'Chat' },
  { path: '/client/register', layouts: ['bare'], access: 'unauthenticated-only', title: 'Register' },
  {
    path: '/client/transactions',
    layouts: ['dart'],
    access: 'authenticated',
    roles: ['clientdealer', 'clientviewer', 'backoffice'],
    premium: true,
    title: 'Transactions',
  },
  { path: '/contact', layouts: ['default'], access: 'public', title: 'Contact' },
  { path: '/dart', layouts: ['dart'], access: 'authenticated', complianceRestricted: true, title: 'Dart' },
  {
    path: '/exchange-credentials',
    layouts: ['settings'],
    access: 'authenticated',
    roles: ['clientopsadmin'],
    title: 'Exchange credentials',
  },
  { path: '/find', layouts: ['dart'], access: 'public', title: 'Find' },
  {
    path: '/inventory',
    layouts: ['dart'],
    access: 'authenticated',
    permissions: ['inventory.has_inventory_access'],
    premium: true,
    title: 'Inventory',
  },
  { path: '/manage-users', layouts: ['settings'], access: 'authenticated', roles: ['clientopsadmin'], title: 'Manage users' },
  // Issue 16 §3 (ours): the ops admin's masked session recordings of their own firm, and their replay.
  { path: '/ops/sessions', layouts: ['settings'], access: 'authenticated', roles: ['clientopsadmin'], title: 'Session recordings' },
  { path: '/market', layouts: ['dart'], access: 'authenticated', redirect: true, title: 'Market' },
  { path: '/privacy', layouts: ['default'], access: 'public', title: 'Privacy' },
  { path: '/product/dart', layouts: ['productdart'], access: 'public', title: 'Dart' },
  { path: '/product/find', layouts: ['productfind'], access: 'public', title: 'Find' },
  { path: '/profile', layouts: ['settings'], access: 'authenticated', title: 'Profile' },
  { path: '/security/$id', layouts: ['dart'], access: 'public', title: 'Security' },
  // Issue 15 §2 (ours; the spec has no page for them): the requester's support tickets, and Dart Support's queue
  // (the desk refuses anyone not in support_staff, and the web shows the page's link to staff only).
  { path: '/support/requests', layouts: ['settings'], access: 'authenticated', title: 'My requests' },
  { path: '/support/queue', layouts: ['settings'], access: 'authenticated', title: 'Support queue' },
  { path: '/surveillance', layouts: ['dart'], access: 'authenticated', roles: ['complianceofficer'], title: 'Surveillance' },
  // Issue 16 §2 (ours): the firm's messages over the WhatsApp link, for its compliance officers and ops admins.
  {
    path: '/whatsapp/messages',
    layouts: ['settings'],
    access: 'authenticated',
    roles: ['complianceofficer', 'clientopsadmin'],
    title: 'WhatsApp messages',
  },
  { path: '/terms', layouts: ['default'], access: 'public', title: 'Terms' },
  { path: '/trade', layouts: ['dart'], access: 'authenticated', redirect: true, title: 'Trade' },
  { path: '/client/profile', layouts: ['settings'], access: 'authenticated', title: 'Client profile' },
];

export function findWebRoute(path: string): WebRoute | undefined {
  return WEB_ROUTES.find((route) =>
    route.path.includes('$') ? path.startsWith(route.path.slice(0, route.path.indexOf('$'))) : route.path === path,
  );
}

/** The access policy of a web route, expressed in the same terms as the server's. */
export function webRoutePolicy(route: WebRoute): AccessPolicy {
  if (route.access !== 'authenticated') return { kind: 'public' };
  return { kind: 'authenticated', roles: route.roles ?? [], permissions: route.permissions ?? [], premium: route.premium ?? false };
}

/** Error page texts of spec application §2. */
export const ERROR_PAGES = {
  410: { title: 'Invitation URL invalid', body: 'Please ask your account administrator to invite you again.' },
  404: { title: 'Not Found', body: 'Please check the URL.' },
  500: { title: 'Internal Server Error', body: 'Something broke on our side. Please try again.' },
  401: { title: 'Access Denied', body: 'Please contact your administrator for access.' },
  402: {
    title: 'Premium',
    body: 'Upgrade to Premium to manage your portfolio efficiently, execute trades from a single screen and record external trades.',
  },
  other: { title: 'Something went wrong...', body: '' },
} as const;
export const pageNotFoundText = (path: string): string => `Page not found: ${path}`;
