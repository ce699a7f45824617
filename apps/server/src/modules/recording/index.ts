/**
 * Session recording's surface (issue 16 §3): masked rrweb recordings of signed-in users' sessions, off unless
 * `SESSION_RECORDING=on`, replayed by the firm's ops admins (README).
 */
import type { FastifyInstance } from 'fastify';
import { registerRecordingRoutes } from './recording.routes';
import { createRecordingService, type RecordingService } from './recording.service';

export type { RecordingService } from './recording.service';

declare module 'fastify' {
  interface FastifyInstance {
    recording: RecordingService;
  }
}

export async function registerRecording(app: FastifyInstance): Promise<RecordingService> {
  const service = createRecordingService(app.deps);
  await registerRecordingRoutes(app, service);
  app.decorate('recording', service);
  return service;
}
