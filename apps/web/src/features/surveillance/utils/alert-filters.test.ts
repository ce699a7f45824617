import { SURVEILLANCE_MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { alertFilterErrors, alertSearchParams, countActiveAlertFilters, EMPTY_ALERT_FILTERS, toAlertQuery } from './alert-filters';

const OFFICER = '0b8f3f43-3c1e-4a43-9d59-1f1d3d6a0c11';

describe('alert list filters', () => {
  it('sends only the fields that are set', () => {
    expect(toAlertQuery(EMPTY_ALERT_FILTERS)).toEqual({});
    expect(countActiveAlertFilters(EMPTY_ALERT_FILTERS)).toBe(0);
    const filters = { ...EMPTY_ALERT_FILTERS, kind: 'off_market' as const, assignee: OFFICER, from: '2026-11-01' };
    expect(toAlertQuery(filters)).toEqual({ kind: 'off_market', assignee: OFFICER, from: '2026-11-01' });
    expect(countActiveAlertFilters(filters)).toBe(3);
  });

  it('builds the CSV export’s query from the same filters', () => {
    const params = alertSearchParams({ ...EMPTY_ALERT_FILTERS, status: 'escalated', to: '2026-11-30' }, { format: 'csv' });
    expect(params.toString()).toBe('status=escalated&to=2026-11-30&format=csv');
    expect(alertSearchParams(EMPTY_ALERT_FILTERS).toString()).toBe('');
  });

  it('checks the filters with the server’s schema and puts each message on its field', () => {
    expect(alertFilterErrors(EMPTY_ALERT_FILTERS)).toEqual({});
    expect(alertFilterErrors({ ...EMPTY_ALERT_FILTERS, from: '2026-11-02', to: '2026-11-01' })).toEqual({
      to: SURVEILLANCE_MESSAGES.dateOrder,
    });
    expect(alertFilterErrors({ ...EMPTY_ALERT_FILTERS, from: '02/11/2026' })).toEqual({ from: SURVEILLANCE_MESSAGES.date });
    expect(alertFilterErrors({ ...EMPTY_ALERT_FILTERS, assignee: 'someone' })).toEqual({ assignee: SURVEILLANCE_MESSAGES.assignee });
  });
});
