import type { SurveillanceChatMember } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { chatTitle, chatTypeLabel, memberLabel, otherFirms } from './chat-format';

const member = (over: Partial<SurveillanceChatMember>): SurveillanceChatMember => ({
  name: 'Asha Rao',
  firm: 'Demo Capital',
  own_firm: true,
  staff: false,
  left: false,
  ...over,
});

describe('chat format', () => {
  it('labels the kinds chat stores', () => {
    expect(chatTypeLabel('trading group')).toBe('Trading group');
    expect(chatTypeLabel('direct')).toBe('Direct');
    expect(chatTypeLabel('custom')).toBe('Custom');
  });

  it('names members with their firm, staff and past members marked', () => {
    expect(memberLabel(member({}))).toBe('Asha Rao (Demo Capital)');
    expect(memberLabel(member({ staff: true }))).toBe('Asha Rao (Dart staff)');
    expect(memberLabel(member({ left: true }))).toBe('Asha Rao (Demo Capital), left');
  });

  it('names a direct chat by its members and lists the other firms once', () => {
    const members = [
      member({}),
      member({ name: 'Ravi Shah', firm: 'Second Bank', own_firm: false }),
      member({ name: 'X', firm: 'Second Bank', own_firm: false }),
    ];
    expect(chatTitle({ name: '', members: members.slice(0, 2) })).toBe('Asha Rao ↔ Ravi Shah');
    expect(chatTitle({ name: 'Gilt desk', members })).toBe('Gilt desk');
    expect(chatTitle({ name: '', members: [] })).toBe('Direct chat');
    expect(otherFirms({ members })).toEqual(['Second Bank']);
  });
});
