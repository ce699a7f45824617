import { TEXT_MESSAGES, findBadText } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { findBadHeader } from './input-guard';

const NUL = TEXT_MESSAGES.nul;
const HALF = TEXT_MESSAGES.illFormed;

describe('findBadText', () => {
  it('names the first field whose text holds a NUL', () => {
    expect(findBadText({ a: 'ok', b: ['x', { c: 'bad\u0000' }] })).toEqual({ path: 'b.1.c', message: NUL });
    expect(findBadText('\u0000')).toEqual({ path: 'non_field_errors', message: NUL });
  });

  it('names the field holding a lone high or low surrogate, at any depth', () => {
    expect(findBadText({ oto_participant_details: { name: '\ud800' } })).toEqual({ path: 'oto_participant_details.name', message: HALF });
    expect(findBadText({ list: [{ a: 'ok' }, { a: 'x\udc00y' }] })).toEqual({ path: 'list.1.a', message: HALF });
    // A pair cut the other way round is two lone surrogates.
    expect(findBadText({ s: '\udc00\ud800' })?.path).toBe('s');
    expect(findBadText('abc\ud83d')).toEqual({ path: 'non_field_errors', message: HALF });
  });

  it('names the parent object of a bad key (the key itself cannot be shown back)', () => {
    expect(findBadText({ data: { ['k\ud800']: 1 } })).toEqual({ path: 'data', message: HALF });
    expect(findBadText({ ['\udfff']: 1 })).toEqual({ path: 'non_field_errors', message: HALF });
    expect(findBadText({ a: [{ ['k\u0000']: 1 }] })).toEqual({ path: 'a.0', message: NUL });
  });

  it('passes clean input: pairs, emoji, numbers, nulls and raw bytes', () => {
    expect(findBadText({ a: 'ok', n: 1, z: null, list: [true, 'é 𝒳 😀 \ud83d\ude00'], ['😀']: 'key' })).toBeNull();
    expect(findBadText(Buffer.from([0, 0xd8, 0, 0]))).toBeNull();
    expect(findBadText(undefined)).toBeNull();
  });
});

describe('findBadHeader', () => {
  it('names the header holding bad text', () => {
    expect(findBadHeader({ 'user-agent': 'ok', 'idempotency-key': 'a\ud800' })).toEqual({ path: 'idempotency-key', message: HALF });
    expect(findBadHeader({ 'x-request-id': ['a', 'b\u0000'] })).toEqual({ path: 'x-request-id', message: NUL });
    expect(findBadHeader({ ['x-\ud800']: 'v' })).toEqual({ path: 'headers', message: HALF });
    expect(findBadHeader({ host: 'localhost', accept: 'application/json', 'x-empty': undefined })).toBeNull();
  });
});
