import { SURVEILLANCE_CHAT_MESSAGE_PAGE_SIZE, type SurveillanceChatMessageList } from '@dart/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { toChatPeriodQuery, type ChatPeriod } from '../utils/chat-period';
import { CHATS_KEY } from './get-chats';

export type { SurveillanceChatMessage, SurveillanceChatMessageList } from '@dart/contracts';

export const CHAT_MESSAGE_PAGE_SIZE = SURVEILLANCE_CHAT_MESSAGE_PAGE_SIZE.default;

/** GET /api/surveillance/chats/{id}/messages/: one page of the chat's messages in the period, oldest first (audited). */
export function getChatMessages(id: string, period: ChatPeriod, page: number): Promise<SurveillanceChatMessageList> {
  return http.get<SurveillanceChatMessageList>(`/api/surveillance/chats/${encodeURIComponent(id)}/messages/`, {
    query: { ...toChatPeriodQuery(period), page, page_size: CHAT_MESSAGE_PAGE_SIZE },
  });
}

export const chatMessagesQueryOptions = (id: string, period: ChatPeriod) =>
  infiniteQueryOptions({
    queryKey: [...CHATS_KEY, 'messages', id, toChatPeriodQuery(period)] as const,
    queryFn: ({ pageParam }) => getChatMessages(id, period, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * CHAT_MESSAGE_PAGE_SIZE < last.count ? pages.length + 1 : undefined),
    // Every read is audited: do not refetch behind the officer's back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The chat's messages in the period, a page at a time ("Load more"); off while no chat is open. */
export function useChatMessages(id: string | null, period: ChatPeriod) {
  return useInfiniteQuery({ ...chatMessagesQueryOptions(id ?? '', period), enabled: id !== null });
}
