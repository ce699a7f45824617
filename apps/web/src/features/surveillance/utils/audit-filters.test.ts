import { AUDIT_FILTER_MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { auditFilterErrors, countActiveAuditFilters, EMPTY_AUDIT_FILTERS, toAuditQuery } from './audit-filters';

describe('audit trail filters', () => {
  it('sends only the fields that are set, with the search trimmed', () => {
    expect(toAuditQuery(EMPTY_AUDIT_FILTERS)).toEqual({});
    expect(toAuditQuery({ ...EMPTY_AUDIT_FILTERS, from: '2025-08-01', category: 'chat', search: '  arjun ' })).toEqual({
      from: '2025-08-01',
      category: 'chat',
      q: 'arjun',
    });
    expect(countActiveAuditFilters({ ...EMPTY_AUDIT_FILTERS, search: '   ' })).toBe(0);
  });

  it('checks the filters with the server’s schema and puts each message on its field', () => {
    expect(auditFilterErrors(EMPTY_AUDIT_FILTERS)).toEqual({});
    expect(auditFilterErrors({ ...EMPTY_AUDIT_FILTERS, from: '2025-08-02', to: '2025-08-01' })).toEqual({
      to: AUDIT_FILTER_MESSAGES.dateOrder,
    });
    expect(auditFilterErrors({ ...EMPTY_AUDIT_FILTERS, search: 'x'.repeat(101) })).toEqual({ search: AUDIT_FILTER_MESSAGES.search });
  });
});
