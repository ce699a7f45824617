import { TEXT_MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonKeyError, parseStrictJson, safeParseJsonFrame } from './strict-json';

/** The refused key's dotted path and message, or null when the text parses. */
function refusal(text: string): { path: string; message: string } | null {
  try {
    parseStrictJson(text);
    return null;
  } catch (error) {
    if (error instanceof JsonKeyError) return { path: error.path, message: error.message };
    throw error;
  }
}

describe('parseStrictJson', () => {
  it('parses what JSON.parse parses when every key is unique', () => {
    const text = '{"a":1,"b":{"a":2,"c":[{"a":3},{"a":4}]},"s":"x,y}{\\"a\\":1","n":null,"e":[]}';
    expect(parseStrictJson(text)).toEqual(JSON.parse(text));
    for (const scalar of ['1', '"text"', 'null', 'true', '[1,"a",[2]]', ' {} ', '[{},{}]'])
      expect(parseStrictJson(scalar)).toEqual(JSON.parse(scalar));
  });

  it('refuses a duplicate key at the top level with its name', () => {
    expect(refusal('{"quantum":5,"quantum":7}')).toEqual({ path: 'quantum', message: TEXT_MESSAGES.duplicateKey });
  });

  it('refuses duplicates at any depth, naming the path through objects and array indexes', () => {
    expect(refusal('{"a":{"b":{"c":1,"c":2}}}')?.path).toBe('a.b.c');
    expect(refusal('{"legs":[{"isin":"A"},{"isin":"B","isin":"C"}]}')?.path).toBe('legs.1.isin');
    expect(refusal('[{"x":1},[0,{"y":1,"y":2}]]')?.path).toBe('1.1.y');
  });

  it('compares decoded keys: an escaped spelling of the same key is the same key', () => {
    expect(refusal('{"quantum":5,"\\u0071uantum":7}')?.path).toBe('quantum');
    expect(refusal('{"a\\"b":1,"a\\u0022b":2}')?.path).toBe('a"b');
    expect(refusal('{"a\\\\":1,"a\\u005c":2}')?.path).toBe('a\\');
    // Different decoded keys are different keys.
    expect(refusal('{"a\\\\":1,"a":2}')).toBeNull();
  });

  it('is not fooled by braces, quotes, commas and colons inside strings', () => {
    expect(refusal('{"s":"{\\"quantum\\":1,\\"quantum\\":2}","quantum":1}')).toBeNull();
    expect(refusal('{"k":"\\\\","k2":"}","k3":"]"}')).toBeNull();
    expect(refusal('{"k":"\\\\\\"","k":1}')?.path).toBe('k');
    expect(refusal('{"x":["a,b","c"],"y":"\\"x\\":"}')).toBeNull();
  });

  it('keeps keys per object: the same key in sibling objects and in arrays of objects is fine', () => {
    expect(refusal('{"a":{"id":1},"b":{"id":1},"list":[{"id":1},{"id":2}],"id":3}')).toBeNull();
    expect(refusal('[{"id":1,"n":[{"id":2}]},{"id":3}]')).toBeNull();
  });

  it('refuses prototype-pollution keys, escaped or not', () => {
    expect(refusal('{"__proto__":{"polluted":true}}')).toEqual({ path: '__proto__', message: TEXT_MESSAGES.forbiddenKey });
    expect(refusal('{"a":{"\\u005f_proto__":1}}')?.path).toBe('a.__proto__');
    expect(refusal('{"constructor":{"prototype":{"polluted":true}}}')?.path).toBe('constructor.prototype');
    // Either name alone, elsewhere, is an ordinary key.
    expect(refusal('{"constructor":"x","prototype":{"constructor":1}}')).toBeNull();
  });

  it('throws SyntaxError for text that is not JSON, before looking at keys', () => {
    expect(() => parseStrictJson('{"a":1,"a":')).toThrow(SyntaxError);
    expect(() => parseStrictJson('')).toThrow(SyntaxError);
  });

  it('scans large and deeply nested bodies linearly', () => {
    const big = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row "${i}" {x}`, tags: ['a', 'b'] })) });
    const started = performance.now();
    expect((parseStrictJson(big) as { rows: unknown[] }).rows).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    const deep = '{"a":' + '['.repeat(5_000) + ']'.repeat(5_000) + ',"a":1}';
    expect(refusal(deep)?.path).toBe('a');
  });
});

describe('safeParseJsonFrame', () => {
  const Frame = z.strictObject({ type: z.literal('ping'), n: z.number().optional() });
  it('parses a frame through the schema', () => {
    expect(safeParseJsonFrame(Frame, '{"type":"ping","n":1}')).toMatchObject({ success: true, data: { type: 'ping', n: 1 } });
    expect(safeParseJsonFrame(Frame, '{"type":"pong"}').success).toBe(false);
  });
  it('fails a frame with a duplicate key at the key, and throws on text that is not JSON', () => {
    const result = safeParseJsonFrame(Frame, '{"type":"ping","n":1,"n":2}');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['n'], message: TEXT_MESSAGES.duplicateKey });
    expect(() => safeParseJsonFrame(Frame, '{"type":')).toThrow(SyntaxError);
  });
});
