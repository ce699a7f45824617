import { PRIVATE_RUN_CUSTOM_TYPE, type Channel, type ChatMessage } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { canDeleteMessage, canEditMessage, isDeletedLastMessage, lastEditableMessage, unreadTotal } from './message-actions';
import { BUZZ_CUSTOM_TYPE } from './message-kinds';

const message = (position: number, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId: `m${position}`,
  reqId: null,
  channelUrl: 'c1',
  position,
  messageType: 'user',
  type: null,
  message: `text ${position}`,
  ogMetaData: null,
  data: {},
  customType: null,
  file: null,
  sender: { userId: 'me', nickname: 'Me', is_staff: false },
  createdAt: '2026-01-02T00:00:00Z',
  updatedAt: null,
  deletedAt: null,
  ...overrides,
});
const other = { userId: 'other', nickname: 'Other', is_staff: false };

const channel = (url: string, unread: number, overrides: Partial<Channel> = {}): Channel => ({
  url,
  customType: 'group',
  name: url,
  memberCount: 1,
  members: [],
  lastMessage: null,
  lastPosition: unread,
  createdAt: '2026-01-01T00:00:00Z',
  invitedAt: null,
  inviter: null,
  creator: null,
  myMemberState: 'joined',
  myRole: 'none',
  unreadMessageCount: unread,
  data: {},
  is_whatsapp_linked_channel: false,
  ...overrides,
});

describe('message actions', () => {
  it('lets me edit only my own plain text messages that are not deleted (not buzzes or private run cards)', () => {
    expect(canEditMessage(message(1), 'me')).toBe(true);
    expect(canEditMessage(message(1, { sender: other }), 'me')).toBe(false);
    expect(canEditMessage(message(1, { messageType: 'file' }), 'me')).toBe(false);
    expect(canEditMessage(message(1, { customType: BUZZ_CUSTOM_TYPE }), 'me')).toBe(false);
    expect(canEditMessage(message(1, { customType: PRIVATE_RUN_CUSTOM_TYPE }), 'me')).toBe(false);
    expect(canEditMessage(message(1, { deletedAt: '2026-01-03T00:00:00Z' }), 'me')).toBe(false);
    expect(canEditMessage(message(1, { messageType: 'admin', sender: null }), 'me')).toBe(false);
  });

  it('lets me delete my own text, file and buzz messages once', () => {
    expect(canDeleteMessage(message(1), 'me')).toBe(true);
    expect(canDeleteMessage(message(1, { messageType: 'file' }), 'me')).toBe(true);
    expect(canDeleteMessage(message(1, { customType: BUZZ_CUSTOM_TYPE }), 'me')).toBe(true);
    expect(canDeleteMessage(message(1, { sender: other }), 'me')).toBe(false);
    expect(canDeleteMessage(message(1, { deletedAt: '2026-01-03T00:00:00Z' }), 'me')).toBe(false);
  });

  it('Up arrow edits my latest editable message, skipping others, files and deleted ones', () => {
    const list = [
      message(1),
      message(2),
      message(3, { deletedAt: '2026-01-03T00:00:00Z', message: '' }),
      message(4, { messageType: 'file' }),
      message(5, { sender: other }),
    ];
    expect(lastEditableMessage(list, 'me')?.messageId).toBe('m2');
    expect(lastEditableMessage([message(1, { sender: other })], 'me')).toBeUndefined();
  });

  it('reads an empty last message as a deleted one', () => {
    const last = { data: {}, message: '', customType: null, sender: 'me', createdAt: '2026-01-02T00:00:00Z', position: 3 };
    expect(isDeletedLastMessage(last)).toBe(true);
    expect(isDeletedLastMessage({ ...last, message: 'hello' })).toBe(false);
  });

  it('totals unread over the channels the list shows (not broadcasts of others)', () => {
    const channels = [
      channel('a', 2),
      channel('b', 3),
      channel('a', 2), // duplicate page entry
      channel('x', 7, { customType: 'broadcast', creator: { userId: 'other', nickname: 'Other' } }),
    ];
    expect(unreadTotal(channels, 'me')).toBe(5);
    expect(unreadTotal([], 'me')).toBe(0);
  });
});
