/** Compliance surveillance (spec §2 /surveillance, issue 16 §1): the firm's alerts with triage, its chats, and the audit trail. */
export { AlertsList } from './components/alerts-list';
export { AuditTrail } from './components/audit-trail';
export { ChatsList } from './components/chats-list';
