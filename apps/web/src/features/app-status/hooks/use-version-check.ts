import { useEffect } from 'react';
import { getVersion } from '../api/get-version';

export const PREVIOUS_VERSION_KEY = 'previousVersion';

/**
 * Spec §4 version check: when /version.json differs from the stored previousVersion, store the new
 * version and reload the page. A first visit has nothing to compare with: it only stores the
 * version (reloading a page the browser has just loaded fresh would gain nothing).
 */
export function useVersionCheck(): void {
  useEffect(() => {
    let cancelled = false;
    getVersion()
      .then((version) => {
        if (cancelled) return;
        const previous = window.localStorage.getItem(PREVIOUS_VERSION_KEY);
        window.localStorage.setItem(PREVIOUS_VERSION_KEY, version);
        if (previous !== null && previous !== version) window.location.reload();
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
}
