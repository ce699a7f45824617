/** The audit read model (surveillance): the module's only surface. Writing rows stays in lib/audit.ts. */
export { createAuditService, type AuditService } from './audit.service';
export { registerAuditRoutes } from './audit.routes';
