/**
 * Pure mapping from stored rows to the wire shapes of packages/contracts/src/chat.ts. A channel is
 * built once as a viewer-independent `ChannelBase` (it also travels on the bus) and turned into
 * each receiver's `Channel` by `channelFor`, so every node renders the same view without a query.
 */
import type { Channel, ChatMember, ChatMessage } from '@dart/contracts';
import type { ChannelRow, MemberWithUser, MessageRecord } from './chat.repository';

export interface MemberBase {
  userId: string;
  name: string;
  isStaff: boolean;
  clientId: string;
  brandName: string;
  isActive: boolean;
  state: 'joined' | 'invited';
  role: 'operator' | 'none';
  hidden: boolean;
  inviterId: string | null;
  inviterName: string | null;
  invitedAt: string | null;
  readPosition: number;
  deliveredPosition: number;
}

export interface ChannelBase {
  id: string;
  url: string;
  customType: Channel['customType'];
  name: string;
  data: Record<string, unknown>;
  creatorId: string | null;
  createdAt: string;
  lastPosition: number;
  /** The channel's change sequence (edits and deletes of its messages). */
  changeSeq: number;
  lastMessage: Channel['lastMessage'];
  isWhatsappLinked: boolean;
  members: MemberBase[];
}

/** Staff members appear to others under the product name (spec §6); everyone else by their name. */
export const nicknameOf = (name: string, isStaff: boolean, productName: string) => (isStaff ? productName : name);

export function messageView(record: MessageRecord, productName: string): ChatMessage {
  const deleted = record.deletedAt !== null;
  return {
    messageId: record.id,
    reqId: record.reqId,
    channelUrl: record.channelUrl,
    position: record.position,
    messageType: record.messageType,
    type: record.messageType === 'file' ? record.mimeType : null,
    // A deleted message keeps its position; its content stays only in the compliance export.
    message: deleted ? '' : record.message,
    ogMetaData: deleted ? null : ((record.ogMetaData as ChatMessage['ogMetaData']) ?? null),
    data: deleted ? {} : record.data,
    customType: record.customType,
    file:
      deleted || !record.fileId
        ? null
        : {
            id: record.fileId,
            name: record.fileName ?? '',
            size: record.fileSize ?? 0,
            type: record.fileType ?? '',
            url: `/api/chat/files/${record.fileId}/`,
          },
    sender: record.senderId
      ? {
          userId: record.senderId,
          nickname: nicknameOf(record.senderName ?? '', record.senderIsStaff, productName),
          is_staff: record.senderIsStaff,
        }
      : null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt?.toISOString() ?? null,
    deletedAt: record.deletedAt?.toISOString() ?? null,
  };
}

export function channelBase(row: ChannelRow, members: MemberWithUser[], last: MessageRecord | undefined, productName: string): ChannelBase {
  const lastView = last ? messageView(last, productName) : null;
  return {
    id: row.id,
    url: row.url,
    customType: row.customType as Channel['customType'],
    name: row.name,
    data: row.data,
    creatorId: row.creatorId,
    createdAt: row.createdAt.toISOString(),
    lastPosition: row.lastPosition,
    changeSeq: row.changeSeq,
    lastMessage: lastView
      ? {
          data: lastView.data,
          message: lastView.message,
          customType: lastView.customType,
          sender: lastView.sender?.userId ?? null,
          createdAt: lastView.createdAt,
          position: lastView.position,
        }
      : null,
    isWhatsappLinked: row.isWhatsappLinked,
    members: members.map((m) => ({
      userId: m.userId,
      name: m.name,
      isStaff: m.isStaff,
      clientId: m.clientId,
      brandName: m.brandName,
      isActive: m.isActive,
      state: m.state,
      role: m.role,
      hidden: m.hidden,
      inviterId: m.inviterId,
      inviterName: m.inviterName,
      invitedAt: m.invitedAt?.toISOString() ?? null,
      readPosition: m.readPosition,
      deliveredPosition: m.deliveredPosition,
    })),
  };
}

/** The channel as `viewerId` sees it; null when the viewer is not a (visible) member. */
export function channelFor(base: ChannelBase, viewerId: string, online: ReadonlySet<string>, productName: string): Channel | null {
  const me = base.members.find((m) => m.userId === viewerId && !m.hidden);
  if (!me) return null;
  // Broadcast recipients are listed to the creator only; nobody else sees the broadcast channel.
  const showHidden = base.customType === 'broadcast' && base.creatorId === viewerId;
  const members: ChatMember[] = base.members
    .filter((m) => showHidden || !m.hidden)
    .map((m) => ({
      userId: m.userId,
      nickname: nicknameOf(m.name, m.isStaff, productName),
      role: m.role,
      connectionStatus: online.has(m.userId) ? 'online' : 'offline',
      state: m.state,
      metaData: { is_staff: m.isStaff, client_id: m.clientId, brand_name: m.brandName, is_active: m.isActive, data: {} },
      read_position: m.readPosition,
      delivered_position: m.deliveredPosition,
    }));
  const creator = base.members.find((m) => m.userId === base.creatorId);
  return {
    url: base.url,
    customType: base.customType,
    name: base.name,
    memberCount: members.length,
    members,
    lastMessage: base.lastMessage,
    lastPosition: base.lastPosition,
    createdAt: base.createdAt,
    invitedAt: me.invitedAt,
    inviter: me.inviterId ? { userId: me.inviterId, nickname: me.inviterName ?? '' } : null,
    creator: base.creatorId
      ? { userId: base.creatorId, nickname: creator ? nicknameOf(creator.name, creator.isStaff, productName) : '' }
      : null,
    myMemberState: me.state,
    myRole: me.role,
    // Positions are gap-free and sending marks one's own channel read, so unread = last - read.
    unreadMessageCount: Math.max(0, base.lastPosition - me.readPosition),
    data: base.data,
    is_whatsapp_linked_channel: base.isWhatsappLinked,
  };
}
