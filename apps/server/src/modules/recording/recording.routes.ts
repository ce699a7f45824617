/**
 * Session recording's HTTP edge (ours; the spec names no paths; README "Calls"). The recorder's calls are any signed-in
 * user's, view-only roles included (recording is analytics, not a business write) and act on their own recordings only;
 * the list and the replay are the ops admin's (`clientopsadmin`), of their own firm only. While recording is off, every
 * call but the settings answers 404 after the access check.
 */
import {
  RECORDING_LIMITS,
  RECORDING_MESSAGES,
  RecordingChunkResultSchema,
  RecordingChunkSchema,
  RecordingDetailSchema,
  RecordingIdParamsSchema,
  RecordingListQuerySchema,
  RecordingListSchema,
  RecordingSessionCreateSchema,
  RecordingSessionCreatedSchema,
  RecordingSettingsSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import type { RecordingService } from './recording.service';

/** Any signed-in user, view-only roles included: their own recordings only. */
const SIGNED_IN: AccessPolicy = { kind: 'authenticated' };
/** The firm's ops admin: their own firm's recordings only. */
const OPS: AccessPolicy = { kind: 'authenticated', roles: ['clientopsadmin'] };

export async function registerRecordingRoutes(app: FastifyInstance, service: RecordingService): Promise<void> {
  const tags = ['recording'];
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/recording/settings/',
    {
      config: { policy: SIGNED_IN },
      schema: {
        tags,
        summary: 'Whether this deployment records sessions (SESSION_RECORDING), and the upload limits',
        response: { 200: RecordingSettingsSchema },
      },
    },
    async () => service.settings(),
  );

  await app.register(async (scope) => {
    // Off: 404 after the access check (onRequest hooks of the root run first), before validation says anything.
    scope.addHook('onRequest', async () => {
      if (!service.enabled) throw new AppError('NOT_FOUND', RECORDING_MESSAGES.off);
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/recording/sessions/',
      {
        config: { policy: SIGNED_IN, rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Starts a recording of my browser session (body {}); returns its id',
          body: RecordingSessionCreateSchema,
          response: { 201: RecordingSessionCreatedSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.start(request.principal!, request.headers['user-agent'] ?? null, request.audit())),
    );
    r.post(
      '/api/recording/sessions/:id/events/',
      {
        config: { policy: SIGNED_IN, rateLimit: { max: RECORDING_LIMITS.chunksPerMinute, timeWindow: '1 minute' } },
        // The events (≤ 1 MiB as JSON) and their envelope.
        bodyLimit: RECORDING_LIMITS.chunkMaxBytes + 4_096,
        schema: {
          tags,
          summary: 'Uploads a numbered batch of masked rrweb events to my own recording (a retried seq is stored once)',
          params: RecordingIdParamsSchema,
          body: RecordingChunkSchema,
          response: { 200: RecordingChunkResultSchema },
        },
      },
      async (request) => service.append(request.principal!, request.params.id, request.body),
    );
    r.get(
      '/api/recording/sessions/',
      {
        config: { policy: OPS },
        schema: {
          tags,
          summary: "Ops admin: my firm's recordings within retention, newest first",
          querystring: RecordingListQuerySchema,
          response: { 200: RecordingListSchema },
        },
      },
      async (request) => service.list(request.principal!, request.query),
    );
    r.get(
      '/api/recording/sessions/:id/',
      {
        config: { policy: OPS },
        schema: {
          tags,
          summary: "Ops admin: one of my firm's recordings with its events, for the replay",
          params: RecordingIdParamsSchema,
          response: { 200: RecordingDetailSchema },
        },
      },
      async (request, reply) =>
        reply.header('cache-control', 'private, no-store').send(await service.get(request.principal!, request.params.id, request.audit())),
    );
  });
}
