import { PARTICIPANT_SEARCH_PATHS, type CredentialCorp, type ParticipantList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET api/search-nsscl-participants/ or api/search-iccl-participants/ with search_param: the published participant list. */
export function searchParticipants(corp: CredentialCorp, search: string): Promise<ParticipantList> {
  return http.get<ParticipantList>(`${PARTICIPANT_SEARCH_PATHS[corp]}?search_param=${encodeURIComponent(search)}`);
}

export const participantsQueryOptions = (corp: CredentialCorp, search: string) =>
  queryOptions({
    queryKey: ['participants', corp, search] as const,
    queryFn: () => searchParticipants(corp, search),
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });

export function useParticipants(corp: CredentialCorp, search: string, enabled: boolean) {
  return useQuery({ ...participantsQueryOptions(corp, search), enabled });
}
