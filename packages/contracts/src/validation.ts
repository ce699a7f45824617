/**
 * Field rules of spec trading-domain §5 with the spec's exact messages. The server validates
 * every request with these; the web forms use the same schemas.
 */
import { z } from 'zod';

export const MESSAGES = {
  required: 'This field is required',
  shouldBeNumber: 'Should be number',
  cannotBeNegative: 'Cannot be negative',
  yieldAbove100: 'Yield above 100%',
  priceBelow250: 'Should be less than 250',
  max12Digits: 'Max 12 digits',
  cannotBeZero: 'Cannot be zero',
  otpRequired: 'OTP is required',
  otpSixDigits: 'Must be 6 digits',
  pan: 'Please enter a valid PAN (10 Digits).',
  mobile: 'Please enter a valid Phone number.',
  email: 'Please enter a valid email address.',
  pincode: 'Please enter a valid Pincode',
  accountNumber: 'Account number should have at least 10 digits.',
  ifsc: 'Please enter a valid IFSC Code (11 Digits).',
  gst: 'Please enter a valid GST Registration Number.',
  boId: 'BO ID should have exactly 16 digits.',
  dpId: 'DP ID should have exactly 8 digits.',
  clientId: 'Client Id should have exactly 8 digits.',
  time: 'Please enter valid time in HH:MM 24-hour format',
  tradeTimeLater: 'Trade time cannot be later than the current time.',
  nameSpecialCharacters: 'Should not contain special characters.',
  businessEmailInvalid: 'Enter a valid email ID',
  businessEmailPersonal: 'Enter a valid business email',
  yieldRequired: 'Yield is required',
  priceRequired: 'Price is required',
  bothPriceAndYield: 'Cannot provide both price and yield',
  bothSettlementDateAndDelta: 'Cannot provide both settlement date and settlement delta',
} as const;

/** `{label} is required.` (spec §5, name rule). */
export const requiredLabel = (label: string): string => `${label} is required.`;

export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
export const MOBILE_PATTERN = /^(?:\+91|91)?[6-9][0-9]{9}$/;
export const IFSC_PATTERN = /^[A-Z0-9]{4}0[A-Z0-9]{6}$/;
/** GSTIN: 2-digit state, PAN, entity number, 'Z', checksum character. */
export const GST_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
export const TIME_PATTERN = /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/;
/** Letters, spaces and the punctuation real names carry (. ' -); nothing else. */
export const NAME_PATTERN = /^[\p{L}][\p{L} .'-]*$/u;
export const PERSONAL_EMAIL_DOMAINS = ['gmail', 'yahoo', 'outlook', 'hotmail', 'aol'] as const;

export const panSchema = z.string({ error: MESSAGES.pan }).trim().toUpperCase().regex(PAN_PATTERN, { error: MESSAGES.pan });

/** Mobile numbers are normalised to their 10 digits after validation. */
export const mobileSchema = z
  .string({ error: MESSAGES.mobile })
  .trim()
  .regex(MOBILE_PATTERN, { error: MESSAGES.mobile })
  .transform((value) => value.slice(-10));

export const emailSchema = z
  .string({ error: MESSAGES.email })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: MESSAGES.email }));

export function isPersonalEmail(email: string): boolean {
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  return PERSONAL_EMAIL_DOMAINS.some((name) => domain === `${name}.com` || domain.startsWith(`${name}.`));
}

export const businessEmailSchema = z
  .string({ error: MESSAGES.businessEmailInvalid })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: MESSAGES.businessEmailInvalid }))
  .refine((email) => !isPersonalEmail(email), { error: MESSAGES.businessEmailPersonal });

export const nameSchema = (label: string) =>
  z
    .string({ error: requiredLabel(label) })
    .trim()
    .min(1, { error: requiredLabel(label), abort: true })
    .max(100)
    .regex(NAME_PATTERN, { error: MESSAGES.nameSpecialCharacters });

export const loginOtpSchema = z
  .string({ error: MESSAGES.otpRequired })
  .trim()
  .min(1, { error: MESSAGES.otpRequired, abort: true })
  .regex(/^[0-9]{6}$/, { error: MESSAGES.otpSixDigits });

export const pincodeSchema = z.string().regex(/^[0-9]{6}$/, { error: MESSAGES.pincode });
export const accountNumberSchema = z.string().regex(/^[0-9]{10,18}$/, { error: MESSAGES.accountNumber });
export const ifscSchema = z.string().toUpperCase().regex(IFSC_PATTERN, { error: MESSAGES.ifsc });
export const gstSchema = z.string().toUpperCase().regex(GST_PATTERN, { error: MESSAGES.gst });
export const boIdSchema = z.string().regex(/^[0-9]{16}$/, { error: MESSAGES.boId });
export const dpIdSchema = z.string().regex(/^[0-9A-Z]{8}$/, { error: MESSAGES.dpId });
export const clientIdSchema = z.string().regex(/^[0-9]{8}$/, { error: MESSAGES.clientId });
export const timeSchema = z.string().regex(TIME_PATTERN, { error: MESSAGES.time });

/** A numeric form field: accepts a number or a numeric string, with the spec's messages. */
function numericField() {
  return z.union([z.number(), z.string()], { error: MESSAGES.required }).transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: MESSAGES.required });
      return z.NEVER;
    }
    const parsed = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(parsed)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.shouldBeNumber });
      return z.NEVER;
    }
    return parsed;
  });
}

/** Yield in percent as typed by a user: min 0, up to 7 characters, max 100. */
export const yieldFieldSchema = numericField()
  .refine((v) => v >= 0, { error: MESSAGES.cannotBeNegative, abort: true })
  .refine((v) => v <= 100, { error: MESSAGES.yieldAbove100 })
  .refine((v) => String(v).length <= 7, { error: 'Up to 7 characters' });

/** Clean price per 100 as typed by a user: min 0, max 250. */
export const priceFieldSchema = numericField()
  .refine((v) => v >= 0, { error: MESSAGES.cannotBeNegative, abort: true })
  .refine((v) => v <= 250, { error: MESSAGES.priceBelow250 });

/** Quantum: min 0, not zero, max 12 digits. */
export const quantumFieldSchema = numericField()
  .refine((v) => v >= 0, { error: MESSAGES.cannotBeNegative, abort: true })
  .refine((v) => v !== 0, { error: MESSAGES.cannotBeZero, abort: true })
  .refine((v) => Math.trunc(v).toString().length <= 12, { error: MESSAGES.max12Digits });

/**
 * Password rule (the spec does not state one): at least 8 characters with a letter and a digit,
 * at most 128. Documented in README decisions.
 */
export const PASSWORD_MESSAGE = 'Password must be at least 8 characters with a letter and a number.';
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGE })
  .min(8, { error: PASSWORD_MESSAGE })
  .max(128, { error: 'Password must be at most 128 characters.' })
  .regex(/[A-Za-z]/, { error: PASSWORD_MESSAGE })
  .regex(/[0-9]/, { error: PASSWORD_MESSAGE });
