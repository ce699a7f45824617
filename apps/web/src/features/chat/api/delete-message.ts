import type { ChatMessage } from '@dart/contracts';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

/**
 * DELETE api/chat/channels/{url}/messages/{messageId}/: deletes one's own message. It keeps its
 * position (answered with `deletedAt` set and the content emptied); the compliance export keeps the
 * text. The other members get it live as a `message_deleted` channel event.
 */
export function deleteChatMessage(url: string, messageId: string): Promise<ChatMessage> {
  return http.delete<ChatMessage>(CHAT_PATHS.message(url, messageId));
}
