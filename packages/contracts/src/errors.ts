import { z } from 'zod';

/** Domain error codes; the server maps each to one HTTP status in one place. */
export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_OTP: 401,
  REFRESH_TOKEN_REUSED: 401,
  PREMIUM_REQUIRED: 402,
  FORBIDDEN: 403,
  VIEW_ONLY: 403,
  TENANT_MISMATCH: 403,
  /** Chat is blocked until the user accepts the chat terms (spec §7 `PATCH api/client/chat-terms/`). */
  CHAT_TERMS_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVITE_INVALID: 410,
  OTP_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** `{ code, message, errors: { field: [messages] } }`: the one 4xx body shape. */
export const ErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The only text a 5xx body carries. */
export const INTERNAL_ERROR_MESSAGE = 'Internal Server Error';

/** The first field error, as the web shows it (spec): else the message. */
export function firstErrorMessage(body: ErrorBody): string {
  const fields = body.errors ? Object.values(body.errors) : [];
  for (const messages of fields) if (messages[0]) return messages[0];
  return body.message;
}
