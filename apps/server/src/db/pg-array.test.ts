import { describe, expect, it } from 'vitest';
import { pgArray } from './pg-array';

describe('pgArray', () => {
  it('quotes every element and escapes backslashes and double quotes', () => {
    expect(pgArray(['a', 'b c', 'say "hi"', 'back\\slash', ''])).toBe('{"a","b c","say \\"hi\\"","back\\\\slash",""}');
  });

  it('writes null as NULL and numbers as text', () => {
    expect(pgArray([1, null, 2.5])).toBe('{"1",NULL,"2.5"}');
    expect(pgArray([])).toBe('{}');
  });

  it('keeps braces, commas and JSON inside the quotes', () => {
    expect(pgArray(['{"a":[1,2]}', 'x,y'])).toBe('{"{\\"a\\":[1,2]}","x,y"}');
  });

  it('escapes both at once, backslashes first (JSON with an escaped quote inside a string)', () => {
    const json = JSON.stringify({ title: 'He said "yes"', path: 'C:\\x' });
    expect(pgArray([json])).toBe(`{"${json.replace(/[\\"]/g, '\\$&')}"}`);
    expect(pgArray(['\\"'])).toBe('{"\\\\\\""}');
  });
});
