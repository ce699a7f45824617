/**
 * The WhatsApp link's surface (issue 16 §2): consent, the bridged-message log, linked chat channels, and the producer
 * that sends quote alerts and chat messages through the `MessagingBridge` on the elected node (README).
 */
import type { FastifyInstance } from 'fastify';
import type { ChatService } from '../chat';
import type { MessagingBridge } from './messaging-bridge';
import { SimulatedWhatsAppBridge } from './simulated-whatsapp-bridge';
import { createWhatsAppProducer, type WhatsAppProducer } from './whatsapp.producer';
import { registerWhatsAppRoutes } from './whatsapp.routes';
import { createWhatsAppService, type WhatsAppService } from './whatsapp.service';

export type { MessagingBridge, OutboundBridgeMessage, BridgeReceipt, BridgeInbound } from './messaging-bridge';
export { SimulatedWhatsAppBridge, type SimulatedWhatsAppOptions } from './simulated-whatsapp-bridge';

export interface WhatsAppModule {
  service: WhatsAppService;
  /** Tests call `producer.drain()` to queue and send everything committed so far. */
  producer: WhatsAppProducer;
  bridge: MessagingBridge;
  /** The simulated endpoint when no real provider is configured (always, today). */
  simulator: SimulatedWhatsAppBridge | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    whatsapp: WhatsAppModule;
  }
}

export function registerWhatsApp(
  app: FastifyInstance,
  options: { chat: Pick<ChatService, 'actorOf' | 'sendMessage'>; isLeader: () => boolean; bridge?: MessagingBridge },
): WhatsAppModule {
  const { config, now } = app.deps;
  // No real provider is wired yet: the simulated endpoint, with receipts by itself outside tests (tests settle them).
  const simulator = options.bridge
    ? null
    : new SimulatedWhatsAppBridge(config.env === 'test' ? { receiptDelayMs: 0, failureRate: 0 } : {}, now);
  const bridge = options.bridge ?? simulator!;
  const service = createWhatsAppService(app.deps, options.chat);
  bridge.connect({ receipt: (receipt) => service.onReceipt(receipt), inbound: (message) => service.onInbound(message) });
  const producer = createWhatsAppProducer(app.deps, bridge, { logger: app.log });
  registerWhatsAppRoutes(app, service, simulator, () => producer.drain());
  producer.start(options.isLeader);
  app.addHook('onClose', async () => {
    await producer.stop();
    await bridge.close();
  });
  const module = { service, producer, bridge, simulator };
  app.decorate('whatsapp', module);
  return module;
}
