/** How the Chats section names a chat, its kind and its people. */
import type { SurveillanceChat, SurveillanceChatMember } from '@dart/contracts';

const TYPE_LABELS: Record<string, string> = {
  direct: 'Direct',
  group: 'Group',
  'trading group': 'Trading group',
  broadcast: 'Broadcast',
};

export function chatTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

/** A member as "Name (Firm)", with staff and past members marked. */
export function memberLabel(member: SurveillanceChatMember, productName = 'Dart'): string {
  const firm = member.staff ? `${productName} staff` : member.firm;
  return `${member.name}${firm ? ` (${firm})` : ''}${member.left ? ', left' : ''}`;
}

/** The chat's name; a direct chat (no name) is named by its members. */
export function chatTitle(chat: Pick<SurveillanceChat, 'name' | 'members'>): string {
  if (chat.name) return chat.name;
  const names = chat.members.map((m) => m.name).filter(Boolean);
  return names.length > 0 ? names.join(' ↔ ') : 'Direct chat';
}

/** The firms in the chat other than the caller's, for the list's "with" column. */
export function otherFirms(chat: Pick<SurveillanceChat, 'members'>): string[] {
  return [...new Set(chat.members.filter((m) => !m.own_firm && !m.staff && m.firm).map((m) => m.firm))];
}
