import { describe, expect, it } from 'vitest';
import { sessionUser } from '../../test/session-user';
import { homePathFor, safeRedirectPath } from './access-subject';

describe('home route and sign-in redirect', () => {
  it('sends compliance users to /surveillance, everyone else to /dart, visitors to /', () => {
    expect(homePathFor(sessionUser({ roles: ['complianceofficer', 'user'] }))).toBe('/surveillance');
    expect(homePathFor(sessionUser({ roles: ['clientdealer'] }))).toBe('/dart');
    expect(homePathFor(sessionUser({ roles: ['complianceofficer', 'clientdealer', 'user'] }))).toBe('/dart');
    expect(homePathFor(null)).toBe('/');
  });

  it('follows only same-origin paths after sign-in', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/dart?tab=chat')).toBe('/dart?tab=chat');
    expect(safeRedirectPath('https://evil.example/')).toBeNull();
    expect(safeRedirectPath('//evil.example/')).toBeNull();
    expect(safeRedirectPath('/\\evil.example')).toBeNull();
    expect(safeRedirectPath('/auth/logout')).toBeNull();
    expect(safeRedirectPath(undefined)).toBeNull();
  });
});
