import { HttpError } from '@dart/client';
import type { SessionUser, TokenResponse } from '@dart/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { getAccessToken, setAccessToken } from '../access-token';
import { api, refreshAccessToken } from '../api-client';
import { hasSessionHint, setSessionHint } from '../session-hint';

/**
 * The session user (spec §3) or null. Without an access token in memory (every page load) the
 * refresh cookie is exchanged for one first; a refused refresh means "not signed in".
 */
export async function getSession(): Promise<SessionUser | null> {
  if (!getAccessToken()) {
    if (!hasSessionHint()) return null;
    if (!(await refreshAccessToken())) return null;
  }
  try {
    return await api.session();
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return null;
    throw error;
  }
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ['session'] as const,
    queryFn: getSession,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** Auth status per spec §4: the presence of a session object decides. */
export function useSession(): { user: SessionUser | null; status: AuthStatus } {
  const query = useQuery(sessionQueryOptions());
  if (query.isPending) return { user: null, status: 'loading' };
  const user = query.data ?? null;
  return { user, status: user ? 'authenticated' : 'unauthenticated' };
}

/** The signed-in user; for components rendered only behind an authenticated route. */
export function useSessionUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useSessionUser used outside an authenticated route');
  return user;
}

/** Stores the new access token and loads the session (spec §4 sign-in). */
export async function completeSignIn(queryClient: QueryClient, tokens: TokenResponse): Promise<SessionUser> {
  setAccessToken(tokens.access);
  setSessionHint(true);
  const user = await api.session();
  queryClient.setQueryData(sessionQueryOptions().queryKey, user);
  return user;
}

/** Replaces the cached session user after a call that returns the updated state. */
export function setSessionUser(queryClient: QueryClient, user: SessionUser | null): void {
  queryClient.setQueryData(sessionQueryOptions().queryKey, user);
}
