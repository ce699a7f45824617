import type { Channel, ChannelCreate } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { upsertChannel } from '../utils/chat-cache';
import { CHAT_PATHS } from './chat-paths';

/** POST api/chat/channels/: the spec §3 creation payload (a distinct direct chat answers the existing one). */
export function createChannel(payload: ChannelCreate): Promise<Channel> {
  return http.post<Channel>(CHAT_PATHS.channels, payload);
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createChannel, onSuccess: (channel) => upsertChannel(queryClient, channel) });
}
