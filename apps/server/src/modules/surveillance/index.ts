/**
 * Surveillance alerts' surface (issue 16 §1): the compliance officer's alert calls and the scanner that raises alerts
 * from chat, quotes, deals, tickets and orders on the elected node (README).
 */
import type { FastifyInstance } from 'fastify';
import { createSurveillanceChats } from './surveillance.chats';
import { registerSurveillanceChatRoutes } from './surveillance.chats.routes';
import { registerSurveillanceRoutes } from './surveillance.routes';
import { createSurveillanceScanner, type SurveillanceScanner } from './surveillance.scanner';
import { createSurveillanceService, type SurveillanceService } from './surveillance.service';

export type { ScanSummary, SurveillanceScanner } from './surveillance.scanner';

export interface SurveillanceModule {
  service: SurveillanceService;
  /** Tests and the benchmark call `scanner.scanOnce()` to raise the alerts of everything committed so far. */
  scanner: SurveillanceScanner;
}

declare module 'fastify' {
  interface FastifyInstance {
    surveillance: SurveillanceModule;
  }
}

/** Registers the calls; the scanner runs on the elected node when `runScanner` (off under NODE_ENV=test). */
export function registerSurveillance(app: FastifyInstance, isLeader: () => boolean, runScanner: boolean): SurveillanceModule {
  const service = createSurveillanceService(app.deps);
  const scanner = createSurveillanceScanner(app.deps, { logger: app.log });
  registerSurveillanceRoutes(app, service);
  registerSurveillanceChatRoutes(app, createSurveillanceChats(app.deps));
  if (runScanner) scanner.start(isLeader);
  app.addHook('onClose', async () => {
    await scanner.stop();
  });
  const module = { service, scanner };
  app.decorate('surveillance', module);
  return module;
}
