/**
 * The chat session of a signed-in user who has accepted the chat terms: issues a chat session token
 * (`POST /api/issue-sb-session-token`), opens the chat socket through `createChatClient` of
 * @dart/client (auth, cursors, ping, reconnect, 4401/4403 rules) and applies its events to chat's
 * query keys (utils/chat-cache.ts). When connectivity returns and chat is not set up (a failed or
 * cleared session), it starts again (spec §4); when it is set up, it reconnects at once.
 */
import { createChatClient, type ChatClient, type ChatClientEvents } from '@dart/client';
import { CHAT_MESSAGES, CHAT_PATH, type Channel } from '@dart/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { CHANNELS_KEY, CHAT_KEY, messagesKey } from '../api/chat-paths';
import { leaveChannel } from '../api/channel-membership';
import { issueChatSessionToken } from '../api/issue-session-token';
import { markReadOverHttp } from '../api/mark-read';
import {
  addMessage,
  findCachedChannel,
  getCachedChannels,
  heldChangeSeq,
  highestCachedPosition,
  patchChannel,
  removeChannel,
  replaceMessage,
  setMemberConnection,
  setMemberReceipt,
  setUnread,
  upsertChannel,
} from '../utils/chat-cache';
import { BUZZ_CUSTOM_TYPE } from '../utils/message-kinds';
import { playSound } from '../../../lib/sounds';
import { ChatContext, type ChatContextValue, type ChatStatus } from '../hooks/chat-context';
import { createBuzzStore, createTypingStore } from '../hooks/chat-stores';

function chatSocketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${CHAT_PATH}`;
}

/** What the app holds per channel: its loaded messages, else the channel summary's last position. */
function currentCursors(queryClient: QueryClient): Record<string, number> {
  const cursors: Record<string, number> = {};
  for (const channel of getCachedChannels(queryClient))
    cursors[channel.url] = highestCachedPosition(queryClient, channel.url) ?? channel.lastPosition;
  return cursors;
}

/** The edits and deletes the app holds per channel with loaded messages (their pages' change sequence). */
function currentChangeCursors(queryClient: QueryClient): Record<string, number> {
  const cursors: Record<string, number> = {};
  for (const channel of getCachedChannels(queryClient)) {
    const held = heldChangeSeq(queryClient, channel.url);
    if (held !== undefined) cursors[channel.url] = held;
  }
  return cursors;
}

/** Marks a channel read up to `position`, over the socket when it is up, else over HTTP. */
export function markChannelRead(
  queryClient: QueryClient,
  client: ChatClient | null,
  url: string,
  position: number,
  myUserId: string | null,
): void {
  setUnread(queryClient, url, () => 0);
  if (position <= 0) return;
  if (myUserId) setMemberReceipt(queryClient, url, myUserId, position, position);
  if (!client?.markRead(url, position)) void markReadOverHttp(url, position).catch(() => undefined);
}

export function ChatProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const userId = user?.user_info.id ?? null;
  const accepted = user?.user_info.has_accepted_chat_terms ?? false;
  const [epoch, setEpoch] = useState(0);
  /** The chat session this render is about: a new user, terms acceptance or re-initialisation starts another. */
  const sessionKey = userId && accepted ? `${userId}:${epoch}` : null;
  // Reported from the client's callbacks, tagged with their session (a stale report is ignored).
  const [reported, setReported] = useState<{ key: string; status: ChatStatus } | null>(null);
  const [typing] = useState(() => createTypingStore());
  const [buzz] = useState(() => createBuzzStore());
  /** Channel url → how many views show it now. */
  const [openViews] = useState(() => new Map<string, number>());
  const clientRef = useRef<ChatClient | null>(null);

  useEffect(() => {
    if (!userId || !sessionKey) return undefined;
    const thisSession = sessionKey;
    const client = createChatClient({
      url: chatSocketUrl(),
      getToken: async () => (await issueChatSessionToken(userId)).token,
      cursors: currentCursors(queryClient),
      changeCursors: currentChangeCursors(queryClient),
    });
    clientRef.current = client;

    const isOpen = (url: string) => (openViews.get(url) ?? 0) > 0 && document.visibilityState === 'visible';

    const onMessage = ({ channel_url: url, message }: ChatClientEvents['message']) => {
      addMessage(queryClient, message);
      const mine = message.sender?.userId === userId;
      if (!findCachedChannel(queryClient, url)) void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      if (mine) return;
      client.markDelivered(url, message.position);
      if (message.customType === BUZZ_CUSTOM_TYPE) buzz.start(url);
      if (isOpen(url)) markChannelRead(queryClient, client, url, message.position, userId);
      else {
        setUnread(queryClient, url, (count) => count + 1);
        if (message.customType !== BUZZ_CUSTOM_TYPE) playSound('notification');
      }
    };

    const onChannel = (event: ChatClientEvents['channel']) => {
      const { channel, actor } = event;
      const byOther = actor !== null && actor.userId !== userId;
      const previous = findCachedChannel(queryClient, event.channel_url);
      const customType: Channel['customType'] | undefined = channel?.customType ?? previous?.customType;
      if (event.message) {
        if (event.event === 'message_updated' || event.event === 'message_deleted') replaceMessage(queryClient, event.message);
        else addMessage(queryClient, event.message);
      }
      switch (event.event) {
        case 'declined':
          if (byOther && customType === 'direct') {
            // Spec §4: the other person declined a direct chat: it leaves my list and I leave it.
            removeChannel(queryClient, event.channel_url);
            client.forgetChannel(event.channel_url);
            void leaveChannel(event.channel_url).catch(() => undefined);
            return;
          }
          if (byOther && (event.target_user_ids.length === 0 || event.target_user_ids.includes(userId))) {
            showToast({ summary: CHAT_MESSAGES.declined(actor.nickname), severity: 'info' });
            playSound('notification');
          }
          break;
        case 'banned':
          if (event.target_user_ids.includes(userId)) {
            removeChannel(queryClient, event.channel_url);
            client.forgetChannel(event.channel_url);
            showToast({ summary: CHAT_MESSAGES.banned, severity: 'warn' });
            playSound('error');
            return;
          }
          if (!channel)
            patchChannel(queryClient, event.channel_url, (item) => ({
              ...item,
              members: item.members.filter((member) => !event.target_user_ids.includes(member.userId)),
              memberCount: Math.max(0, item.memberCount - event.target_user_ids.length),
            }));
          break;
        case 'invited':
          if (channel?.myMemberState === 'invited' && byOther) playSound('notification');
          break;
        default:
          break;
      }
      if (channel) upsertChannel(queryClient, channel);
      else if (
        ['left', 'declined', 'banned'].includes(event.event) &&
        (!actor || actor.userId === userId || event.target_user_ids.includes(userId))
      ) {
        removeChannel(queryClient, event.channel_url);
        client.forgetChannel(event.channel_url);
      }
    };

    const offs = [
      client.on('state', (status) => {
        setReported({ key: thisSession, status });
        // Back after a drop: the replay brought the messages, edits and deletes; counts, members and
        // their online status come with the list.
        if (status === 'reconnect-succeeded') void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      }),
      client.on('message', onMessage),
      client.on('channel', onChannel),
      client.on('receipt', (receipt) =>
        setMemberReceipt(queryClient, receipt.channel_url, receipt.user_id, receipt.read_position, receipt.delivered_position),
      ),
      client.on('presence', (event) => setMemberConnection(queryClient, event.user_id, event.connection_status)),
      client.on('typing', (event) => {
        if (event.user_id !== userId) typing.set(event.channel_url, { userId: event.user_id, nickname: event.nickname }, event.typing);
      }),
      client.on('resync', ({ channel_url: url }) => {
        void queryClient.invalidateQueries({ queryKey: messagesKey(url) });
        void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY });
      }),
      client.on('cleared', () => {
        // Spec §8: the session is over (revoked, user deactivated or deleted): clear chat's cache and state.
        queryClient.removeQueries({ queryKey: CHAT_KEY });
        typing.clear();
        clientRef.current = null;
        setReported({ key: thisSession, status: 'cleared' });
      }),
    ];

    // Fetched pages say what the app holds: raise the cursors so a replay never duplicates them.
    const unsubscribeCache = queryClient.getQueryCache().subscribe((cacheEvent) => {
      // Fetched pages only: server pages are gap-free up to their highest position, whereas a manual
      // patch (an ack of my own message) may run ahead of a message still on its way.
      if (cacheEvent.type !== 'updated' || cacheEvent.action.type !== 'success' || cacheEvent.action.manual) return;
      const key = cacheEvent.query.queryKey;
      if (key[0] !== CHAT_KEY[0]) return;
      if (key[1] === 'messages' && typeof key[2] === 'string') {
        const highest = highestCachedPosition(queryClient, key[2]);
        if (highest !== undefined) client.setCursor(key[2], highest);
        // Each page shows the edits and deletes up to its change_seq: all pages, up to the lowest.
        const changes = heldChangeSeq(queryClient, key[2]);
        if (changes !== undefined) client.setChangeCursor(key[2], changes);
      } else if (key[1] === CHANNELS_KEY[1]) {
        for (const channel of getCachedChannels(queryClient))
          if (highestCachedPosition(queryClient, channel.url) === undefined) client.setCursor(channel.url, channel.lastPosition);
      }
    });

    return () => {
      unsubscribeCache();
      for (const off of offs) off();
      client.stop();
      if (clientRef.current === client) clientRef.current = null;
      // Another user (or a sign-out) must never see this session's chats.
      queryClient.removeQueries({ queryKey: CHAT_KEY });
      typing.clear();
    };
  }, [userId, sessionKey, queryClient, openViews, typing, buzz]);

  // Spec §4: coming back online re-initialises chat when it is not set up; otherwise reconnect now.
  useEffect(() => {
    const onOnline = () => {
      if (clientRef.current && clientRef.current.state !== 'stopped') clientRef.current.reconnectNow();
      else setEpoch((value) => value + 1);
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);

  const status: ChatStatus = !userId ? 'idle' : !accepted ? 'terms' : reported?.key === sessionKey ? reported.status : 'connecting';
  const value = useMemo<ChatContextValue>(
    () => ({
      status,
      myUserId: userId,
      getClient: () => clientRef.current,
      typing,
      buzz,
      openChannel: (url) => {
        openViews.set(url, (openViews.get(url) ?? 0) + 1);
        return () => {
          const left = (openViews.get(url) ?? 1) - 1;
          if (left <= 0) openViews.delete(url);
          else openViews.set(url, left);
        };
      },
    }),
    [status, userId, typing, buzz, openViews],
  );
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}
