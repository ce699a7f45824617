import { describe, expect, it } from 'vitest';
import { formatDateDefault, formatIndianNumber, formatRupees, formatRupeesCompact } from './format';

describe('Indian number formatting', () => {
  it('groups digits in lakhs and crores', () => {
    expect(formatIndianNumber(123456789.5)).toBe('12,34,56,789.50');
    expect(formatRupees(100000)).toBe('₹1,00,000.00');
  });
  it('abbreviates to lakh and crore', () => {
    expect(formatRupeesCompact(12_500_000)).toBe('₹1.25 Cr');
    expect(formatRupeesCompact(5_000_000)).toBe('₹50.00 L');
    expect(formatRupeesCompact(999)).toBe('₹999.00');
  });
  it('formats dates as mm/dd/yy', () => {
    expect(formatDateDefault('2026-11-22')).toBe('11/22/26');
    expect(formatDateDefault('2026-01-05T10:00:00Z')).toBe('01/05/26');
  });
});
