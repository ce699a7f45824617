import type { Channel, ChatMember } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { arrangeChannels, channelTitle } from './channel-list';
import { chunk } from '../hooks/use-visible-channel-refresh';

const ME = 'me';

function member(userId: string, data: Record<string, unknown> = {}, isStaff = false): ChatMember {
  return {
    userId,
    nickname: `Nick ${userId}`,
    role: 'none',
    connectionStatus: 'online',
    state: 'joined',
    metaData: { is_staff: isStaff, client_id: 'c', brand_name: 'Firm', is_active: true, data },
    read_position: 0,
    delivered_position: 0,
  };
}

function channel(url: string, overrides: Partial<Channel> = {}): Channel {
  return {
    url,
    customType: 'group',
    name: url,
    memberCount: 2,
    members: [member(ME), member('other')],
    lastMessage: null,
    lastPosition: 0,
    createdAt: '2026-01-01T00:00:00Z',
    invitedAt: null,
    inviter: null,
    creator: { userId: 'other', nickname: 'Other' },
    myMemberState: 'joined',
    myRole: 'none',
    unreadMessageCount: 0,
    data: {},
    is_whatsapp_linked_channel: false,
    ...overrides,
  };
}
const last = (createdAt: string): Channel['lastMessage'] => ({
  data: {},
  message: 'hi',
  customType: null,
  sender: 'other',
  createdAt,
  position: 1,
});

describe('channel list rules (spec §4–§5)', () => {
  it('hides duplicates by url, broadcasts not created by me, and direct chats whose other user has not onboarded', () => {
    const channels = [
      channel('a'),
      channel('a', { name: 'duplicate' }),
      channel('b-theirs', { customType: 'broadcast' }),
      channel('b-mine', { customType: 'broadcast', creator: { userId: ME, nickname: 'Me' } }),
      channel('d-new', { customType: 'direct', members: [member(ME), member('x', { onboarded: false })] }),
      channel('d-ok', { customType: 'direct' }),
    ];
    const urls = arrangeChannels(channels, ME).map((c) => c.url);
    expect(urls).toHaveLength(3);
    expect(urls).toEqual(expect.arrayContaining(['a', 'b-mine', 'd-ok']));
    expect(arrangeChannels(channels, ME).find((c) => c.url === 'a')?.name).toBe('a');
  });

  it('sorts by newest last message, invitations by invite time, and my broadcast channels last', () => {
    const channels = [
      channel('old', { lastMessage: last('2026-02-01T00:00:00Z') }),
      channel('mine-broadcast', {
        customType: 'broadcast',
        creator: { userId: ME, nickname: 'Me' },
        lastMessage: last('2026-06-01T00:00:00Z'),
      }),
      channel('from-broadcast', {
        creator: { userId: ME, nickname: 'Me' },
        data: { created_from: 'broadcast' },
        lastMessage: last('2026-05-01T00:00:00Z'),
      }),
      channel('new', { lastMessage: last('2026-03-01T00:00:00Z') }),
      channel('invited', { myMemberState: 'invited', invitedAt: '2026-04-01T00:00:00Z', lastMessage: last('2026-01-15T00:00:00Z') }),
      channel('empty', { createdAt: '2026-01-10T00:00:00Z' }),
    ];
    expect(arrangeChannels(channels, ME).map((c) => c.url)).toEqual(['invited', 'new', 'old', 'empty', 'mine-broadcast', 'from-broadcast']);
  });

  it('names a direct chat after the other person, and staff after the product', () => {
    expect(channelTitle(channel('d', { customType: 'direct' }), ME, 'Dart')).toBe('Nick other');
    expect(channelTitle(channel('d', { customType: 'direct', members: [member(ME), member('s', {}, true)] }), ME, 'Dart')).toBe('Dart');
    expect(channelTitle(channel('g', { name: 'Desk' }), ME, 'Dart')).toBe('Desk');
  });

  it('refreshes visible direct channels in batches of five', () => {
    expect(chunk(['1', '2', '3', '4', '5', '6', '7'], 5)).toEqual([
      ['1', '2', '3', '4', '5'],
      ['6', '7'],
    ]);
  });
});
