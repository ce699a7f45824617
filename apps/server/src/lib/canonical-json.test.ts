import { describe, expect, it } from 'vitest';
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
