/**
 * The one place that patches chat's TanStack Query caches (STYLE practice 14): REST answers and
 * socket events update the same keys — the channel list pages and each channel's message pages.
 */
import type { Channel, ChatMessage, ConnectionStatus } from '@dart/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { CHANNELS_KEY, messagesKey } from '../api/chat-paths';
import type { ChannelList } from '../api/list-channels';
import type { MessageList } from '../api/list-messages';

type ChannelPages = InfiniteData<ChannelList, string | null>;
type MessagePages = InfiniteData<MessageList, number | null>;

export function getCachedChannels(queryClient: QueryClient): Channel[] {
  return queryClient.getQueryData<ChannelPages>(CHANNELS_KEY)?.pages.flatMap((page) => page.channels) ?? [];
}

export function findCachedChannel(queryClient: QueryClient, url: string): Channel | undefined {
  return getCachedChannels(queryClient).find((channel) => channel.url === url);
}

/** Replaces the channel wherever it sits in the loaded pages, or puts it at the top of the first page. */
export function upsertChannel(queryClient: QueryClient, channel: Channel): void {
  queryClient.setQueryData<ChannelPages>(CHANNELS_KEY, (data) => {
    if (!data) return data;
    let found = false;
    const pages = data.pages.map((page) => ({
      ...page,
      channels: page.channels.map((item) => {
        if (item.url !== channel.url) return item;
        found = true;
        return channel;
      }),
    }));
    if (!found && pages[0]) pages[0] = { ...pages[0], channels: [channel, ...pages[0].channels] };
    return { ...data, pages };
  });
}

export function patchChannel(queryClient: QueryClient, url: string, patch: (channel: Channel) => Channel): void {
  queryClient.setQueryData<ChannelPages>(CHANNELS_KEY, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, channels: page.channels.map((item) => (item.url === url ? patch(item) : item)) })),
        }
      : data,
  );
}

export function removeChannel(queryClient: QueryClient, url: string): void {
  queryClient.setQueryData<ChannelPages>(CHANNELS_KEY, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, channels: page.channels.filter((item) => item.url !== url) })) } : data,
  );
  queryClient.removeQueries({ queryKey: messagesKey(url) });
}

/** Adds a message to the latest page (once: by messageId), keeping positions ascending. */
export function addMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<MessagePages>(messagesKey(message.channelUrl), (data) => {
    if (!data || data.pages.length === 0) return data;
    if (data.pages.some((page) => page.messages.some((item) => item.messageId === message.messageId))) return data;
    const [latest, ...older] = data.pages;
    const messages = [...latest!.messages, message].sort((a, b) => a.position - b.position);
    return { ...data, pages: [{ ...latest!, messages }, ...older] };
  });
  patchChannel(queryClient, message.channelUrl, (channel) =>
    message.position < channel.lastPosition
      ? channel
      : {
          ...channel,
          lastPosition: message.position,
          lastMessage: {
            data: message.data,
            message: message.messageType === 'file' ? (message.file?.name ?? message.message) : message.message,
            customType: message.customType,
            sender: message.sender?.userId ?? null,
            createdAt: message.createdAt,
            position: message.position,
          },
        },
  );
}

/** An edited or deleted message replaces its copy. */
export function replaceMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<MessagePages>(messagesKey(message.channelUrl), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.map((item) => (item.messageId === message.messageId ? message : item)),
          })),
        }
      : data,
  );
}

/** The highest position held in a channel's message pages (undefined when none are loaded). */
export function highestCachedPosition(queryClient: QueryClient, url: string): number | undefined {
  const data = queryClient.getQueryData<MessagePages>(messagesKey(url));
  if (!data) return undefined;
  let highest = 0;
  for (const page of data.pages) for (const message of page.messages) highest = Math.max(highest, message.position);
  return highest;
}

/**
 * The change sequence up to which the held message pages show every edit and delete: the lowest
 * `change_seq` of the pages (each page shows the changes up to its own), undefined when none are loaded.
 */
export function heldChangeSeq(queryClient: QueryClient, url: string): number | undefined {
  const pages = queryClient.getQueryData<MessagePages>(messagesKey(url))?.pages;
  if (!pages || pages.length === 0) return undefined;
  return Math.min(...pages.map((page) => page.change_seq));
}

export function setUnread(queryClient: QueryClient, url: string, unread: (current: number) => number): void {
  patchChannel(queryClient, url, (channel) => ({ ...channel, unreadMessageCount: Math.max(0, unread(channel.unreadMessageCount)) }));
}

/** Receipts: a member's read / delivered positions. */
export function setMemberReceipt(queryClient: QueryClient, url: string, userId: string, read: number, delivered: number): void {
  patchChannel(queryClient, url, (channel) => ({
    ...channel,
    members: channel.members.map((member) =>
      member.userId === userId
        ? {
            ...member,
            read_position: Math.max(member.read_position, read),
            delivered_position: Math.max(member.delivered_position, delivered),
          }
        : member,
    ),
  }));
}

/** Presence: the user's `connectionStatus` in every cached channel they are a member of. */
export function setMemberConnection(queryClient: QueryClient, userId: string, status: ConnectionStatus): void {
  queryClient.setQueryData<ChannelPages>(CHANNELS_KEY, (data) => {
    if (!data) return data;
    const patch = (channel: Channel): Channel =>
      channel.members.some((member) => member.userId === userId && member.connectionStatus !== status)
        ? {
            ...channel,
            members: channel.members.map((member) => (member.userId === userId ? { ...member, connectionStatus: status } : member)),
          }
        : channel;
    return { ...data, pages: data.pages.map((page) => ({ ...page, channels: page.channels.map(patch) })) };
  });
}
