/** The chat module's surface (issue 6): REST routes, the chat socket, and the service behind both. */
import type { FastifyInstance } from 'fastify';
import { registerChatGateway } from './chat.gateway';
import { createMemoryPresence, createMemoryRateLimiter, createRedisRealtime } from './chat.presence';
import { registerChatRoutes } from './chat.routes';
import { createChatService, type ChatService } from './chat.service';

export { CHAT_TOPICS, type ChatService } from './chat.service';

/**
 * Registers chat on the app. `namespace` scopes the Redis keys (rate limit, presence) to the nodes
 * of one deployment, like the bus channel.
 */
export async function registerChat(app: FastifyInstance, options: { namespace: string }): Promise<ChatService> {
  const { config } = app.deps;
  const redis = config.redisUrl ? await createRedisRealtime(config.redisUrl, options.namespace, app.log) : null;
  const realtime = redis ?? { limiter: createMemoryRateLimiter(), presence: createMemoryPresence() };
  const chat = createChatService(app.deps, realtime);
  registerChatRoutes(app, chat);
  registerChatGateway(app, chat);
  app.addHook('onClose', async () => {
    await realtime.presence.close();
    await redis?.close();
  });
  return chat;
}
