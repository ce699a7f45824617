import type { Channel } from '@dart/contracts';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

/** GET api/chat/channels/{url}/: one channel as I see it (the periodic refresh of visible direct channels). */
export function getChannel(url: string, signal?: AbortSignal): Promise<Channel> {
  return http.get<Channel>(CHAT_PATHS.channel(url), signal ? { signal } : {});
}
