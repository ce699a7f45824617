/**
 * The signed-in principal of a request, loaded from the database by session id and cached per
 * node for at most one second, so a sign-out, account disable or role change takes effect within
 * a second everywhere (RELIABILITY #9); the bus clears other nodes' entries at once.
 */
import type { AccessSubject, ClientTier, ClientType, Exchange, Permission, Role } from '@dart/contracts';
import type { Database } from '../../db/client';

export interface Principal extends AccessSubject {
  userId: string;
  sessionId: string;
  userAccountId: string;
  clientId: string;
  email: string;
  roles: Role[];
  permissions: Permission[];
  clientTier: ClientTier;
  clientType: ClientType;
  isBroker: boolean;
  allowedExchanges: Exchange[];
}

const CACHE_TTL_MS = 1000;

export interface PrincipalLoader {
  load(sessionId: string, userId: string): Promise<Principal | null>;
  forgetSession(sessionId: string): void;
  forgetUser(userId: string): void;
  /** Drops every entry (the bus resubscribed after a Redis reconnect: sign-outs may have been missed). */
  forgetAll(): void;
}

export function createPrincipalLoader(database: Database, now: () => number = Date.now): PrincipalLoader {
  const cache = new Map<string, { at: number; principal: Principal | null }>();
  return {
    async load(sessionId, userId) {
      const hit = cache.get(sessionId);
      if (hit && now() - hit.at < CACHE_TTL_MS) return hit.principal?.userId === userId ? hit.principal : null;
      const rows = await database.query<{
        user_id: string;
        session_id: string;
        user_account_id: string;
        client_id: string;
        email: string;
        roles: Role[] | null;
        permissions: Permission[] | null;
        tier: ClientTier;
        client_type: ClientType;
        is_broker: boolean;
        allowed_exchanges: Exchange[];
      }>(
        `SELECT u.id AS user_id, s.id AS session_id, a.id AS user_account_id, c.id AS client_id, u.email,
                (SELECT array_agg(r.role ORDER BY r.role) FROM user_account_roles r WHERE r.user_account_id = a.id) AS roles,
                (SELECT array_agg(p.permission ORDER BY p.permission) FROM user_account_permissions p WHERE p.user_account_id = a.id) AS permissions,
                c.tier, c.client_type, c.is_broker, c.allowed_exchanges
           FROM auth_sessions s
           JOIN users u ON u.id = s.user_id
           JOIN user_accounts a ON a.id = s.user_account_id
           JOIN clients c ON c.id = a.client_id
          WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.is_active AND a.status = 'active'`,
        [sessionId],
      );
      const row = rows[0];
      const principal: Principal | null = row
        ? {
            userId: row.user_id,
            sessionId: row.session_id,
            userAccountId: row.user_account_id,
            clientId: row.client_id,
            email: row.email,
            roles: row.roles ?? [],
            permissions: row.permissions ?? [],
            clientTier: row.tier,
            clientType: row.client_type,
            isBroker: row.is_broker,
            allowedExchanges: row.allowed_exchanges,
          }
        : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(sessionId, { at: now(), principal });
      return principal?.userId === userId ? principal : null;
    },
    forgetSession: (sessionId) => cache.delete(sessionId),
    forgetUser(userId) {
      for (const [key, entry] of cache) if (entry.principal?.userId === userId) cache.delete(key);
    },
    forgetAll: () => cache.clear(),
  };
}
