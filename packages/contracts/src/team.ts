/**
 * Network and team calls (spec trading-domain §7 "Client and team", application §6; issue 15 §1): the
 * organisation profile with the §5 form rules, user roles with the spec's role rules, invites at the spec's
 * paths, lite registration of an offline counterparty, and the network directories (clients, facilitators,
 * agents, user accounts, by-website).
 */
import { z } from 'zod';
import { PERMISSIONS, ROLES, type Role } from './roles';
import {
  accountNumberSchema,
  boIdSchema,
  businessEmailSchema,
  clientIdSchema,
  dpIdSchema,
  emailSchema,
  gstSchema,
  ifscSchema,
  mobileSchema,
  nameSchema,
  panSchema,
  pincodeSchema,
  timeSchema,
} from './validation';

/**
 * Indian state list for addresses (spec application §3: 36 options plus Other): the 28 states and the 8 union
 * territories as the Ministry of Home Affairs names them (since 26 Jan 2020, Dadra and Nagar Haveli and Daman and
 * Diu are one territory), then 'Other'.
 */
export const INDIAN_STATES = [
  'Andhra Pradesh',
  'Arunachal Pradesh',
  'Assam',
  'Bihar',
  'Chhattisgarh',
  'Goa',
  'Gujarat',
  'Haryana',
  'Himachal Pradesh',
  'Jharkhand',
  'Karnataka',
  'Kerala',
  'Madhya Pradesh',
  'Maharashtra',
  'Manipur',
  'Meghalaya',
  'Mizoram',
  'Nagaland',
  'Odisha',
  'Punjab',
  'Rajasthan',
  'Sikkim',
  'Tamil Nadu',
  'Telangana',
  'Tripura',
  'Uttar Pradesh',
  'Uttarakhand',
  'West Bengal',
  'Andaman and Nicobar Islands',
  'Chandigarh',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Delhi',
  'Jammu and Kashmir',
  'Ladakh',
  'Lakshadweep',
  'Puducherry',
] as const;
export const ADDRESS_STATES = [...INDIAN_STATES, 'Other'] as const;
export type AddressState = (typeof ADDRESS_STATES)[number];

export const TEAM_MESSAGES = {
  complianceTwoRoles: 'A compliance user has exactly two roles, one of them Compliance Officer.',
  viewerOnly: 'A viewer has only the Viewer role.',
  lastOpsAdmin: 'The last OpsAdmin of the organisation cannot be removed.',
  chooseRole: 'Choose at least one role.',
  duplicateRole: 'Each role may be chosen once.',
  userNotFound: 'User not found.',
  clientNotFound: 'Client not found.',
  inviteNotFound: 'Invitation not found.',
  stateRequired: 'Please choose a state.',
  websiteInvalid: 'Please enter a valid website.',
  websiteTaken: 'Another organisation already uses this website.',
  noClientForWebsite: 'No organisation uses this website.',
  offlineDuplicate: 'This contact is already recorded.',
  lineRequired: 'Address is required.',
  cityRequired: 'City is required.',
} as const;

/**
 * The spec's role rules (application §6) for a set of roles given to one user: a compliance user has exactly two
 * roles including compliance; a viewer holds only the viewer role. Returns the message of the first rule broken.
 */
export function roleRuleError(roles: readonly Role[]): string | null {
  if (roles.length === 0) return TEAM_MESSAGES.chooseRole;
  if (new Set(roles).size !== roles.length) return TEAM_MESSAGES.duplicateRole;
  if (roles.includes('complianceofficer') && roles.length !== 2) return TEAM_MESSAGES.complianceTwoRoles;
  if (roles.includes('clientviewer') && roles.length !== 1) return TEAM_MESSAGES.viewerOnly;
  return null;
}

const rolesField = z
  .array(z.enum(ROLES), { error: TEAM_MESSAGES.chooseRole })
  .max(ROLES.length)
  .superRefine((roles, ctx) => {
    const error = roleRuleError(roles);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  });

/** `PUT api/client/user/`: one user's roles (and optionally permissions and status) in the caller's organisation. */
export const UserRolesUpdateSchema = z.strictObject({
  user_id: z.uuid({ error: TEAM_MESSAGES.userNotFound }),
  roles: rolesField,
  permissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length).optional(),
  /** Deactivate (`inactive`) or reactivate (`active`) the user's account in the organisation. */
  status: z.enum(['active', 'inactive']).optional(),
});
export type UserRolesUpdate = z.output<typeof UserRolesUpdateSchema>;

export const TeamUserSchema = z.object({
  id: z.string(),
  user_account_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  permissions: z.array(z.enum(PERMISSIONS)),
  status: z.string(),
});
export type TeamUser = z.output<typeof TeamUserSchema>;

/** `GET api/useraccounts/?search=`: the caller's own organisation's members. */
export const UserAccountsQuerySchema = z.strictObject({ search: z.string().trim().max(100).default('') });
export const UserAccountListSchema = z.object({ results: z.array(TeamUserSchema), count: z.number() });

/** `POST api/client/user/invite/revoke/` with invitee_id (the pending invite's id). */
export const InviteRevokeSchema = z.strictObject({ invitee_id: z.uuid({ error: TEAM_MESSAGES.inviteNotFound }) });
export const InviteRevokedSchema = z.object({ id: z.string(), email: z.string(), revoked_at: z.string() });
/** `POST api/client/user/invite/validate/` with invite_code (the token the invite e-mail carries). */
export const InviteValidateSchema = z.strictObject({ invite_code: z.string().trim().min(1).max(200) });

const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, { error: message }).max(max);

export const AddressSchema = z.strictObject({
  line1: requiredText(TEAM_MESSAGES.lineRequired, 200),
  line2: z.string().trim().max(200).nullable().default(null),
  city: requiredText(TEAM_MESSAGES.cityRequired, 100),
  state: z.enum(ADDRESS_STATES, { error: TEAM_MESSAGES.stateRequired }),
  pincode: pincodeSchema,
});
export type Address = z.output<typeof AddressSchema>;

export const BankAccountSchema = z.strictObject({
  account_number: accountNumberSchema,
  ifsc: ifscSchema,
  bank_name: z.string().trim().max(120).nullable().default(null),
});

/** Demat details: a CDSL BO ID (16 digits) and/or an NSDL DP ID with its Client Id (8 each). */
export const DematSchema = z.strictObject({
  bo_id: boIdSchema.nullable().default(null),
  dp_id: dpIdSchema.nullable().default(null),
  client_id: clientIdSchema.nullable().default(null),
});

/** A website as typed (with or without scheme or `www.`), normalised to its lower-case host name. */
export function normaliseWebsite(value: string): string | null {
  const trimmed = value.trim().toLowerCase();
  if (!trimmed || trimmed.length > 253) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(trimmed) ? trimmed : `https://${trimmed}`).hostname.replace(/^www\./, '');
    return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

export const websiteSchema = z.string({ error: TEAM_MESSAGES.websiteInvalid }).transform((value, ctx) => {
  const host = normaliseWebsite(value);
  if (!host) {
    ctx.addIssue({ code: 'custom', message: TEAM_MESSAGES.websiteInvalid });
    return z.NEVER;
  }
  return host;
});

/** `PUT api/client/{id}/`: the organisation's details; every field of spec §5 with its message. A PUT replaces them all. */
export const ClientProfileUpdateSchema = z.strictObject({
  pan: panSchema,
  gst: gstSchema.nullable().default(null),
  business_email: businessEmailSchema.nullable().default(null),
  website: websiteSchema.nullable().default(null),
  registered_address: AddressSchema.nullable().default(null),
  correspondence_address: AddressSchema.nullable().default(null),
  bank_account: BankAccountSchema.nullable().default(null),
  demat: DematSchema.nullable().default(null),
  /** The firm's daily settlement cut-off, HH:MM 24-hour IST (spec §5 "time"): funds and securities ready by then. */
  settlement_cutoff_time: timeSchema.nullable().default(null),
});
export type ClientProfileUpdate = z.output<typeof ClientProfileUpdateSchema>;

export const ClientProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  client_type: z.string(),
  client_tier: z.string(),
  segment: z.string(),
  is_broker: z.boolean(),
  pan: z.string().nullable(),
  gst: z.string().nullable(),
  business_email: z.string().nullable(),
  website: z.string().nullable(),
  registered_address: AddressSchema.nullable(),
  correspondence_address: AddressSchema.nullable(),
  /** The account number is shown in full to ops admins only; others see its last four digits. */
  bank_account: z.object({ account_number: z.string(), ifsc: z.string(), bank_name: z.string().nullable() }).nullable(),
  demat: z.object({ bo_id: z.string().nullable(), dp_id: z.string().nullable(), client_id: z.string().nullable() }).nullable(),
  settlement_cutoff_time: z.string().nullable(),
});
export type ClientProfile = z.output<typeof ClientProfileSchema>;

/** `GET api/client/by-website/?website=`: the organisation on the platform that uses a website. */
export const ClientByWebsiteQuerySchema = z.strictObject({ website: websiteSchema });
export const ClientByWebsiteSchema = z.object({ client_id: z.string(), name: z.string(), is_broker: z.boolean(), website: z.string() });

const booleanQuery = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/** `GET api/clients/` with search, is_partner (firms we have traded with), offline_record (our lite records). */
export const ClientsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).default(''),
  is_partner: booleanQuery,
  offline_record: booleanQuery,
});
export const NetworkClientSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  is_broker: z.boolean(),
  /** The two firms share a ticket (they have traded). */
  is_partner: z.boolean(),
  /** Recorded by the caller's firm through `register-user/lite`: not on the platform. */
  offline_record: z.boolean(),
  contact: z.object({ first_name: z.string(), last_name: z.string(), email: z.string(), mobile: z.string().nullable() }).nullable(),
});
export type NetworkClient = z.output<typeof NetworkClientSchema>;
export const NetworkClientListSchema = z.object({ results: z.array(NetworkClientSchema), count: z.number() });

/** `GET api/trade/facilitator/` and `GET api/trade/agent/` take an optional search. */
export const NetworkSearchQuerySchema = z.strictObject({ search: z.string().trim().max(100).default('') });
export const FacilitatorListSchema = z.object({
  results: z.array(
    z.object({
      client_id: z.string(),
      name: z.string(),
      nsccl_code: z.string().nullable(),
      iccl_code: z.string().nullable(),
      agents: z.number(),
    }),
  ),
  count: z.number(),
});
export const AgentListSchema = z.object({
  results: z.array(z.object({ user_id: z.string(), user_name: z.string(), client_id: z.string(), brand_name: z.string() })),
  count: z.number(),
});

/**
 * `POST api/client/register-user/lite`: records a counterparty that is not on the platform (an offline record of
 * the caller's firm) with its contact person; the shape follows the registration payload (spec application §7).
 */
export const RegisterUserLiteSchema = z.strictObject({
  identity: z.strictObject({ first_name: nameSchema('First name'), last_name: nameSchema('Last name') }),
  contact: z.strictObject({ email: emailSchema, mobile: mobileSchema.nullable().default(null) }),
  corporate_identity: z
    .strictObject({ name: requiredText('Organisation name is required.', 120) })
    .nullable()
    .default(null),
  pan: panSchema.nullable().default(null),
});
export type RegisterUserLite = z.output<typeof RegisterUserLiteSchema>;

/**
 * `GET api/network/stats/` (ours; issue 15 §1): per counterparty firm, what the caller's firm saw of it over the
 * last {@link NETWORK_STATS_WINDOW_DAYS} days, computed from the firm's own quotes, negotiations and deals. The
 * definitions are in apps/server/src/modules/team/README.md ("Counterparty quality"); a figure with nothing to
 * measure is null, never 0.
 */
export const NETWORK_STATS_WINDOW_DAYS = 90;
export const NetworkFirmStatsSchema = z.object({
  client_id: z.string(),
  name: z.string(),
  is_broker: z.boolean(),
  /** The exchanges the firm takes RFQs on (NSE, BSE): an OTO RFQ can name it on these. */
  rfq_exchanges: z.array(z.string()),
  /** A dealer of the firm to chat with: its first active member holding `client.can_trade`, by name. */
  contact: z.object({ user_id: z.string(), user_name: z.string() }).nullable(),
  /** Requests we sent them that could be answered: private runs and RFQs addressed to them, our counters to them. */
  requests: z.number(),
  answered: z.number(),
  /** answered ÷ requests (0..1); null without requests. */
  response_rate: z.number().nullable(),
  /** Median seconds from our request to their answer; null without answers. */
  median_response_seconds: z.number().nullable(),
  /** Negotiations between the two firms that ended. */
  negotiations: z.number(),
  /** Ended negotiations that ended in a deal ÷ ended negotiations (0..1); null without ended negotiations. */
  hit_rate: z.number().nullable(),
  /** Their quotes to us left to expire or filled. */
  quotes_held: z.number(),
  /** Their quotes to us withdrawn (closed or expired by them) before their expiry. */
  quotes_pulled: z.number(),
  deals: z.number(),
  last_activity_at: z.string(),
});
export type NetworkFirmStats = z.output<typeof NetworkFirmStatsSchema>;
export const NetworkStatsSchema = z.object({
  window_days: z.number(),
  since: z.string(),
  results: z.array(NetworkFirmStatsSchema),
  count: z.number(),
});
export type NetworkStats = z.output<typeof NetworkStatsSchema>;
