import type { ChannelListSchema } from '@dart/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { CHANNELS_KEY, CHAT_PATHS } from './chat-paths';

export type ChannelList = z.infer<typeof ChannelListSchema>;
export const CHANNEL_PAGE_SIZE = 20;

/** GET api/chat/channels/?token&limit: one page of my channels; `next` is the opaque cursor of the next page. */
export function listChannels(token: string | null, signal?: AbortSignal): Promise<ChannelList> {
  return http.get<ChannelList>(CHAT_PATHS.channels, {
    query: { limit: CHANNEL_PAGE_SIZE, ...(token ? { token } : {}) },
    ...(signal ? { signal } : {}),
  });
}

/** Live events patch these pages in place (utils/chat-cache.ts); a reconnect refetches them. */
export const channelsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: CHANNELS_KEY,
    queryFn: ({ pageParam, signal }) => listChannels(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useChannels(enabled: boolean) {
  return useInfiniteQuery({ ...channelsQueryOptions(), enabled });
}
