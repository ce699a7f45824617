import type { QueryClient } from '@tanstack/react-query';
import { setAccessToken } from '../../../lib/access-token';
import { http } from '../../../lib/api-client';
import { setSessionHint } from '../../../lib/session-hint';
import { sessionQueryOptions } from '../../../lib/session';

/**
 * Spec §4 sign-out: clear the session and tokens and call the sign-out endpoint (which revokes
 * the refresh token and clears its cookie). The call skips the 401-refresh rule: a sign-out must
 * never trigger a refresh.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await http.post('/api/logout/', {}, { isTokenEndpoint: true });
  } catch {
    // Already signed out on the server (or offline): the local state is cleared regardless.
  }
  setAccessToken(null);
  setSessionHint(false);
  queryClient.setQueryData(sessionQueryOptions().queryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
}
