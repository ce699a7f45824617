import type { RecordingDetail, RecordingList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

const RECORDINGS_KEY = ['recording', 'sessions'] as const;

/** GET api/recording/sessions/: the ops admin's firm's recordings, newest first. */
export function getRecordings(page: number): Promise<RecordingList> {
  return http.get<RecordingList>(`/api/recording/sessions/?page=${page}&page_size=20`);
}

export const recordingsQueryOptions = (page: number) =>
  queryOptions({ queryKey: [...RECORDINGS_KEY, 'list', page] as const, queryFn: () => getRecordings(page), staleTime: 10_000 });

export function useRecordings(page: number, enabled = true) {
  return useQuery({ ...recordingsQueryOptions(page), placeholderData: keepPreviousData, retry: false, enabled });
}

/** GET api/recording/sessions/{id}/: one recording with its events. */
export function getRecording(id: string): Promise<RecordingDetail> {
  return http.get<RecordingDetail>(`/api/recording/sessions/${encodeURIComponent(id)}/`);
}

export function useRecording(id: string | null) {
  return useQuery({
    queryKey: [...RECORDINGS_KEY, 'detail', id] as const,
    queryFn: () => getRecording(id!),
    enabled: id !== null,
    staleTime: 10_000,
    retry: false,
  });
}
