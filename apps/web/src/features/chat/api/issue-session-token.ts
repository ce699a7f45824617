import type { ChatSessionTokenSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

export type ChatSessionToken = z.infer<typeof ChatSessionTokenSchema>;

/** POST /api/issue-sb-session-token: a chat session token for the socket (never the access token). */
export function issueChatSessionToken(userId: string): Promise<ChatSessionToken> {
  return http.post<ChatSessionToken>(CHAT_PATHS.issueSessionToken, { userId });
}

/** DELETE /api/remove-sb-session: revokes every chat session of the caller (sign-out of chat). */
export function removeChatSession(userId: string): Promise<unknown> {
  return http.delete(CHAT_PATHS.removeSession, { query: { userId } });
}
