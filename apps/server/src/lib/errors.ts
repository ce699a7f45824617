/** Domain errors carry a code; the HTTP edge maps codes to statuses once (plugins/errors.ts). */
import { ERROR_CODES, type ErrorCode } from '@dart/contracts';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(code: ErrorCode, message: string, fieldErrors?: Record<string, string[]>, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.headers = headers;
  }
  get status(): number {
    return ERROR_CODES[this.code];
  }
}

/** A validation failure on one field, with the spec's message. */
export const fieldError = (field: string, message: string): AppError => new AppError('VALIDATION_FAILED', message, { [field]: [message] });
