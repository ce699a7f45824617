/**
 * The WhatsApp link's HTTP edge (ours; the spec names no paths; README "Calls"). Consent is the caller's own, on
 * every role (view-only ones too: it is not a business write, like notification preferences); the bridged-message
 * log is the firm's compliance and ops view; linking a channel is a chat write (view-only roles refused). The
 * simulator's inbound webhook exists outside production only, under the dev outbox's switch.
 */
import {
  WhatsAppChannelLinkResultSchema,
  WhatsAppChannelLinkSchema,
  WhatsAppChannelParamsSchema,
  WhatsAppConsentSchema,
  WhatsAppConsentUpdateSchema,
  WhatsAppMessageListQuerySchema,
  WhatsAppMessageListSchema,
  WhatsAppSimulatedInboundResultSchema,
  WhatsAppSimulatedInboundSchema,
  WhatsAppSimulatedOutboxQuerySchema,
  WhatsAppSimulatedOutboxSchema,
  WhatsAppSimulatedSettleResultSchema,
  type AccessPolicy,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SimulatedWhatsAppBridge } from './simulated-whatsapp-bridge';
import type { WhatsAppService } from './whatsapp.service';

const SIGNED_IN: AccessPolicy = { kind: 'authenticated' };
/** The own firm's bridged messages: its compliance officers and ops admins. */
const COMPLIANCE_AND_OPS: AccessPolicy = { kind: 'authenticated', roles: ['complianceofficer', 'clientopsadmin'] };
/** Linking a chat channel changes what its members receive: a chat write. */
const CHAT_WRITE: AccessPolicy = { kind: 'authenticated', write: true };
const PUBLIC: AccessPolicy = { kind: 'public' };

export function registerWhatsAppRoutes(
  app: FastifyInstance,
  service: WhatsAppService,
  simulator: SimulatedWhatsAppBridge | null,
  /** The producer's drain (the dev settle call runs it on this node; it is single-flight and safe on any node). */
  drain: () => Promise<number>,
): void {
  const tags = ['whatsapp'];
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/whatsapp/consent/',
    {
      config: { policy: SIGNED_IN },
      schema: {
        tags,
        summary: 'My WhatsApp consent: as it stands, with its source, time and history',
        response: { 200: WhatsAppConsentSchema },
      },
    },
    async (request) => service.consent(request.principal!),
  );
  r.put(
    '/api/whatsapp/consent/',
    {
      config: { policy: SIGNED_IN },
      schema: {
        tags,
        summary: 'Gives or withdraws my WhatsApp consent (source: profile); a withdrawal stops every message not yet sent',
        body: WhatsAppConsentUpdateSchema,
        response: { 200: WhatsAppConsentSchema },
      },
    },
    async (request) => service.setConsent(request.principal!, request.body.consented, request.audit()),
  );
  r.get(
    '/api/whatsapp/messages/',
    {
      config: { policy: COMPLIANCE_AND_OPS },
      schema: {
        tags,
        summary: "The own firm's messages that crossed the WhatsApp bridge, newest first, with their status history",
        querystring: WhatsAppMessageListQuerySchema,
        response: { 200: WhatsAppMessageListSchema },
      },
    },
    async (request) => service.messages(request.principal!, request.query),
  );
  r.put(
    '/api/whatsapp/channels/:url/link/',
    {
      config: { policy: CHAT_WRITE },
      schema: {
        tags,
        summary: 'Links a chat channel to WhatsApp (operators; direct channels: either member), or unlinks it',
        params: WhatsAppChannelParamsSchema,
        body: WhatsAppChannelLinkSchema,
        response: { 200: WhatsAppChannelLinkResultSchema },
      },
    },
    async (request) => service.link(request.principal!, request.params.url, request.body.linked, request.audit()),
  );

  // The simulator's webhook: a user replying on WhatsApp. Public (the phone is the user), so never in production.
  const { config } = app.deps;
  if (simulator && config.devOutboxEnabled && config.env !== 'production') {
    r.post(
      '/api/dev/whatsapp/inbound/',
      {
        config: { policy: PUBLIC },
        schema: {
          tags,
          summary: 'Development only: the simulated WhatsApp endpoint receives a message from a phone (not in production)',
          body: WhatsAppSimulatedInboundSchema,
          response: { 200: WhatsAppSimulatedInboundResultSchema },
        },
      },
      async (request) => {
        const inbound = await simulator.injectInbound({
          from: request.body.from,
          text: request.body.text,
          ...(request.body.context_message_id ? { contextMessageId: request.body.context_message_id } : {}),
        });
        return { provider_message_id: inbound.providerMessageId };
      },
    );
    // The phone's side of the simulator, for e2e tests and developers: what it accepted (numbers in full).
    r.get(
      '/api/dev/whatsapp/outbox/',
      {
        config: { policy: PUBLIC },
        schema: {
          tags,
          summary: 'Development only: what the simulated WhatsApp endpoint accepted, oldest first (not in production)',
          querystring: WhatsAppSimulatedOutboxQuerySchema,
          response: { 200: WhatsAppSimulatedOutboxSchema },
        },
      },
      async (request) => {
        const to = request.query.to?.replace(/\D/g, '');
        return {
          results: simulator.outbox(to && to.length === 10 ? `91${to}` : to).map((message) => ({
            provider_message_id: message.providerMessageId,
            to: message.to,
            kind: message.kind,
            template: message.template,
            body: message.body,
            accepted_at: message.acceptedAt.toISOString(),
            statuses: [...message.statuses],
          })),
        };
      },
    );
    // Brings the simulated world up to date: queue and send everything committed so far, then every receipt now
    // (with NODE_ENV=test receipts come only on settle, as in the integration tests).
    r.post(
      '/api/dev/whatsapp/settle/',
      {
        config: { policy: PUBLIC },
        schema: {
          tags,
          summary: 'Development only: sends what is queued and produces every pending receipt now (not in production)',
          response: { 200: WhatsAppSimulatedSettleResultSchema },
        },
      },
      async () => {
        const accepted = await drain();
        await simulator.settle();
        return { accepted };
      },
    );
  }
}
