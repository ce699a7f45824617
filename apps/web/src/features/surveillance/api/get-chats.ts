import { SURVEILLANCE_CHAT_PAGE_SIZE, type SurveillanceChatList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export type { SurveillanceChat, SurveillanceChatList } from '@dart/contracts';

export const CHAT_PAGE_SIZE = SURVEILLANCE_CHAT_PAGE_SIZE.default;
/** Every query of the Chats section (list pages and message pages) starts with this key. */
export const CHATS_KEY = ['surveillance', 'chats'] as const;

/** GET /api/surveillance/chats/: the firm's chats (a member of the firm, past or present), latest message first. */
export function getChats(search: string, page: number): Promise<SurveillanceChatList> {
  return http.get<SurveillanceChatList>('/api/surveillance/chats/', {
    query: { ...(search ? { search } : {}), page, page_size: CHAT_PAGE_SIZE },
  });
}

export const chatsQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: [...CHATS_KEY, 'list', search, page] as const,
    queryFn: () => getChats(search, page),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** A page of the firm's chats; `enabled` is false while the search is invalid. */
export function useChats(search: string, page: number, enabled = true) {
  return useQuery({ ...chatsQueryOptions(search, page), enabled });
}
