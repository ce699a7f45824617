import { SESSION_REFRESH_MS } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, millisecondsSinceRefresh, refreshAccessToken, reportSessionLost } from '../../../lib/api-client';
import { setSessionUser, useSession } from '../../../lib/session';

/** A focus right after a refresh (page load, tab switch back) does not need another one. */
const FOCUS_REFRESH_MIN_GAP_MS = 10_000;

/**
 * Spec §4: the session is refreshed every 240000 ms and when the window regains focus. A refused
 * refresh (401) signs the user out; a network failure is retried at the next tick.
 */
export function useSessionRefresh(): void {
  const queryClient = useQueryClient();
  const { status } = useSession();

  useEffect(() => {
    if (status !== 'authenticated') return undefined;
    let cancelled = false;

    async function refresh() {
      let ok: boolean;
      try {
        ok = await refreshAccessToken();
      } catch {
        return;
      }
      if (cancelled) return;
      if (!ok) {
        reportSessionLost();
        return;
      }
      try {
        setSessionUser(queryClient, await api.session());
      } catch {
        // Keep the current session state; the next refresh tries again.
      }
    }

    const interval = window.setInterval(() => void refresh(), SESSION_REFRESH_MS);
    const onFocus = () => {
      if (millisecondsSinceRefresh() >= FOCUS_REFRESH_MIN_GAP_MS) void refresh();
    };
    window.addEventListener('focus', onFocus);
    return () => {
      cancelled = true;
      window.clearInterval(interval);
      window.removeEventListener('focus', onFocus);
    };
  }, [status, queryClient]);
}
