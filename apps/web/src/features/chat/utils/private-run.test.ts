import { PRIVATE_RUN_CUSTOM_TYPE, type Channel, type ChatMember, type PrivateRunCard } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { privateRunCardOf, privateRunFirms, privateRunViewer } from './private-run';

const MY_FIRM = 'firm-demo';

function member(userId: string, clientId: string, brandName: string, state: ChatMember['state'] = 'joined'): ChatMember {
  return {
    userId,
    nickname: `Nick ${userId}`,
    role: 'none',
    connectionStatus: 'online',
    state,
    metaData: { is_staff: false, client_id: clientId, brand_name: brandName, is_active: true, data: {} },
    read_position: 0,
    delivered_position: 0,
  };
}

function channel(members: ChatMember[], customType: Channel['customType'] = 'group'): Channel {
  return {
    url: 'dart_group_1',
    customType,
    name: 'Desk',
    memberCount: members.length,
    members,
    lastMessage: null,
    lastPosition: 0,
    createdAt: '2026-01-01T00:00:00Z',
    invitedAt: null,
    inviter: null,
    creator: { userId: 'me', nickname: 'Me' },
    myMemberState: 'joined',
    myRole: 'operator',
    unreadMessageCount: 0,
    data: {},
    is_whatsapp_linked_channel: false,
  };
}

const card: PrivateRunCard = {
  quote_id: '7d0c7a43-3b0c-4e4c-9a55-0f7b3c1d2e11',
  quote_type: 'BID',
  finstrument_id: 12,
  isin: 'INE040A08955',
  display_name: 'HDFC Bank Limited 7.78% NCD 27-Mar-2027',
  yield_stored: 0.0791,
  unit_price_stored: 99.8123,
  quantum: 500,
  settlement_date: '2026-11-24',
  expiry_date_stored: '2026-11-24T10:00:00.000Z',
};

describe('the firms a private run goes to', () => {
  it('lists every other firm once, by brand name, invitees included, never my own firm', () => {
    const members = [
      member('me', MY_FIRM, 'Demo Capital'),
      member('colleague', MY_FIRM, 'Demo Capital'),
      member('neha', 'firm-second', 'Second Bank'),
      member('ravi', 'firm-second', 'Second Bank'),
      member('farhan', 'firm-brokers', 'Demo Brokers', 'invited'),
    ];
    expect(privateRunFirms(channel(members), MY_FIRM)).toEqual([
      { clientId: 'firm-second', name: 'Second Bank' },
      { clientId: 'firm-brokers', name: 'Demo Brokers' },
    ]);
  });

  it('names a firm without a brand by the member, and finds none when only my firm is there', () => {
    expect(privateRunFirms(channel([member('me', MY_FIRM, 'Demo Capital'), member('x', 'firm-x', ' ')]), MY_FIRM)).toEqual([
      { clientId: 'firm-x', name: 'Nick x' },
    ]);
    expect(
      privateRunFirms(channel([member('me', MY_FIRM, 'Demo Capital'), member('colleague', MY_FIRM, 'Demo Capital')]), MY_FIRM),
    ).toEqual([]);
  });

  it('finds none in a broadcast (its recipients are not members)', () => {
    expect(
      privateRunFirms(channel([member('me', MY_FIRM, 'Demo Capital'), member('neha', 'firm-second', 'Second Bank')], 'broadcast'), MY_FIRM),
    ).toEqual([]);
  });
});

describe('the card of a private run message', () => {
  it('reads the card the server stored', () => {
    expect(privateRunCardOf({ customType: PRIVATE_RUN_CUSTOM_TYPE, data: { private_run: card } })).toEqual(card);
  });

  it('gives null for other messages and for a card that does not parse, so the text is shown', () => {
    expect(privateRunCardOf({ customType: null, data: { private_run: card } })).toBeNull();
    expect(privateRunCardOf({ customType: PRIVATE_RUN_CUSTOM_TYPE, data: {} })).toBeNull();
    expect(privateRunCardOf({ customType: PRIVATE_RUN_CUSTOM_TYPE, data: { private_run: { ...card, quote_type: 'SELL' } } })).toBeNull();
    expect(privateRunCardOf({ customType: PRIVATE_RUN_CUSTOM_TYPE, data: { private_run: { ...card, yield_stored: '7.91' } } })).toBeNull();
  });
});

describe('how the viewer stands to a private run', () => {
  const members = [
    member('me', MY_FIRM, 'Demo Capital'),
    member('colleague', MY_FIRM, 'Demo Capital'),
    member('neha', 'firm-second', 'Second Bank'),
  ];
  const from = (userId: string) => ({ sender: { userId, nickname: userId, is_staff: false } });

  it('is the sender, the sender’s firm, or another firm (who may counter)', () => {
    expect(privateRunViewer(from('me'), channel(members), 'me', MY_FIRM)).toBe('sender');
    expect(privateRunViewer(from('colleague'), channel(members), 'me', MY_FIRM)).toBe('own-firm');
    expect(privateRunViewer(from('neha'), channel(members), 'me', MY_FIRM)).toBe('other-firm');
  });

  it('counts a sender who left the channel as another firm', () => {
    expect(privateRunViewer(from('gone'), channel(members), 'me', MY_FIRM)).toBe('other-firm');
  });
});
