import { HttpError, TimeoutError } from '@dart/client';
import { firstErrorMessage } from '@dart/contracts';

/** A route-level failure that renders an error page with this status (401, 402, 404, 410, …). */
export class RouteError extends Error {
  readonly status: number;
  readonly path: string | undefined;
  constructor(status: number, path?: string) {
    super(`Route error ${status}`);
    this.name = 'RouteError';
    this.status = status;
    this.path = path;
  }
}

/** The status an error page should show for any thrown value. */
export function statusOf(error: unknown): number {
  if (error instanceof RouteError || error instanceof HttpError) return error.status;
  return 500;
}

/** One human sentence for any failure: the server's first field error, else its message. */
export function describeError(error: unknown): string {
  if (error instanceof HttpError) return firstErrorMessage(error.body);
  if (error instanceof TimeoutError) return 'The request timed out. Please try again.';
  if (error instanceof TypeError) return 'Could not reach Dart. Check your connection and try again.';
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}
