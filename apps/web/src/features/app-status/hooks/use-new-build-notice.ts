import { useEffect, useRef } from 'react';
import { showToast } from '../../../lib/toast';
import { useBuildManifest } from '../api/get-build-manifest';

/** Polls the build manifest; when the served build changes, offers a reload (never forces one mid-task). */
export function useNewBuildNotice(): void {
  const { data } = useBuildManifest();
  const firstId = useRef<string | null>(null);

  useEffect(() => {
    if (!data) return;
    if (firstId.current === null) {
      firstId.current = data.id;
      return;
    }
    if (data.id !== firstId.current) {
      showToast({
        id: 'new-build',
        group: 'suprsend-notif',
        summary: 'A new version of Dart is available',
        detail: 'Reload to get the latest improvements.',
        life: false,
        actionText: 'Reload now',
        onAction: () => window.location.reload(),
      });
    }
  }, [data]);
}
