import { api } from '../lib/api-client';

/** Redirect middleware (spec §2): GET /api/redirects/?path= → the route's target, or null. */
export async function lookupRedirect(path: string): Promise<string | null> {
  try {
    const { target } = await api.redirectFor(path);
    return target && target !== path && target.startsWith('/') ? target : null;
  } catch {
    return null;
  }
}
