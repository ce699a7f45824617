import type { ChatMessage } from '@dart/contracts';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

/**
 * PATCH api/chat/channels/{url}/messages/{messageId}/: changes the text of one's own user message
 * (the server keeps the previous versions). Answers the stored message with `updatedAt` set; the
 * other members get it live as a `message_updated` channel event.
 */
export function editChatMessage(url: string, messageId: string, message: string): Promise<ChatMessage> {
  return http.patch<ChatMessage>(CHAT_PATHS.message(url, messageId), { message });
}
