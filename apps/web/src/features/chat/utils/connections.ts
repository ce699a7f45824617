import type { Channel } from '@dart/contracts';

/** Someone of another firm the user chats with: the workspace's Build Network lists them under their firm. */
export interface ChatConnection {
  clientId: string;
  /** The firm's name (its brand, else the member's nickname). */
  firm: string;
  person: string;
}

/**
 * The people of other firms who share a chat with the user (direct chats, groups, trading groups),
 * each once. A broadcast's recipients are not its members, Dart's staff are not a counterparty, the
 * user's own colleagues are not their network, and an invitation not yet accepted is no connection.
 */
export function chatConnections(channels: readonly Channel[], myUserId: string, myClientId: string): ChatConnection[] {
  const seen = new Map<string, ChatConnection>();
  for (const channel of channels) {
    if (channel.customType === 'broadcast') continue;
    for (const member of channel.members) {
      const { client_id: clientId, is_staff: isStaff, brand_name: brand } = member.metaData;
      if (member.userId === myUserId || isStaff || !clientId || clientId === myClientId || member.state !== 'joined') continue;
      if (!seen.has(member.userId)) seen.set(member.userId, { clientId, firm: brand.trim() || member.nickname, person: member.nickname });
    }
  }
  return [...seen.values()];
}
