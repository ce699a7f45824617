/**
 * PostgreSQL text and jsonb cannot hold the NUL character: a string with one would fail deep in a
 * query as a 500. Every JSON body, query and path parameter is checked once, before validation, and
 * a NUL anywhere is a 400 naming the field (RELIABILITY #21, #39). Raw uploads (Buffers) are bytes,
 * not text, and are checked by their own parsers.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

export const NUL_MESSAGE = 'Text cannot contain the NUL character.';
const MAX_DEPTH = 64;

/** The dotted path of the first string (key or value) holding a NUL, or null. */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'non_field_errors' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, path ? `${path}.${index}` : String(index), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key.replaceAll('\u0000', '')}` : key.replaceAll('\u0000', '');
    if (key.includes('\u0000')) return here || 'non_field_errors';
    const found = findNul(item, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = findNul(request.params) ?? findNul(request.query) ?? findNul(request.body);
    if (field) throw new AppError('VALIDATION_FAILED', NUL_MESSAGE, { [field]: [NUL_MESSAGE] });
  });
}
