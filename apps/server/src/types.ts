import type { AccessPolicy } from '@dart/contracts';
import type { Config } from './config';
import type { Database } from './db/client';
import type { EventBus } from './lib/bus';
import type { FileStore } from './lib/file-store';
import type { Mailer, SmsSender } from './lib/notify';
import type { Quotas } from './lib/quotas';
import type { SloMonitor } from './lib/slo';
import type { AuditContext } from './lib/audit';
import type { Principal, PrincipalLoader } from './modules/auth/principal';
import type { TokenSigner } from './modules/auth/tokens';

/** Everything modules need, built once in app.ts. */
export interface AppDeps {
  config: Config;
  database: Database;
  bus: EventBus;
  mailer: Mailer;
  sms: SmsSender;
  tokens: TokenSigner;
  principals: PrincipalLoader;
  /** Uploaded bytes (chat files): the file_blobs table on PostgreSQL, DATA_DIR/files on the embedded database. */
  files: FileStore;
  /** Daily business quotas (lib/quotas.ts). */
  quotas: Quotas;
  /** The API latency SLO and its slowdown alert (lib/slo.ts). */
  slo: SloMonitor;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route declares who may call it; the server refuses to start otherwise. */
    policy?: AccessPolicy;
  }
  interface FastifyRequest {
    principal: Principal | null;
    audit(): AuditContext;
  }
  interface FastifyInstance {
    deps: AppDeps;
    routeInventory: import('./plugins/access').RouteEntry[];
  }
}
