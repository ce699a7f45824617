import { describe, expect, it } from 'vitest';
import { evaluateAccess, hasAllPermissions, hasAnyRole, homeRouteFor, isComplianceUser, isViewOnly, isViewerOnly } from './roles';

const dealer = { roles: ['clientdealer'] as const, permissions: ['client.can_trade'] as const, clientTier: 'PREMIUM' as const };

describe('role and permission checks (spec application §6)', () => {
  it('passes a role check when the user holds any listed role', () => {
    expect(hasAnyRole({ roles: ['clientviewer', 'backoffice'] }, ['clientdealer', 'backoffice'])).toBe(true);
    expect(hasAnyRole({ roles: ['clientviewer'] }, ['clientdealer', 'backoffice'])).toBe(false);
  });
  it('requires every listed permission', () => {
    expect(hasAllPermissions({ permissions: ['client.can_trade'] }, ['client.can_trade', 'client.view_client'])).toBe(false);
    expect(hasAllPermissions({ permissions: ['client.can_trade', 'client.view_client'] }, ['client.can_trade', 'client.view_client'])).toBe(
      true,
    );
  });
  it('treats exactly two roles including compliance as a compliance user', () => {
    expect(isComplianceUser({ roles: ['complianceofficer', 'user'] })).toBe(true);
    expect(isComplianceUser({ roles: ['complianceofficer'] })).toBe(false);
    expect(isComplianceUser({ roles: ['complianceofficer', 'user', 'clientdealer'] })).toBe(false);
  });
  it('treats only the viewer role as a viewer', () => {
    expect(isViewerOnly({ roles: ['clientviewer'] })).toBe(true);
    expect(isViewerOnly({ roles: ['clientviewer', 'clientdealer'] })).toBe(false);
  });
  it('makes compliance and viewer users view-only, and nobody else', () => {
    expect(isViewOnly({ roles: ['clientviewer'] })).toBe(true);
    expect(isViewOnly({ roles: ['complianceofficer', 'user'] })).toBe(true);
    expect(isViewOnly({ roles: ['clientdealer'] })).toBe(false);
  });
  it('sends compliance users home to surveillance and everyone else to dart', () => {
    expect(homeRouteFor({ roles: ['complianceofficer', 'user'] })).toBe('/surveillance');
    expect(homeRouteFor({ roles: ['clientdealer'] })).toBe('/dart');
  });
  it('evaluates policies in order: sign-in, role, permission, view-only, plan', () => {
    expect(evaluateAccess({ kind: 'authenticated' }, null)).toBe('unauthenticated');
    expect(evaluateAccess({ kind: 'public' }, null)).toBe('allow');
    expect(evaluateAccess({ kind: 'authenticated', roles: ['clientopsadmin'] }, dealer)).toBe('forbidden');
    expect(evaluateAccess({ kind: 'authenticated', permissions: ['client.view_client'] }, dealer)).toBe('forbidden');
    expect(evaluateAccess({ kind: 'authenticated', write: true }, { ...dealer, roles: ['clientviewer'] })).toBe('view_only');
    expect(evaluateAccess({ kind: 'authenticated', premium: true }, { ...dealer, clientTier: 'BASIC' })).toBe('premium_required');
    expect(evaluateAccess({ kind: 'authenticated', write: true, premium: true }, dealer)).toBe('allow');
  });
});
