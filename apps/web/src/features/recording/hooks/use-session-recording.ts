import { useEffect } from 'react';
import { useSession } from '../../../lib/session';
import { useRecordingSettings } from '../api/recording-settings';
import type { SessionRecorder } from '../recorder';

/**
 * Records the signed-in session when the server has recording on (README): starts after sign-in, stops on sign-out.
 * rrweb is loaded only then, with a dynamic import; visitors and deployments with recording off never fetch it.
 */
export function useSessionRecording(): void {
  const { user } = useSession();
  const userId = user?.user_info.id ?? null;
  const settings = useRecordingSettings(userId !== null);
  const enabled = userId !== null && settings.data?.enabled === true;

  useEffect(() => {
    if (!enabled || !settings.data) return undefined;
    let recorder: SessionRecorder | null = null;
    let cancelled = false;
    const current = settings.data;
    void import('../recorder')
      .then(({ startSessionRecorder }) => startSessionRecorder(current))
      .then((started) => {
        if (cancelled) void started.stop();
        else recorder = started;
      })
      .catch(() => {
        // Recording is best effort: the app works the same without it.
      });
    return () => {
      cancelled = true;
      void recorder?.stop();
    };
  }, [enabled, settings.data]);
}
