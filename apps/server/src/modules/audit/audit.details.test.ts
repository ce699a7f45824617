import { describe, expect, it } from 'vitest';
import { describeAuditDetails, entityLabel } from './audit.details';

const ID = '0b7f5c3e-4c1a-4a57-9d3e-2f1a6b8c9d0e';

describe('audit details in words', () => {
  it('writes prices per ₹100, yields in %, sizes in ₹ lakh/crore and leaves ids out', () => {
    expect(
      describeAuditDetails(null, {
        price: 101.25,
        yield: 0.0712,
        quantum: 50_000_000,
        buyer: ID,
        seller: ID,
        settlement_date: '2025-08-22',
      }),
    ).toBe('Price: 101.2500 · Yield: 7.1200% · Size: ₹5 Cr · Settlement date: 2025-08-22');
  });

  it('shows a change as old → new and skips unchanged fields', () => {
    expect(describeAuditDetails({ first_name: 'Arjun', last_name: 'Mehta' }, { first_name: 'Arjun', last_name: 'Shah' })).toBe(
      'Last name: Mehta → Shah',
    );
    expect(describeAuditDetails({ status: 'open' }, { status: 'closed', replaced_by: null })).toBe('Status: Open → Closed');
  });

  it('counts lists of people instead of listing their ids, and flattens nested values', () => {
    expect(describeAuditDetails(null, { invited: [ID, ID] })).toBe('Invited: 2 people');
    expect(describeAuditDetails(null, { add: [ID], remove: [], reason: 'no operator left' })).toBe(
      'Added: 1 person · Reason: no operator left',
    );
    expect(describeAuditDetails({}, { login_alerts: true })).toBe('Login alerts: Yes');
    expect(describeAuditDetails(null, null)).toBe('');
    expect(describeAuditDetails(null, { user_id: ID })).toBe('');
  });

  it('writes roles and permissions by their labels, not their codes', () => {
    expect(describeAuditDetails(null, { email: 'a@b.in', roles: ['complianceofficer', 'user'] })).toBe(
      'Email: a@b.in · Roles: Compliance Officer, Basic',
    );
  });

  it('names entities in words', () => {
    expect(entityLabel('chat_channel')).toBe('Chat');
    expect(entityLabel('cluster')).toBe('Match');
    expect(entityLabel('rfq_response')).toBe('Rfq response');
  });
});
