import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('gives one text for one value whatever the key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 2, y: 3 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { y: 3, z: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('writes undefined as null, dates as ISO text and bytes as their SHA-256', () => {
    expect(canonicalJson({ a: undefined })).toBe('{"a":null}');
    expect(canonicalJson(new Date('2026-11-25T00:00:00Z'))).toBe('"2026-11-25T00:00:00.000Z"');
    expect(canonicalJson(Buffer.from('abc'))).toBe('"sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"');
  });

  it('escapes keys and strings as JSON does', () => {
    expect(canonicalJson({ 'a"b': 'x\ny' })).toBe('{"a\\"b":"x\\ny"}');
  });
});

/** The first version, kept as the definition: stored audit hashes were made with its text. */
function reference(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Buffer.isBuffer(value)) return `"sha256:${createHash('sha256').update(value).digest('hex')}"`;
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object')
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

describe('canonicalJson against its first version', () => {
  it('writes the same text for 3,000 generated values', () => {
    let seed = 20261129;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keys = ['a', 'b', 'Z', 'é', 'a"b', 'state', 'version', 'price', '10', '2', ''];
    const leaf = (): unknown => {
      const pick = Math.floor(next() * 9);
      if (pick === 0) return null;
      if (pick === 1) return undefined;
      if (pick === 2) return next() < 0.5;
      if (pick === 3) return Math.round(next() * 1e6) / 100;
      if (pick === 4) return `s${Math.floor(next() * 100)}\n"\\\u2028`;
      if (pick === 5) return new Date(Date.UTC(2026, 10, Math.floor(next() * 28) + 1));
      if (pick === 6) return Buffer.from([Math.floor(next() * 256)]);
      if (pick === 7) return Number.NaN;
      return '';
    };
    const value = (depth: number): unknown => {
      const pick = next();
      if (depth > 3 || pick < 0.4) return leaf();
      if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) object[keys[Math.floor(next() * keys.length)]!] = value(depth + 1);
      return object;
    };
    for (let i = 0; i < 3000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });
});
