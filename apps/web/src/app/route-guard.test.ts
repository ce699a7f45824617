import type { SessionUser } from '@dart/contracts';
import { QueryClient } from '@tanstack/react-query';
import { isRedirect, type ParsedLocation } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { RouteError } from '../lib/errors';
import { sessionQueryOptions } from '../lib/session';
import { sessionUser } from '../test/session-user';
import { guardRoute, webRoute } from './route-guard';

function contextWith(user: SessionUser | null) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(sessionQueryOptions().queryKey, user);
  return { queryClient };
}

const at = (href: string) => ({ href, pathname: href.split('?')[0] }) as ParsedLocation;

/** What a guard decides: 'allow', a redirect target, or an error page status. */
async function outcome(path: string, user: SessionUser | null, href = path): Promise<string> {
  try {
    await guardRoute(webRoute(path), contextWith(user), at(href));
    return 'allow';
  } catch (thrown) {
    if (isRedirect(thrown)) {
      const options = thrown.options as { to?: string; search?: Record<string, string> };
      const search = options.search ? `?${new URLSearchParams(options.search).toString()}` : '';
      return `redirect ${options.to}${search}`;
    }
    if (thrown instanceof RouteError) return String(thrown.status);
    throw thrown;
  }
}

const dealer = sessionUser();
const compliance = sessionUser({ roles: ['complianceofficer', 'user'], permissions: [] });
const opsAdmin = sessionUser({ roles: ['clientopsadmin'], permissions: [] });
const viewer = sessionUser({ roles: ['clientviewer'], permissions: ['finstruments.has_security_data_access'] });
const basicDealer = sessionUser({ tier: 'BASIC' });

describe('route guards (spec application §2 navigation rules)', () => {
  it('sends visitors on protected routes to the login page with the original path', async () => {
    expect(await outcome('/profile', null)).toBe('redirect /auth/login?redirect=%2Fprofile');
    expect(await outcome('/dart', null, '/dart?tab=chat')).toBe('redirect /auth/login?redirect=%2Fdart%3Ftab%3Dchat');
  });

  it('sends signed-in users on unauthenticated-only pages to /', async () => {
    for (const path of ['/auth/login', '/auth/forgot-password', '/auth/reset-password', '/client/register']) {
      expect(await outcome(path, dealer)).toBe('redirect /');
    }
  });

  it('lets everyone through public pages', async () => {
    for (const path of ['/', '/about', '/find', '/security/$id', '/contact', '/auth/logout']) {
      expect(await outcome(path, null)).toBe('allow');
      expect(await outcome(path, compliance)).toBe('allow');
    }
  });

  it('gives the 401 page for a missing role, and allows any listed role', async () => {
    expect(await outcome('/surveillance', dealer)).toBe('401');
    expect(await outcome('/surveillance', compliance)).toBe('allow');
    expect(await outcome('/manage-users', viewer)).toBe('401');
    expect(await outcome('/manage-users', opsAdmin)).toBe('allow');
    expect(await outcome('/exchange-credentials', dealer)).toBe('401');
    expect(await outcome('/client/transactions', viewer)).toBe('allow');
    expect(await outcome('/client/transactions', opsAdmin)).toBe('401');
  });

  it('gives the 401 page when a required permission is missing', async () => {
    expect(await outcome('/inventory', viewer)).toBe('401');
    expect(await outcome('/inventory', dealer)).toBe('allow');
  });

  it('gives compliance users the 401 page on the compliance-restricted /dart', async () => {
    expect(await outcome('/dart', compliance)).toBe('401');
    expect(await outcome('/dart', dealer)).toBe('allow');
    expect(await outcome('/dart', opsAdmin)).toBe('allow');
  });

  it('gives BASIC-tier clients the 402 page on premium routes', async () => {
    expect(await outcome('/inventory', basicDealer)).toBe('402');
    expect(await outcome('/client/transactions', basicDealer)).toBe('402');
    expect(await outcome('/dart', basicDealer)).toBe('allow');
  });
});
