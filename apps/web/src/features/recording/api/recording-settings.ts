import type { RecordingSettings } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET api/recording/settings/: whether this deployment records sessions (read once per sign-in). */
export function getRecordingSettings(): Promise<RecordingSettings> {
  return http.get<RecordingSettings>('/api/recording/settings/');
}

export const recordingSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['recording', 'settings'] as const, queryFn: getRecordingSettings, staleTime: Number.POSITIVE_INFINITY });

export function useRecordingSettings(enabled = true) {
  return useQuery({ ...recordingSettingsQueryOptions(), enabled });
}
