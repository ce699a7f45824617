/**
 * Structured logs (pino) with request ids. Secrets never reach the log: headers carrying tokens or
 * cookies and any body field named like a secret are redacted (RELIABILITY #6, #11).
 */
import pino, { type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.new_password1',
  '*.new_password2',
  '*.otp',
  '*.token',
  '*.refresh',
  '*.access',
  '*.verification',
];

/** A thrown value's message (anything may be thrown: a non-Error is its own text). */
export const errorMessage = (error: unknown): string => String((error as Error)?.message ?? error);

/** A failure as a warning's fields: its message alone, under `err`. */
export const errorFields = (error: unknown) => ({ err: { message: errorMessage(error) } });

/** Drops the query string and masks path segments that are secrets (invite tokens). */
export function redactUrl(url: string): string {
  return (url.split('?')[0] ?? '').replace(/^(\/api\/invites\/)[^/]+/, '$1[redacted]');
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: {
        // Log the path without the query string: queries may carry invite or reset tokens.
        req: (req: { method: string; url: string; id: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          id: req.id,
          ip: req.ip,
        }),
      },
    },
    destination,
  );
}
