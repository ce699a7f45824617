import { CHAT_LIMITS, type ChatUserListSchema, type ChatUserSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS, USER_SEARCH_KEY } from './chat-paths';

export type ChatUser = z.infer<typeof ChatUserSchema>;
export type ChatUserList = z.infer<typeof ChatUserListSchema>;

/** GET api/chatter/user/search: an empty search_param gives the suggested list (spec §7). */
export function searchChatUsers(search: string, signal?: AbortSignal): Promise<ChatUserList> {
  return http.get<ChatUserList>(CHAT_PATHS.userSearch, {
    query: { search_param: search, page: 1, page_size: CHAT_LIMITS.userSearchPageSize, connections_only: 'false' },
    ...(signal ? { signal } : {}),
  });
}

export const userSearchQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...USER_SEARCH_KEY, search] as const,
    // No abort signal: the picker unmounts as soon as someone is picked, and cancelling its small
    // search then only left an aborted GET behind; the answer is cached for the next search.
    queryFn: () => searchChatUsers(search),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export function useChatUserSearch(search: string, enabled = true) {
  return useQuery({ ...userSearchQueryOptions(search), enabled });
}
