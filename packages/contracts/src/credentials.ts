/**
 * Exchange credentials (issue 14; spec trading-domain §7 "Client and team", "Inventory"; application §2
 * `/exchange-credentials`, role clientopsadmin): the firm's login at each clearing corporation's RFQ
 * platform — NSCCL (NSE Clearing, for NSE RFQs) and ICCL (Indian Clearing Corporation, for BSE RFQs).
 *
 * The spec names the body `participant_code, username, password, corp` and no values. Decided here:
 * - `corp` is the clearing corporation, `NSCCL` or `ICCL` (the same codes as `clearing_corporation` on an RFQ).
 * - `participant_code` is the firm's own participant / member code at that clearing corporation (as the
 *   exchange issued it; letters and digits); `participant_name` (optional, our addition) is the participant
 *   the ops admin picked in the participant search; the session's `nsccl_name` / `iccl_name` become it
 *   (the firm's own name when none was picked).
 * - The password is write-only: no answer ever carries it, nor the username; the status reads
 *   "Set on {date} by {user}".
 */
import { z } from 'zod';
import { CLEARING_CORPORATIONS } from './market';

export type CredentialCorp = (typeof CLEARING_CORPORATIONS)[number];

/** Where each clearing corporation clears: NSCCL for NSE, ICCL for BSE. */
export const CREDENTIAL_CORP_LABELS: Record<CredentialCorp, { exchange: 'NSE' | 'BSE'; name: string }> = {
  NSCCL: { exchange: 'NSE', name: 'NSE Clearing (NSCCL)' },
  ICCL: { exchange: 'BSE', name: 'Indian Clearing Corporation (ICCL)' },
};

export const CREDENTIAL_LIMITS = { participantCode: 20, username: 64, password: 128, participantName: 120, search: 100 } as const;

export const CREDENTIAL_MESSAGES = {
  corp: 'Choose NSCCL (NSE) or ICCL (BSE).',
  participantCodeRequired: 'Enter the participant code.',
  participantCodeFormat: `Participant code: letters, digits, - or _ only, at most ${CREDENTIAL_LIMITS.participantCode}.`,
  usernameRequired: 'Enter the username.',
  usernameTooLong: `Username: at most ${CREDENTIAL_LIMITS.username} characters.`,
  passwordRequired: 'Enter the password.',
  passwordTooLong: `Password: at most ${CREDENTIAL_LIMITS.password} characters.`,
  controlCharacters: 'Remove the control characters (tabs, line breaks).',
  participantNameTooLong: `Participant name: at most ${CREDENTIAL_LIMITS.participantName} characters.`,
  notSet: 'Not set',
  /** The configured key no longer opens a stored record (CREDENTIALS_KEY changed): the ops admin sets them again. */
  keyChanged: 'These credentials were stored under another encryption key. Please set them again.',
  saved: (corp: CredentialCorp) => `${CREDENTIAL_CORP_LABELS[corp].name} credentials saved.`,
  /** Raising an exchange RFQ without the exchange's credentials (market quotes). */
  rfqNeedsCredentials: (corp: CredentialCorp) =>
    `Your firm has no ${CREDENTIAL_CORP_LABELS[corp].name} credentials, so it cannot raise RFQs on ${CREDENTIAL_CORP_LABELS[corp].exchange}. ` +
    'Ask your ops admin to add them under Exchange credentials.',
  /** Accepting a ticket's consideration (which books the trade for reporting) without its clearing corporation's credentials. */
  reportNeedsCredentials: (corp: CredentialCorp) =>
    `Your firm has no ${CREDENTIAL_CORP_LABELS[corp].name} credentials, so it cannot report trades on ${CREDENTIAL_CORP_LABELS[corp].exchange}. ` +
    'Ask your ops admin to add them under Exchange credentials.',
} as const;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export const ExchangeCredentialsSetSchema = z.strictObject({
  corp: z.enum(CLEARING_CORPORATIONS, { error: CREDENTIAL_MESSAGES.corp }),
  participant_code: z
    .string({ error: CREDENTIAL_MESSAGES.participantCodeRequired })
    .trim()
    .min(1, CREDENTIAL_MESSAGES.participantCodeRequired)
    .max(CREDENTIAL_LIMITS.participantCode, CREDENTIAL_MESSAGES.participantCodeFormat)
    .regex(/^[A-Za-z0-9_-]+$/, CREDENTIAL_MESSAGES.participantCodeFormat),
  username: z
    .string({ error: CREDENTIAL_MESSAGES.usernameRequired })
    .trim()
    .min(1, CREDENTIAL_MESSAGES.usernameRequired)
    .max(CREDENTIAL_LIMITS.username, CREDENTIAL_MESSAGES.usernameTooLong)
    .refine((value) => !CONTROL.test(value), CREDENTIAL_MESSAGES.controlCharacters),
  // Not trimmed: a password's spaces are its own.
  password: z
    .string({ error: CREDENTIAL_MESSAGES.passwordRequired })
    .min(1, CREDENTIAL_MESSAGES.passwordRequired)
    .max(CREDENTIAL_LIMITS.password, CREDENTIAL_MESSAGES.passwordTooLong)
    .refine((value) => !CONTROL.test(value), CREDENTIAL_MESSAGES.controlCharacters),
  participant_name: z
    .string()
    .trim()
    .max(CREDENTIAL_LIMITS.participantName, CREDENTIAL_MESSAGES.participantNameTooLong)
    .refine((value) => !CONTROL.test(value), CREDENTIAL_MESSAGES.controlCharacters)
    .nullish(),
});
export type ExchangeCredentialsSet = z.input<typeof ExchangeCredentialsSetSchema>;

/** One clearing corporation's credentials as the API shows them: never the username, never the password. */
export const ExchangeCredentialStatusSchema = z.object({
  corp: z.enum(CLEARING_CORPORATIONS),
  exchange: z.enum(['NSE', 'BSE']),
  clearing_name: z.string(),
  is_set: z.boolean(),
  participant_code: z.string().nullable(),
  participant_name: z.string().nullable(),
  set_at: z.string().nullable(),
  set_by: z.string().nullable(),
  /** "Set on 27 Nov 2026 by Kavita Rao" or "Not set". */
  status: z.string(),
});
export type ExchangeCredentialStatus = z.infer<typeof ExchangeCredentialStatusSchema>;
export const ExchangeCredentialStatusListSchema = z.object({ results: z.array(ExchangeCredentialStatusSchema) });
export type ExchangeCredentialStatusList = z.infer<typeof ExchangeCredentialStatusListSchema>;

/** "Set on 27 Nov 2026 by Kavita Rao" (the date in IST, as the market's days are). */
export function credentialStatusText(setAt: Date | string | null, setBy: string | null): string {
  if (!setAt) return CREDENTIAL_MESSAGES.notSet;
  const date = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(
    new Date(setAt),
  );
  return `Set on ${date} by ${setBy ?? 'an unknown user'}`;
}

export const CREDENTIALS_PATH = '/api/client/credentials/';
export const PARTICIPANT_SEARCH_PATHS: Record<CredentialCorp, string> = {
  NSCCL: '/api/search-nsscl-participants/',
  ICCL: '/api/search-iccl-participants/',
};

/** `search_param` (name or code, any part, case-insensitive) and `ucc_only` (only participants with a known code). */
export const ParticipantSearchQuerySchema = z.strictObject({
  search_param: z.string().trim().max(CREDENTIAL_LIMITS.search).default(''),
  ucc_only: z
    .enum(['true', 'false', '1', '0'], { error: 'ucc_only must be true or false.' })
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});
export type ParticipantSearchQuery = z.input<typeof ParticipantSearchQuerySchema>;

export const ParticipantSchema = z.object({
  name: z.string(),
  /** The participant's code at the clearing corporation; null when the public list does not give it. */
  participant_code: z.string().nullable(),
  /** Which published list it comes from (reference-data/participants/SOURCE.md). */
  source: z.string(),
});
export type Participant = z.infer<typeof ParticipantSchema>;
export const ParticipantListSchema = z.object({ results: z.array(ParticipantSchema) });
export type ParticipantList = z.infer<typeof ParticipantListSchema>;
