import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime } from './format';

describe('display formats', () => {
  it('writes dates as mm/dd/yy (spec §9)', () => {
    expect(formatDate(new Date(2026, 0, 5))).toBe('01/05/26');
    expect(formatDateTime(new Date(2026, 10, 22, 9, 3, 7))).toBe('11/22/26 09:03:07');
  });

  it('groups counts the Indian way', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
  });

  it('leaves unparseable input as it is', () => {
    expect(formatDate('not a date')).toBe('not a date');
  });
});
