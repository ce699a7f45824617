import { describe, expect, it } from 'vitest';
import { cameFromWhatsApp, canLinkToWhatsApp } from './whatsapp-link';

describe('who may link a chat to WhatsApp (the server rule)', () => {
  it('lets an operator of a group and either member of a direct chat link it', () => {
    expect(canLinkToWhatsApp({ customType: 'group', myRole: 'operator', myMemberState: 'joined' }, true)).toBe(true);
    expect(canLinkToWhatsApp({ customType: 'trading group', myRole: 'operator', myMemberState: 'joined' }, true)).toBe(true);
    expect(canLinkToWhatsApp({ customType: 'direct', myRole: 'none', myMemberState: 'joined' }, true)).toBe(true);
  });

  it('refuses a plain group member, a broadcast, an invitation not yet accepted and a view-only user', () => {
    expect(canLinkToWhatsApp({ customType: 'group', myRole: 'none', myMemberState: 'joined' }, true)).toBe(false);
    expect(canLinkToWhatsApp({ customType: 'broadcast', myRole: 'operator', myMemberState: 'joined' }, true)).toBe(false);
    expect(canLinkToWhatsApp({ customType: 'direct', myRole: 'none', myMemberState: 'invited' }, true)).toBe(false);
    expect(canLinkToWhatsApp({ customType: 'direct', myRole: 'operator', myMemberState: 'joined' }, false)).toBe(false);
  });
});

describe('messages that came in through WhatsApp', () => {
  it('are the ones the bridge marked with the provider message id', () => {
    expect(cameFromWhatsApp({ data: { whatsapp: { provider_message_id: 'wamid.SIM1' } } })).toBe(true);
    expect(cameFromWhatsApp({ data: {} })).toBe(false);
    expect(cameFromWhatsApp({ data: { whatsapp: 'yes' } })).toBe(false);
    expect(cameFromWhatsApp({ data: { whatsapp: { provider_message_id: 42 } } })).toBe(false);
  });
});
