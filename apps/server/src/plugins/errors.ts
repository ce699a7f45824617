/**
 * The one error handler: 4xx → `{ code, message, errors }`; 5xx → only 'Internal Server Error'.
 * Domain codes map to statuses here and nowhere else.
 */
import { INTERNAL_ERROR_MESSAGE, type ErrorBody } from '@dart/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client';
import { AppError } from '../lib/errors';

const UNKNOWN_FIELD = 'Unknown field.';

/** Turns zod issues (as fastify-type-provider-zod reports them) into `errors: { field: [msgs] }`. */
function fieldErrorsFrom(
  validation: Array<{ instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }>,
): Record<string, string[]> {
  // A Map, not an object literal: field names come from the request ('toString', '__proto__').
  const errors = new Map<string, string[]>();
  const add = (field: string, message: string) => {
    const messages = errors.get(field);
    if (messages) messages.push(message);
    else errors.set(field, [message]);
  };
  for (const issue of validation) {
    const base = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params.keys)) {
      for (const key of issue.params.keys as string[]) add(base ? `${base}.${key}` : key, UNKNOWN_FIELD);
    } else add(base || 'non_field_errors', issue.message ?? 'Invalid value.');
  }
  return Object.fromEntries(errors);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'domain error');
      if (error.headers) void reply.headers(error.headers);
      const body: ErrorBody = { code: error.code, message: error.message, ...(error.fieldErrors ? { errors: error.fieldErrors } : {}) };
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = fieldErrorsFrom(error.validation);
      // Mass-assignment attempts are logged (RELIABILITY #16, #37).
      if (error.validation.some((v) => v.keyword === 'unrecognized_keys'))
        request.log.warn({ fields: Object.keys(errors), context: error.validationContext }, 'rejected unknown fields');
      const first = Object.values(errors)[0]?.[0] ?? 'Invalid request.';
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: first, errors } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: { message: error.message } }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable.' } satisfies ErrorBody);
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'RATE_LIMITED'
              : status === 404
                ? 'NOT_FOUND'
                : 'BAD_REQUEST';
      // Fastify's own messages (bad JSON, empty body, content type) are safe to show.
      return reply.status(status).send({ code, message: error.message } satisfies ErrorBody);
    }
    if (status === 503)
      return reply.status(503).send({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable.' } satisfies ErrorBody);
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: INTERNAL_ERROR_MESSAGE } satisfies ErrorBody);
  });
}
