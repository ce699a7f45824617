import { useMemo } from 'react';
import { useSession } from '../../../lib/session';
import { useChannels } from '../api/list-channels';
import { chatConnections, type ChatConnection } from '../utils/connections';
import { useChat } from './chat-context';

/** The people of other firms the user chats with (from the chat list already loaded for the chat panel). */
export function useChatConnections(): ChatConnection[] {
  const { status, myUserId } = useChat();
  const { user } = useSession();
  const enabled = myUserId !== null && status !== 'terms' && status !== 'idle' && status !== 'cleared';
  const channels = useChannels(enabled);
  const myClientId = user?.client_id ?? '';
  return useMemo(
    () => (myUserId ? chatConnections(channels.data?.pages.flatMap((page) => page.channels) ?? [], myUserId, myClientId) : []),
    [channels.data, myUserId, myClientId],
  );
}
