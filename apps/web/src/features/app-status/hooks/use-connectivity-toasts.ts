import { CONNECTIVITY_MESSAGES } from '@dart/contracts';
import { useEffect } from 'react';
import { hideToast, showToast } from '../../../lib/toast';

const OFFLINE_TOAST_ID = 'connectivity-offline';

/** Spec §4: offline → 'You are offline' (stays until back), online → 'Connected'. */
export function useConnectivityToasts(): void {
  useEffect(() => {
    const onOffline = () =>
      showToast({
        id: OFFLINE_TOAST_ID,
        group: 'connectivity',
        summary: CONNECTIVITY_MESSAGES.offline,
        severity: 'warn',
        life: false,
        closable: false,
      });
    const onOnline = () => {
      hideToast(OFFLINE_TOAST_ID, 'connectivity');
      showToast({ group: 'connectivity', summary: CONNECTIVITY_MESSAGES.online, severity: 'success' });
    };
    if (!navigator.onLine) onOffline();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, []);
}
