/**
 * Text the database cannot hold, and JSON the server will not guess at (RELIABILITY #21, #25, #39).
 * PostgreSQL text and jsonb refuse the NUL character, and jsonb refuses a lone UTF-16 surrogate
 * (`"\ud800"`: half of a pair, not a character): either would fail deep in a query as a 500. The
 * HTTP input guard and the chat socket's frame schema check every string value and every object key
 * with `findBadText` before anything else runs, and answer 400 naming the field.
 */

export const TEXT_MESSAGES = {
  nul: 'Text cannot contain the NUL character.',
  /** A lone surrogate: what a client sends after cutting an emoji (or other non-BMP character) in half. */
  illFormed: 'Text contains an incomplete character (a lone UTF-16 surrogate). Re-enter it.',
  /** `{"quantum":5,"quantum":7}`: which one was meant is unknowable, so neither is taken. */
  duplicateKey: 'This field appears more than once in the request body.',
  /** `__proto__`, or `prototype` under `constructor`: prototype-pollution keys. */
  forbiddenKey: 'This field name is not allowed.',
} as const;

/** True when the string is well-formed UTF-16: every surrogate is half of a pair. */
export function isWellFormedText(value: string): boolean {
  return (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** The message for a string the database cannot hold, or null when it is clean. */
export function badTextMessage(value: string): string | null {
  if (value.includes('\u0000')) return TEXT_MESSAGES.nul;
  if (!isWellFormedText(value)) return TEXT_MESSAGES.illFormed;
  return null;
}

export interface BadText {
  /** Dotted path of the field (`oto_participant_details.name`, `legs.1.isin`); a bad key names its parent object. */
  path: string;
  message: string;
}

const MAX_DEPTH = 64;
const ROOT = 'non_field_errors';

/**
 * The first string value or object key (depth-first, in key order) holding a NUL or a lone surrogate.
 * A bad value is named by its own path; a bad key by the path of the object holding it (the key itself
 * cannot be shown back). Raw bytes (Buffers, typed arrays) are not text and are skipped.
 */
export function findBadText(value: unknown, path = '', depth = 0): BadText | null {
  if (typeof value === 'string') {
    const message = badTextMessage(value);
    return message ? { path: path || ROOT, message } : null;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findBadText(value[index], path ? `${path}.${index}` : String(index), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const message = badTextMessage(key);
    if (message) return { path: path || ROOT, message };
    const found = findBadText((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}
