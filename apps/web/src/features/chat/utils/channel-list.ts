/**
 * The channel-list rules of spec trading §4–§5, applied on the client as well as the server:
 * duplicates by url hidden; direct channels whose other user has not onboarded hidden; broadcast
 * channels not created by me hidden; newest last message first, invited channels by their invite
 * time, channels created from a broadcast by me last.
 */
import type { Channel, ChatMember } from '@dart/contracts';

export function otherMember(channel: Channel, myUserId: string): ChatMember | undefined {
  return channel.members.find((member) => member.userId !== myUserId);
}

/**
 * CONTRACT-GAP: a channel member carries no `onboarded` flag (only user search results do). A
 * member counts as not onboarded only when its metaData says so (`metaData.data.onboarded === false`).
 */
export function isOnboarded(member: ChatMember): boolean {
  return member.metaData.data.onboarded !== false;
}

const createdByMe = (channel: Channel, myUserId: string) => channel.creator?.userId === myUserId;

/** Created from a broadcast (the broadcast list itself, or a channel whose data says so) by me. */
export function isMyBroadcast(channel: Channel, myUserId: string): boolean {
  return createdByMe(channel, myUserId) && (channel.customType === 'broadcast' || channel.data.created_from === 'broadcast');
}

export function isVisibleChannel(channel: Channel, myUserId: string): boolean {
  if (channel.customType === 'broadcast' && !createdByMe(channel, myUserId)) return false;
  if (channel.customType === 'direct') {
    const other = otherMember(channel, myUserId);
    if (other && !isOnboarded(other)) return false;
  }
  return true;
}

/** Sort time: the invite time for an invitation, else the last message, else creation. */
export function channelSortTime(channel: Channel): number {
  const value =
    channel.myMemberState === 'invited' ? (channel.invitedAt ?? channel.createdAt) : (channel.lastMessage?.createdAt ?? channel.createdAt);
  const time = Date.parse(value);
  return Number.isNaN(time) ? 0 : time;
}

export function arrangeChannels(channels: readonly Channel[], myUserId: string): Channel[] {
  const seen = new Set<string>();
  const visible: Channel[] = [];
  for (const channel of channels) {
    if (seen.has(channel.url)) continue;
    seen.add(channel.url);
    if (isVisibleChannel(channel, myUserId)) visible.push(channel);
  }
  return visible.sort((a, b) => {
    const lastA = isMyBroadcast(a, myUserId) ? 1 : 0;
    const lastB = isMyBroadcast(b, myUserId) ? 1 : 0;
    if (lastA !== lastB) return lastA - lastB;
    return channelSortTime(b) - channelSortTime(a);
  });
}

/** What a channel is called in the list: the other person for a direct chat (staff show the product name). */
export function channelTitle(channel: Channel, myUserId: string, productName: string): string {
  if (channel.customType !== 'direct') return channel.name || 'Untitled channel';
  const other = otherMember(channel, myUserId);
  if (!other) return channel.name || 'Direct chat';
  return other.metaData.is_staff ? productName : other.nickname;
}

export const CHANNEL_TYPE_LABELS: Record<Channel['customType'], string> = {
  direct: 'Direct',
  group: 'Group',
  'trading group': 'Trading group',
  broadcast: 'Broadcast',
};
