/** Sign-in, OTP, registration, password and session payloads (spec application §3, §7). */
import { z } from 'zod';
import {
  CLIENT_MODES,
  CLIENT_TIERS,
  CLIENT_TYPES,
  EXCHANGES,
  INDIVIDUAL_CATEGORIES,
  PERMISSIONS,
  ROLES,
  USER_ACCOUNT_STATUSES,
} from './roles';
import { emailSchema, loginOtpSchema, mobileSchema, nameSchema, panSchema, passwordSchema } from './validation';

export const OTP_REQUEST_TYPES = ['login', 'register', 'update_profile', 'easy_register'] as const;
export type OtpRequestType = (typeof OTP_REQUEST_TYPES)[number];
/** Where a code is delivered: by SMS to the mobile or by e-mail. */
export const AUTH_MODES = ['mobile', 'email'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const LoginRequestSchema = z.strictObject({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(128),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const TokenResponseSchema = z.object({
  access: z.string(),
  refresh: z.string().optional(),
  access_expires_in: z.number(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export const RefreshRequestSchema = z.strictObject({ refresh: z.string().min(1).max(200).optional() });

/** Exactly one of mobile / e-mail, matching the auth mode. */
function identityRefine<T extends { mobile?: string | undefined; email?: string | undefined; auth_mode: AuthMode }>(
  value: T,
  ctx: z.RefinementCtx,
): void {
  if (value.auth_mode === 'mobile' && !value.mobile)
    ctx.addIssue({ code: 'custom', path: ['mobile'], message: 'Please enter a valid Phone number.' });
  if (value.auth_mode === 'email' && !value.email)
    ctx.addIssue({ code: 'custom', path: ['email'], message: 'Please enter a valid email address.' });
}

export const RequestOtpSchema = z
  .strictObject({
    mobile: mobileSchema.optional(),
    email: emailSchema.optional(),
    request_type: z.enum(OTP_REQUEST_TYPES),
    auth_mode: z.enum(AUTH_MODES),
    client_mode: z.enum(CLIENT_MODES).default('SOFTWARE'),
  })
  .superRefine(identityRefine);
export type RequestOtp = z.input<typeof RequestOtpSchema>;

/** The answer to an OTP request is the same whether or not the identity exists (no enumeration). */
export const RequestOtpResponseSchema = z.object({ detail: z.string(), expires_in: z.number() });

export const OtpLoginSchema = z
  .strictObject({
    mobile: mobileSchema.optional(),
    email: emailSchema.optional(),
    otp: loginOtpSchema,
    auth_mode: z.enum(AUTH_MODES),
  })
  .superRefine(identityRefine);
export type OtpLogin = z.input<typeof OtpLoginSchema>;

export const ValidateOtpSchema = z
  .strictObject({
    mobile: mobileSchema.optional(),
    email: emailSchema.optional(),
    otp: loginOtpSchema,
    request_type: z.enum(['register', 'update_profile', 'easy_register']),
    auth_mode: z.enum(AUTH_MODES).default('email'),
  })
  .superRefine(identityRefine);
export type ValidateOtp = z.input<typeof ValidateOtpSchema>;
export const ValidateOtpResponseSchema = z.object({ valid: z.literal(true), verification: z.string() });

export const ResetPasswordSchema = z.strictObject({ email: emailSchema, web_url: z.url().max(500) });
export const PASSWORDS_DIFFER = 'The two password fields didn’t match.';
export const ChangePasswordSchema = z
  .strictObject({ new_password1: passwordSchema, new_password2: z.string(), token: z.string().min(1).max(200) })
  .refine((v) => v.new_password1 === v.new_password2, { path: ['new_password2'], error: PASSWORDS_DIFFER });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const RegistrationSchema = z
  .strictObject({
    /** 'password' registers with a password; 'otp' registers for OTP-only sign-in. */
    auth_mode: z.enum(['password', 'otp']),
    pan: panSchema,
    password: passwordSchema.optional(),
    identity: z.strictObject({ first_name: nameSchema('First name'), last_name: nameSchema('Last name') }),
    /** Required for a new client; an invitee joins the inviting client and may omit it. */
    client_type: z.enum(CLIENT_TYPES).optional(),
    category: z
      .enum(Object.keys(INDIVIDUAL_CATEGORIES) as [keyof typeof INDIVIDUAL_CATEGORIES])
      .nullable()
      .optional(),
    corporate_identity: z.strictObject({ name: nameSchema('Company name') }).nullable(),
    contact: z.strictObject({ email: emailSchema, mobile: mobileSchema, whatsapp_consent: z.boolean().default(false) }),
    /** Proof that the e-mail was verified: the `verification` from validate-otp (register). */
    verification: z.string().min(1, { error: 'Please verify your email address.' }).max(200),
    /** Invite token when joining an existing client. */
    invite: z.string().max(200).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.auth_mode === 'password' && !value.password)
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required' });
    if (value.invite) return;
    if (!value.client_type) {
      ctx.addIssue({ code: 'custom', path: ['client_type'], message: 'Client type is required.' });
      return;
    }
    const corporate = value.client_type === 'CORP' || value.client_type === 'CORP-P';
    if (corporate && !value.corporate_identity)
      ctx.addIssue({ code: 'custom', path: ['corporate_identity', 'name'], message: 'Company name is required.' });
    if (!corporate && !value.category) ctx.addIssue({ code: 'custom', path: ['category'], message: 'Category is required.' });
  });
export type Registration = z.input<typeof RegistrationSchema>;

export const UserSecurityPreferenceSchema = z.object({ key: z.string(), enabled: z.boolean() });

export const UserAccountSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  status: z.enum(USER_ACCOUNT_STATUSES),
  is_default: z.boolean(),
});

/** The full session user state of spec application §3. */
export const SessionUserSchema = z.object({
  name: z.string(),
  user_info: z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    mobile: z.string().nullable(),
    roles: z.array(z.enum(ROLES)),
    unique_id: z.string(),
    id: z.string(),
    single_screen_waitlist_joined: z.boolean(),
    has_accepted_chat_terms: z.boolean(),
    user_security_preferences: z.array(UserSecurityPreferenceSchema),
    suprsend_subscriber_id: z.string(),
  }),
  user_accounts: z.array(UserAccountSchema),
  permissions: z.array(z.enum(PERMISSIONS)),
  client_id: z.string(),
  client_type: z.enum(CLIENT_TYPES),
  client_tier: z.enum(CLIENT_TIERS),
  allowed_exchanges: z.array(z.enum(EXCHANGES)),
  allowed_reporting_exchanges: z.array(z.enum(EXCHANGES)),
  nsccl_credentials: z.boolean(),
  iccl_credentials: z.boolean(),
  nsccl_name: z.string().nullable(),
  iccl_name: z.string().nullable(),
  is_broker: z.boolean(),
  has_brokers: z.boolean(),
  trades_on_books: z.boolean(),
  rfq_exchanges: z.array(z.enum(EXCHANGES)),
  stp_exchanges: z.array(z.enum(EXCHANGES)),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** Security preferences a user can toggle on the profile page. */
export const SECURITY_PREFERENCES = {
  login_alerts: 'E-mail me on every new sign-in',
  otp_only_login: 'Sign in with a one-time password only',
} as const;
export type SecurityPreferenceKey = keyof typeof SECURITY_PREFERENCES;

export const UpdateProfileSchema = z.strictObject({
  first_name: nameSchema('First name').optional(),
  last_name: nameSchema('Last name').optional(),
  mobile: mobileSchema.optional(),
  /** Proof of a fresh update_profile OTP, required when the mobile changes (step-up, RELIABILITY #13). */
  verification: z.string().max(200).optional(),
});
export const SecurityPreferenceUpdateSchema = z.strictObject({
  key: z.enum(Object.keys(SECURITY_PREFERENCES) as [SecurityPreferenceKey]),
  enabled: z.boolean(),
});
