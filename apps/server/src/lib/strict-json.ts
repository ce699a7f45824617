/**
 * Strict JSON (RELIABILITY #21, #25): `JSON.parse`, then one linear scan of the same text that refuses
 * an object key appearing twice in one object (`{"quantum":5,"quantum":7}`: JSON.parse silently keeps
 * the last one, so a proxy, a log reader and the server could each act on a different quantity) and
 * prototype-pollution keys (`__proto__`, `constructor.prototype`). Keys are compared decoded, so
 * `"\u0071uantum"` is the same key as `"quantum"`.
 *
 * The scan assumes text JSON.parse accepted: it only tracks strings (jumping to each closing quote with
 * indexOf), braces, brackets and commas, and keeps one Set of keys per open object. No recursion, so
 * nesting depth costs no stack. Used by the HTTP body parser and by both WebSocket gateways.
 */
import { TEXT_MESSAGES } from '@dart/contracts';
import { z } from 'zod';

/** A key the server refuses: `segments` is the path of the offending key (object keys and array indexes). */
export class JsonKeyError extends Error {
  constructor(
    readonly segments: Array<string | number>,
    message: string,
  ) {
    super(message);
    this.name = 'JsonKeyError';
  }
  /** Dotted field path, as field errors name fields (`legs.1.isin`). */
  get path(): string {
    return this.segments.join('.') || 'non_field_errors';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

interface Frame {
  /** Keys seen so far; null for an array. */
  keys: Set<string> | null;
  /** The current key (objects) or index (arrays): this frame's path segment for anything nested. */
  at: string | number;
  /** This object is the value of a `constructor` key: a `prototype` key in it is refused. */
  underConstructor: boolean;
}

/** Index of the quote closing the string whose opening quote is at `open`. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    if (close < 0) throw new SyntaxError('Unterminated string in JSON');
    let backslashes = 0;
    for (let i = close - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
    // An odd run of backslashes escapes this quote.
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
}

function pathTo(stack: Frame[], key: string): Array<string | number> {
  const segments: Array<string | number> = [];
  for (let i = 0; i < stack.length - 1; i++) segments.push(stack[i]!.at);
  segments.push(key);
  return segments;
}

/** Throws JsonKeyError at the first duplicate or forbidden key of (valid) JSON text. */
export function assertStrictKeys(text: string): void {
  // No object, nothing to check (numbers, strings, arrays of scalars).
  if (!text.includes('{')) return;
  const stack: Frame[] = [];
  let expectKey = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) throw new JsonKeyError(pathTo(stack, key), TEXT_MESSAGES.duplicateKey);
        if (key === '__proto__' || (key === 'prototype' && top.underConstructor))
          throw new JsonKeyError(pathTo(stack, key), TEXT_MESSAGES.forbiddenKey);
        top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_BRACE) {
      const parent = stack[stack.length - 1];
      stack.push({
        keys: new Set(),
        at: '',
        underConstructor: parent !== undefined && parent.keys !== null && parent.at === 'constructor',
      });
      expectKey = true;
    } else if (c === OPEN_BRACKET) {
      stack.push({ keys: null, at: 0, underConstructor: false });
      expectKey = false;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
      expectKey = false;
    } else if (c === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
}

/** JSON.parse that also refuses duplicate and prototype-pollution keys (JsonKeyError); SyntaxError as JSON.parse. */
export function parseStrictJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  assertStrictKeys(text);
  return value;
}

/**
 * A WebSocket frame: strict JSON, then the schema. A refused key comes back as a failed parse with the
 * key's path (as the schema's own issues do); text that is not JSON throws, as JSON.parse does.
 */
export function safeParseJsonFrame<T extends z.ZodType>(schema: T, text: string): z.ZodSafeParseResult<z.output<T>> {
  let value: unknown;
  try {
    value = parseStrictJson(text);
  } catch (error) {
    if (!(error instanceof JsonKeyError)) throw error;
    return {
      success: false,
      error: new z.ZodError([{ code: 'custom', path: error.segments, message: error.message, input: undefined }]) as z.ZodError<
        z.output<T>
      >,
    };
  }
  return schema.safeParse(value) as z.ZodSafeParseResult<z.output<T>>;
}
