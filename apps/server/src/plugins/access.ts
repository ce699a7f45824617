/**
 * Access control: authenticates the bearer token and enforces each route's declared policy with
 * the same `evaluateAccess` the web uses. A route without a policy stops the server at start-up.
 */
import { evaluateAccess, type AccessDecision, type AccessPolicy } from '@dart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

/** Routes registered by infrastructure plugins (API docs UI and its assets) are public by design. */
const INFRASTRUCTURE_PREFIXES = ['/api/docs'];

const DECISION_ERRORS: Record<Exclude<AccessDecision, 'allow'>, () => AppError> = {
  unauthenticated: () => new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided.'),
  forbidden: () => new AppError('FORBIDDEN', 'You do not have permission to perform this action.'),
  view_only: () => new AppError('VIEW_ONLY', 'Your role is view-only and cannot make changes.'),
  premium_required: () => new AppError('PREMIUM_REQUIRED', 'This feature needs the Premium plan.'),
};

export class MissingPolicyError extends Error {
  constructor(method: string | string[], url: string) {
    super(`Route ${String(method)} ${url} declares no access policy`);
  }
}

/** Every registered route with its policy: the machine-readable inventory the authz matrix test checks. */
export interface RouteEntry {
  method: string;
  url: string;
  policy: AccessPolicy;
  websocket: boolean;
}

export function registerAccessControl(app: FastifyInstance): RouteEntry[] {
  const inventory: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const isInfrastructure = INFRASTRUCTURE_PREFIXES.some((prefix) => route.url.startsWith(prefix));
    if (!route.config?.policy) {
      if (isInfrastructure || route.method === 'HEAD') {
        route.config = { ...route.config, policy: { kind: 'public' } };
      } else throw new MissingPolicyError(route.method, route.url);
    }
    for (const method of [route.method].flat())
      if (method !== 'HEAD' && !isInfrastructure)
        inventory.push({ method, url: route.url, policy: route.config!.policy!, websocket: Boolean(route.websocket) });
  });

  app.decorateRequest('principal', null);
  app.decorateRequest('audit', function audit(this: FastifyRequest) {
    return {
      actorUserId: this.principal?.userId ?? null,
      actorClientId: this.principal?.clientId ?? null,
      actorEmail: this.principal?.email ?? null,
      actorRoles: this.principal?.roles ?? null,
      ip: this.ip,
      userAgent: this.headers['user-agent']?.slice(0, 300) ?? null,
      requestId: String(this.id),
    };
  });

  app.addHook('onRequest', async (request) => {
    // Not-found and static fallbacks have no policy: they serve nothing private.
    const policy: AccessPolicy = request.routeOptions.config?.policy ?? { kind: 'public' };
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (bearer) {
      try {
        const claims = await app.deps.tokens.verify(bearer);
        request.principal = await app.deps.principals.load(claims.sessionId, claims.userId);
        if (!request.principal && policy.kind !== 'public')
          throw new AppError('UNAUTHENTICATED', 'Session has ended. Please sign in again.');
      } catch (error) {
        // A bad token on a public route is ignored; elsewhere it is a 401.
        if (policy.kind !== 'public' || !(error instanceof AppError)) throw error;
      }
    }
    const decision = evaluateAccess(policy, request.principal);
    if (decision !== 'allow') {
      if (decision !== 'unauthenticated')
        request.log.warn({ decision, userId: request.principal?.userId, route: request.routeOptions.url }, 'access refused');
      throw DECISION_ERRORS[decision]();
    }
  });
  return inventory;
}
