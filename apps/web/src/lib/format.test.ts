import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatPrice, formatQuantum, formatYield } from './format';

describe('display formats', () => {
  it('writes dates as mm/dd/yy (spec §9)', () => {
    expect(formatDate(new Date(2026, 0, 5))).toBe('01/05/26');
    expect(formatDateTime(new Date(2026, 10, 22, 9, 3, 7))).toBe('11/22/26 09:03:07');
  });

  it('groups counts the Indian way', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
  });

  it('shows yields in % and clean prices with 4 decimals, units with Indian grouping', () => {
    expect(formatYield(0.0791)).toBe('7.9100%');
    expect(formatPrice(99.5)).toBe('99.5000');
    expect(formatQuantum(1500000)).toBe('15,00,000');
    expect(formatYield(null)).toBe('—');
  });

  it('leaves unparseable input as it is', () => {
    expect(formatDate('not a date')).toBe('not a date');
  });
});
