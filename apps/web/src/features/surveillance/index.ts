/** Compliance surveillance: the audit trail for compliance officers (spec §2 /surveillance). */
export { AuditTrail } from './components/audit-trail';
