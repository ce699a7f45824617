import { describe, expect, it } from 'vitest';
import { describeFaceValueText } from './face-value-text';

describe('a size typed in a ticket (issue 12 §1)', () => {
  it('reads lakh/crore shorthand as face value and shows the bond count', () => {
    expect(describeFaceValueText('5cr', 100)).toEqual({ kind: 'read', rupees: 50_000_000, text: '₹5 Cr · 5,00,000 bonds' });
    expect(describeFaceValueText('50 L')).toEqual({ kind: 'read', rupees: 5_000_000, text: '₹50 L' });
    expect(describeFaceValueText('  ')).toEqual({ kind: 'empty' });
  });

  it('refuses part of a bond at once, and only hints while the text may still become a size', () => {
    expect(describeFaceValueText('1.5L', 100_000)).toEqual({
      kind: 'refused',
      message: 'Must be a whole number of bonds (₹1 L each)',
      blocking: true,
    });
    expect(describeFaceValueText('0')).toMatchObject({ message: 'Cannot be zero', blocking: true });
    expect(describeFaceValueText('5 cro')).toMatchObject({ kind: 'refused', blocking: false });
  });
});
