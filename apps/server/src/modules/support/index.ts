/**
 * The support desk's surface (issue 15 §2): the `ext/` calls behind the `SupportDesk` interface, with Dart's
 * built-in desk (tickets, staff queue, replies, status, attachments through the virus scan, e-mail).
 */
import type { FastifyInstance } from 'fastify';
import { createBuiltinSupportDesk, type SupportDesk } from './support-desk';
import { registerSupportRoutes } from './support.routes';

export type { SupportActor, SupportDesk } from './support-desk';

export async function registerSupport(app: FastifyInstance): Promise<SupportDesk> {
  const desk = createBuiltinSupportDesk(app.deps);
  await registerSupportRoutes(app, desk);
  return desk;
}
