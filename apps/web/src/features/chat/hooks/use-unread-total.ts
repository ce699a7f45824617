import { useMemo } from 'react';
import { useChannels } from '../api/list-channels';
import { unreadTotal } from '../utils/message-actions';
import { useChat } from './chat-context';

/**
 * Unread messages over my chats, for the header's Chat link. It reads the same channel list query
 * the chat views use (socket events keep it current), so outside a chat session (signed out, terms
 * not accepted, session ended, or a layout without the chat provider) it is 0 and fetches nothing.
 */
export function useChatUnreadTotal(): number {
  const { status, myUserId } = useChat();
  const enabled = myUserId !== null && status !== 'terms' && status !== 'idle' && status !== 'cleared';
  const channels = useChannels(enabled);
  return useMemo(
    () =>
      enabled && channels.data && myUserId
        ? unreadTotal(
            channels.data.pages.flatMap((page) => page.channels),
            myUserId,
          )
        : 0,
    [enabled, channels.data, myUserId],
  );
}
