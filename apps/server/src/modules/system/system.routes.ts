/** Health, version, build manifest, route redirects, support requests, contact, dev outbox (the audit trail's read path is modules/audit). */
import {
  BuildManifestSchema,
  ContactFormSchema,
  HealthSchema,
  OutboxMessageSchema,
  ROUTE_REDIRECTS,
  RedirectLookupQuerySchema,
  RedirectLookupSchema,
  SupportRequestCreatedSchema,
  VersionSchema,
} from '@dart/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessages, devOutbox } from '../../db/schema';
import { writeAudit } from '../../lib/audit';

const PUBLIC = { policy: { kind: 'public' } } as const;
const NO_CACHE = 'no-cache, no-store, must-revalidate';

export function registerSystemRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, database, bus } = app.deps;
  const db = database.db;

  r.get('/version.json', { config: PUBLIC, schema: { hide: true, response: { 200: VersionSchema } } }, async (_request, reply) => {
    void reply.header('cache-control', NO_CACHE);
    return { version: config.version };
  });

  r.get(
    '/builds/latest.json',
    { config: PUBLIC, schema: { hide: true, response: { 200: BuildManifestSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', NO_CACHE);
      return { id: config.buildId };
    },
  );

  r.get(
    '/api/health',
    {
      config: PUBLIC,
      schema: { tags: ['system'], summary: 'Database and bus status', response: { 200: HealthSchema, 503: HealthSchema } },
    },
    async (_request, reply) => {
      const [dbOk, busOk] = await Promise.all([database.ping(), bus.healthy()]);
      const body = {
        status: dbOk && busOk ? 'ok' : 'degraded',
        database: { ok: dbOk, driver: database.driver },
        bus: { ok: busOk, kind: bus.kind },
        // A slow node stays in rotation (200): taking it out would push its load onto the others.
        slo: { ok: app.deps.slo.status().ok },
      } as const;
      return reply
        .status(dbOk && busOk ? 200 : 503)
        .header('cache-control', NO_CACHE)
        .send(body);
    },
  );

  r.get(
    '/api/redirects/',
    {
      config: PUBLIC,
      schema: {
        tags: ['system'],
        summary: 'Redirect target of a route path (redirect middleware)',
        querystring: RedirectLookupQuerySchema,
        response: { 200: RedirectLookupSchema },
      },
    },
    async (request) => ({ path: request.query.path, target: ROUTE_REDIRECTS[request.query.path] ?? null }),
  );

  r.post(
    '/api/contact/',
    {
      config: { ...PUBLIC, rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags: ['support'],
        summary: 'Public contact form',
        body: ContactFormSchema,
        response: { 201: SupportRequestCreatedSchema },
      },
    },
    async (request, reply) => {
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(contactMessages)
          .values({
            name: request.body.name,
            email: request.body.email,
            company: request.body.company ?? null,
            message: request.body.message,
            ip: request.ip,
          })
          .returning({ id: contactMessages.id });
        await writeAudit(tx, request.audit(), { action: 'contact.submitted', entity: 'contact_message', entityId: created!.id });
        return created!;
      });
      return reply.status(201).send({ id: row.id, detail: 'Thank you. We will get back to you within one business day.' });
    },
  );

  // Public, and shows anyone's one-time passwords: never registered in production, whatever the config
  // says (loadConfig also refuses DEV_OUTBOX=1 there).
  if (config.devOutboxEnabled && config.env !== 'production') {
    r.get(
      '/api/dev/outbox',
      {
        config: PUBLIC,
        schema: {
          tags: ['development'],
          summary: 'Development outbox: e-mails and SMS the dev Mailer/SmsSender wrote (not in production)',
          querystring: z.strictObject({ to: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }),
          response: { 200: z.object({ results: z.array(OutboxMessageSchema) }) },
        },
      },
      async (request) => {
        const rows = await db
          .select()
          .from(devOutbox)
          .where(request.query.to ? and(eq(devOutbox.recipient, request.query.to)) : undefined)
          .orderBy(desc(devOutbox.createdAt))
          .limit(request.query.limit);
        return {
          results: rows.map((m) => ({
            id: m.id,
            channel: m.channel as 'email' | 'sms',
            to: m.recipient,
            subject: m.subject,
            body: m.body,
            created_at: m.createdAt.toISOString(),
          })),
        };
      },
    );
  }
}
