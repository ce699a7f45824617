import type { Channel, ChatMember } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { chatConnections } from './connections';

function member(userId: string, clientId: string, brand: string, extra: { state?: ChatMember['state']; staff?: boolean } = {}): ChatMember {
  return {
    userId,
    nickname: `Person ${userId}`,
    role: 'none',
    connectionStatus: 'offline',
    state: extra.state ?? 'joined',
    metaData: { is_staff: extra.staff ?? false, client_id: clientId, brand_name: brand, is_active: true, data: {} },
    read_position: 0,
    delivered_position: 0,
  };
}

function channel(url: string, members: ChatMember[], customType: Channel['customType'] = 'group'): Channel {
  return {
    url,
    customType,
    name: url,
    memberCount: members.length,
    members,
    lastMessage: null,
    lastPosition: 0,
    createdAt: '2026-01-01T00:00:00Z',
    invitedAt: null,
    inviter: null,
    creator: null,
    myMemberState: 'joined',
    myRole: 'none',
    unreadMessageCount: 0,
    data: {},
    is_whatsapp_linked_channel: false,
  };
}

describe('chatConnections', () => {
  const me = member('me', 'demo', 'Demo Capital');

  it('lists the people of other firms in the user’s chats once each, under their firm', () => {
    const neha = member('neha', 'second', 'Second Bank');
    const direct = channel('direct', [me, neha], 'direct');
    const group = channel('group', [me, neha, member('ravi', 'brokers', '  '), member('colleague', 'demo', 'Demo Capital')]);
    expect(chatConnections([direct, group], 'me', 'demo')).toEqual([
      { clientId: 'second', firm: 'Second Bank', person: 'Person neha' },
      // No brand: the firm goes by the member's name, as chat shows it.
      { clientId: 'brokers', firm: 'Person ravi', person: 'Person ravi' },
    ]);
  });

  it('leaves out broadcasts, Dart staff and invitations not yet accepted', () => {
    const channels = [
      channel('broadcast', [me, member('listener', 'fund', 'A Fund')], 'broadcast'),
      channel('support', [me, member('staff', 'dart', 'Dart', { staff: true })]),
      channel('pending', [me, member('invitee', 'fund', 'A Fund', { state: 'invited' })]),
    ];
    expect(chatConnections(channels, 'me', 'demo')).toEqual([]);
  });
});
