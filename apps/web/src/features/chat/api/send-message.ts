import { ChatSendError, type ChatClient } from '@dart/client';
import type { ChatMessage, SendMessage } from '@dart/contracts';
import { http } from '../../../lib/api-client';
import { CHAT_PATHS } from './chat-paths';

/** POST api/chat/channels/{url}/messages/: the same message over HTTP (idempotent by reqId). */
export function sendMessageOverHttp(url: string, body: SendMessage): Promise<ChatMessage> {
  return http.post<ChatMessage>(CHAT_PATHS.messages(url), body);
}

/** Socket failures after which the same reqId goes over HTTP (nothing or exactly this message was stored). */
const RETRY_OVER_HTTP = ['NOT_CONNECTED', 'DISCONNECTED', 'TIMEOUT', 'SERVICE_UNAVAILABLE'];

/**
 * Sends over the socket (answer by ack/nack); when the socket is down or drops before the ack, the
 * same reqId goes over HTTP, so the server stores the message once either way. So does an
 * unavailable nack (a server dependency was down, nothing was stored): still down, the HTTP answer is
 * a 503 whose message the composer shows, and the text stays in the box to send again. Other nacks are final.
 */
export async function sendChatMessage(client: ChatClient | null, url: string, body: SendMessage): Promise<ChatMessage> {
  if (client) {
    try {
      return await client.send(url, {
        reqId: body.reqId,
        message: body.message,
        data: body.data ?? {},
        customType: body.customType ?? null,
      });
    } catch (error) {
      if (!(error instanceof ChatSendError) || !RETRY_OVER_HTTP.includes(error.code)) throw error;
    }
  }
  return sendMessageOverHttp(url, body);
}
