import type { Channel, ChatMessage } from '@dart/contracts';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { CHANNELS_KEY, messagesKey } from '../api/chat-paths';
import type { ChannelList } from '../api/list-channels';
import type { MessageList } from '../api/list-messages';
import {
  addMessage,
  getCachedChannels,
  heldChangeSeq,
  highestCachedPosition,
  removeChannel,
  setMemberConnection,
  setMemberReceipt,
  setUnread,
  upsertChannel,
} from './chat-cache';

const channel = (url: string): Channel => ({
  url,
  customType: 'direct',
  name: '',
  memberCount: 2,
  members: [
    {
      userId: 'me',
      nickname: 'Me',
      role: 'operator',
      connectionStatus: 'online',
      state: 'joined',
      metaData: { is_staff: false, client_id: 'c', brand_name: 'F', is_active: true, data: {} },
      read_position: 1,
      delivered_position: 1,
    },
  ],
  lastMessage: null,
  lastPosition: 1,
  createdAt: '2026-01-01T00:00:00Z',
  invitedAt: null,
  inviter: null,
  creator: null,
  myMemberState: 'joined',
  myRole: 'operator',
  unreadMessageCount: 0,
  data: {},
  is_whatsapp_linked_channel: false,
});

const message = (url: string, position: number): ChatMessage => ({
  messageId: `${url}-${position}`,
  reqId: null,
  channelUrl: url,
  position,
  messageType: 'user',
  type: null,
  message: `m${position}`,
  ogMetaData: null,
  data: {},
  customType: null,
  file: null,
  sender: { userId: 'other', nickname: 'Other', is_staff: false },
  createdAt: '2026-01-02T00:00:00Z',
  updatedAt: null,
  deletedAt: null,
});

function seeded() {
  const queryClient = new QueryClient();
  queryClient.setQueryData<InfiniteData<ChannelList, string | null>>(CHANNELS_KEY, {
    pages: [
      { channels: [channel('a')], next: 'n' },
      { channels: [channel('b')], next: null },
    ],
    pageParams: [null, 'n'],
  });
  queryClient.setQueryData<InfiniteData<MessageList, number | null>>(messagesKey('b'), {
    pages: [
      { messages: [message('b', 3), message('b', 4)], has_more: true, change_seq: 2 },
      { messages: [message('b', 1), message('b', 2)], has_more: false, change_seq: 5 },
    ],
    pageParams: [null, 3],
  });
  return queryClient;
}

describe('chat cache patches (one set of keys for REST and socket)', () => {
  it('appends a live message to the latest page once, and moves the channel summary', () => {
    const queryClient = seeded();
    addMessage(queryClient, message('b', 5));
    addMessage(queryClient, message('b', 5));
    const pages = queryClient.getQueryData<InfiniteData<MessageList>>(messagesKey('b'))!.pages;
    expect(pages[0]!.messages.map((m) => m.position)).toEqual([3, 4, 5]);
    expect(highestCachedPosition(queryClient, 'b')).toBe(5);
    expect(highestCachedPosition(queryClient, 'a')).toBeUndefined();
    const b = getCachedChannels(queryClient).find((c) => c.url === 'b')!;
    expect(b.lastPosition).toBe(5);
    expect(b.lastMessage?.message).toBe('m5');
  });

  it('upserts a new channel at the top, counts unread, records receipts and removes a channel with its messages', () => {
    const queryClient = seeded();
    upsertChannel(queryClient, channel('c'));
    expect(getCachedChannels(queryClient).map((c) => c.url)).toEqual(['c', 'a', 'b']);
    setUnread(queryClient, 'a', (n) => n + 1);
    setUnread(queryClient, 'a', (n) => n + 1);
    expect(getCachedChannels(queryClient).find((c) => c.url === 'a')!.unreadMessageCount).toBe(2);
    setMemberReceipt(queryClient, 'a', 'me', 7, 6);
    setMemberReceipt(queryClient, 'a', 'me', 3, 3); // receipts never go back
    expect(getCachedChannels(queryClient).find((c) => c.url === 'a')!.members[0]).toMatchObject({
      read_position: 7,
      delivered_position: 6,
    });
    removeChannel(queryClient, 'b');
    expect(getCachedChannels(queryClient).map((c) => c.url)).toEqual(['c', 'a']);
    expect(queryClient.getQueryData(messagesKey('b'))).toBeUndefined();
  });

  it('holds the changes up to the lowest change sequence of the loaded pages', () => {
    const queryClient = seeded();
    expect(heldChangeSeq(queryClient, 'b')).toBe(2);
    expect(heldChangeSeq(queryClient, 'a')).toBeUndefined();
  });

  it("sets a member's connection status in every channel they are in (presence frames)", () => {
    const queryClient = seeded();
    const status = () => getCachedChannels(queryClient).map((c) => c.members[0]!.connectionStatus);
    setMemberConnection(queryClient, 'me', 'offline');
    expect(status()).toEqual(['offline', 'offline']);
    const before = getCachedChannels(queryClient);
    setMemberConnection(queryClient, 'me', 'offline'); // no change: the same channel objects stay
    setMemberConnection(queryClient, 'nobody', 'online');
    expect(getCachedChannels(queryClient)).toEqual(before);
    expect(getCachedChannels(queryClient)[0]).toBe(before[0]);
    setMemberConnection(queryClient, 'me', 'online');
    expect(status()).toEqual(['online', 'online']);
  });
});
