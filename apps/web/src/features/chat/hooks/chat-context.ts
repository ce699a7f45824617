import type { ChatClient, ChatConnectionState } from '@dart/client';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { createBuzzStore, createTypingStore, type BuzzState, type BuzzStore, type Typist, type TypingStore } from './chat-stores';

/**
 * `idle`: nobody signed in. `terms`: signed in, chat terms not accepted. `cleared`: the server ended
 * the chat session (4403) and the cache was cleared; chat starts again when connectivity returns.
 */
export type ChatStatus = ChatConnectionState | 'idle' | 'terms' | 'cleared';

export interface ChatContextValue {
  status: ChatStatus;
  myUserId: string | null;
  /** The chat client of the current session (null before it starts or after it was cleared); read it in handlers. */
  getClient: () => ChatClient | null;
  typing: TypingStore;
  buzz: BuzzStore;
  /** A view shows this channel: incoming messages are marked read instead of counted unread. */
  openChannel: (url: string) => () => void;
}

const fallback: ChatContextValue = {
  status: 'idle',
  myUserId: null,
  getClient: () => null,
  typing: createTypingStore(),
  buzz: createBuzzStore(),
  openChannel: () => () => undefined,
};
export const ChatContext = createContext<ChatContextValue>(fallback);

export function useChat(): ChatContextValue {
  return useContext(ChatContext);
}

/** True while the socket is authenticated. */
export function isChatConnected(status: ChatStatus): boolean {
  return status === 'connected' || status === 'reconnect-succeeded';
}

export function useTypists(channelUrl: string | null): readonly Typist[] {
  const { typing } = useChat();
  return useSyncExternalStore(typing.subscribe, () => (channelUrl ? typing.get(channelUrl) : EMPTY));
}
const EMPTY: readonly Typist[] = [];

export function useBuzzState(channelUrl: string | null): BuzzState {
  const { buzz } = useChat();
  return useSyncExternalStore(buzz.subscribe, () => (channelUrl ? buzz.get(channelUrl) : 'idle'));
}
