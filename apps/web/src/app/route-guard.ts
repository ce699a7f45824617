/**
 * Route guards of spec application §2 "Navigation rules", run in each route's `beforeLoad` with
 * the same policy functions the server uses (@dart/contracts).
 */
import { evaluateAccess, isComplianceUser, webRoutePolicy, WEB_ROUTES, type SessionUser, type WebRoute } from '@dart/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { RouteError } from '../lib/errors';
import { sessionQueryOptions, toAccessSubject } from '../lib/session';

export interface RouterContext {
  queryClient: QueryClient;
}

export function webRoute(path: string): WebRoute {
  const route = WEB_ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`No route policy for ${path}`);
  return route;
}

/** The session (loading it once per page load); null when signed out or, on public routes, unreachable. */
export async function loadSession(queryClient: QueryClient, required: boolean): Promise<SessionUser | null> {
  try {
    return await queryClient.ensureQueryData(sessionQueryOptions());
  } catch (error) {
    if (required) throw error;
    return null;
  }
}

/**
 * - signed-in user on an unauthenticated-only page → '/'
 * - visitor on a protected page → /auth/login?redirect=<original path>
 * - missing role or permission, or a compliance user on a compliance-restricted page → 401 page
 * - BASIC tier on a premium page → 402 page
 */
export async function guardRoute(route: WebRoute, context: RouterContext, location: ParsedLocation): Promise<{ user: SessionUser | null }> {
  const user = await loadSession(context.queryClient, route.access === 'authenticated');
  if (route.access === 'unauthenticated-only' && user) throw redirect({ to: '/' });
  if (route.access !== 'authenticated') return { user };
  if (!user) throw redirect({ to: '/auth/login', search: { redirect: location.href } });
  const subject = toAccessSubject(user);
  if (route.complianceRestricted && isComplianceUser(subject)) throw new RouteError(401);
  const decision = evaluateAccess(webRoutePolicy(route), subject);
  if (decision === 'forbidden' || decision === 'view_only') throw new RouteError(401);
  if (decision === 'premium_required') throw new RouteError(402);
  return { user };
}
