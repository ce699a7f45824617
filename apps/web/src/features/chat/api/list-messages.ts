import { CHAT_LIMITS, type MessageListSchema } from '@dart/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS, messagesKey } from './chat-paths';

export type MessageList = z.infer<typeof MessageListSchema>;

/**
 * GET api/chat/channels/{url}/messages/?before&limit: the latest page, or the page before a position
 * (load previous). Pages are newest first in the cache: page 0 is the latest, where live messages append.
 */
export function listMessages(url: string, before: number | null, signal?: AbortSignal): Promise<MessageList> {
  return http.get<MessageList>(CHAT_PATHS.messages(url), {
    query: { limit: CHAT_LIMITS.messagePageSizeDefault, ...(before !== null ? { before } : {}) },
    ...(signal ? { signal } : {}),
  });
}

export const messagesQueryOptions = (url: string) =>
  infiniteQueryOptions({
    queryKey: messagesKey(url),
    queryFn: ({ pageParam, signal }) => listMessages(url, pageParam, signal),
    initialPageParam: null as number | null,
    // Older pages: before the first (lowest) position of the last loaded page.
    getNextPageParam: (last) => (last.has_more && last.messages.length > 0 ? Math.min(...last.messages.map((m) => m.position)) : null),
    // The socket keeps the cache current (appends, edits, deletes); a resync invalidates it.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useMessages(url: string | null) {
  return useInfiniteQuery({ ...messagesQueryOptions(url ?? ''), enabled: url !== null });
}
