import { describe, expect, it } from 'vitest';
import { findNul } from './input-guard';

describe('findNul', () => {
  it('names the first field whose key or text holds a NUL', () => {
    expect(findNul({ a: 'ok', b: ['x', { c: 'bad\u0000' }] })).toBe('b.1.c');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k');
    expect(findNul('\u0000')).toBe('non_field_errors');
  });
  it('passes clean input, numbers, nulls and raw bytes', () => {
    expect(findNul({ a: 'ok', n: 1, z: null, list: [true, 'é 𝒳'] })).toBeNull();
    expect(findNul(Buffer.from([0, 0, 0]))).toBeNull();
    expect(findNul(undefined)).toBeNull();
  });
});
