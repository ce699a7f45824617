/** Application-level payloads: health, version, support, contact, invites, users, audit. */
import { z } from 'zod';
import { PERMISSIONS, ROLES } from './roles';
import { emailSchema, nameSchema } from './validation';

export const VersionSchema = z.object({ version: z.string() });
export const BuildManifestSchema = z.object({ id: z.string() });
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']) }),
  bus: z.object({ ok: z.boolean(), kind: z.enum(['memory', 'redis']) }),
  /** False while the API latency SLO alert is raised (p99 above the objective for several minutes). */
  slo: z.object({ ok: z.boolean() }),
});
export type Health = z.infer<typeof HealthSchema>;
export const RedirectLookupQuerySchema = z.strictObject({ path: z.string().min(1).max(200) });
export const RedirectLookupSchema = z.object({ path: z.string(), target: z.string().nullable() });

export const SUPPORT_KINDS = ['upgrade', 'support', 'report_issue'] as const;
export const SupportRequestSchema = z.strictObject({
  kind: z.enum(SUPPORT_KINDS),
  message: z.string().trim().max(2000).default(''),
  page: z.string().max(300).optional(),
});
export const SupportRequestCreatedSchema = z.object({ id: z.string(), detail: z.string() });

export const ContactFormSchema = z.strictObject({
  name: nameSchema('Name'),
  email: emailSchema,
  company: z.string().trim().max(120).optional(),
  message: z.string().trim().min(1, { error: 'Message is required.' }).max(2000, { error: 'Message must be at most 2000 characters.' }),
});
export type ContactForm = z.input<typeof ContactFormSchema>;

export const InviteCreateSchema = z.strictObject({
  email: emailSchema,
  roles: z.array(z.enum(ROLES)).min(1, { error: 'Choose at least one role.' }),
  permissions: z.array(z.enum(PERMISSIONS)).default([]),
});
export const InviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  client_name: z.string(),
  expires_at: z.string(),
  token: z.string().optional(),
});
export const PendingInviteListSchema = z.object({
  results: z.array(
    z.object({ id: z.string(), email: z.string(), roles: z.array(z.enum(ROLES)), expires_at: z.string(), created_at: z.string() }),
  ),
});
export const InviteValidationSchema = z.object({ valid: z.literal(true), email: z.string(), client_name: z.string() });

export const ClientUserSchema = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  permissions: z.array(z.enum(PERMISSIONS)),
  status: z.string(),
});
export const ClientUserListSchema = z.object({ results: z.array(ClientUserSchema), count: z.number() });

export const OutboxMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
});
