/**
 * Opening a direct chat from outside chat (Build Network's "Chat"): the distinct direct channel with one person is
 * created or, when it exists, answered by the server (spec §3 `isDistinct`), put in the channel cache, and asked
 * to open. The ask is a tiny external store, like the market's ticket requests: the chat view that mounts or is
 * already mounted takes it, and a layout can listen to bring the Chat panel forward.
 */
import { useCallback } from 'react';
import { useCreateChannel } from '../api/create-channel';
import { useChat } from './chat-context';

let pending: string | null = null;
const listeners = new Set<() => void>();

/** Asks the chat view to open this channel. */
export function requestOpenChannel(url: string): void {
  pending = url;
  for (const listener of listeners) listener();
}

/** Takes the channel waiting to be opened (the chat view that opens it). */
export function takeOpenChannelRequest(): string | null {
  const url = pending;
  pending = null;
  return url;
}

/** Hears every request to open a channel (a layout shows the Chat panel); returns the unsubscribe. */
export function onOpenChannelRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens (creating if needed) the direct chat with `userId`; rejects with the server's error (terms not accepted…). */
export function useOpenDirectChat(): { open: (userId: string) => Promise<void>; opening: boolean } {
  const { myUserId } = useChat();
  const create = useCreateChannel();
  const { mutateAsync } = create;
  const open = useCallback(
    async (userId: string) => {
      const channel = await mutateAsync({
        isDistinct: true,
        invitedUserIds: [userId],
        operatorUserIds: myUserId ? [myUserId] : [],
        name: '',
        customType: 'direct',
      });
      requestOpenChannel(channel.url);
    },
    [mutateAsync, myUserId],
  );
  return { open, opening: create.isPending };
}
