/**
 * What one may do with a message (the server's rules of PATCH / DELETE
 * api/chat/channels/{url}/messages/{id}/, applied before asking): only one's own messages; only
 * plain text can be edited (not files, buzzes or private run cards); a deleted message is final.
 */
import type { Channel, ChatMessage } from '@dart/contracts';
import { arrangeChannels } from './channel-list';

/** What a deleted message shows in its place (and as the list's last line). */
export const DELETED_MESSAGE_TEXT = 'This message was deleted';

const isMine = (message: ChatMessage, myUserId: string) => message.sender?.userId === myUserId;

export function canEditMessage(message: ChatMessage, myUserId: string): boolean {
  return (
    isMine(message, myUserId) &&
    message.messageType === 'user' &&
    message.deletedAt === null &&
    // Like the server: only plain messages (no custom type). A buzz has nothing to edit, and a private
    // run's card and text are written by the server from the quote.
    message.customType === null
  );
}

export function canDeleteMessage(message: ChatMessage, myUserId: string): boolean {
  return isMine(message, myUserId) && message.messageType !== 'admin' && message.deletedAt === null;
}

/** The message Up arrow in an empty composer edits: my latest editable one (messages oldest first). */
export function lastEditableMessage(messages: readonly ChatMessage[], myUserId: string): ChatMessage | undefined {
  return messages.findLast((message) => canEditMessage(message, myUserId));
}

/**
 * CONTRACT-GAP: a channel's `lastMessage` has no `deletedAt`. A sent message is never empty (text is
 * at least one character, a file message carries its name), and the server empties a deleted one,
 * so an empty last message is a deleted one.
 */
export function isDeletedLastMessage(lastMessage: NonNullable<Channel['lastMessage']>): boolean {
  return lastMessage.message === '';
}

/** The unread total over the channels the list shows (the header badge). */
export function unreadTotal(channels: readonly Channel[], myUserId: string): number {
  return arrangeChannels(channels, myUserId).reduce((total, channel) => total + Math.max(0, channel.unreadMessageCount), 0);
}
