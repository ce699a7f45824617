import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FACE_VALUE_PER_BOND,
  FACE_VALUE_MESSAGES,
  QUANTUM_MAX_RUPEES,
  bondCount,
  checkFaceValue,
  faceValuePerBond,
  formatBondCount,
  formatFaceValue,
  formatSizeWithBonds,
  isWholeBonds,
  parseFaceValue,
  quantumError,
} from './face-value';

describe('parseFaceValue reads lakh/crore shorthand as rupees of face value', () => {
  it.each([
    ['5cr', 50_000_000],
    ['5 Cr', 50_000_000],
    ['5 crore', 50_000_000],
    ['5 CRORES', 50_000_000],
    ['50L', 5_000_000],
    ['50 lakh', 5_000_000],
    ['50 lakhs', 5_000_000],
    ['50 lac', 5_000_000],
    ['2.5cr', 25_000_000],
    ['0.5 cr', 5_000_000],
    ['.5cr', 5_000_000],
    ['1.25 L', 125_000],
    ['10k', 10_000],
    ['5,00,00,000', 50_000_000],
    ['50,000,000', 50_000_000],
    ['500000000', 500_000_000],
    ['₹5 Cr', 50_000_000],
    ['₹ 50L', 5_000_000],
    ['Rs. 50 L', 5_000_000],
    ['INR 1cr', 10_000_000],
    ['  75,000  ', 75_000],
    ['5000.00', 5_000],
    ['1,000 cr', 10_000_000_000],
    ['99999.99999cr', 999_999_999_900],
  ])('%s is ₹%d', (text, rupees) => {
    expect(parseFaceValue(text)).toBe(rupees);
  });

  it.each(['', 'abc', '5x', '5m', '5 mn', '1bn', 'cr', '5 cr cr', '5,0,0', '1,00,0000', '5..5', '--5', '5e7', 'NaN', 'Infinity'])(
    'refuses garbage %j',
    (text) => {
      expect(parseFaceValue(text)).toBeNull();
    },
  );

  it('refuses negative, zero, fractional-rupee and over-12-digit sizes', () => {
    expect(parseFaceValue('-5cr')).toBeNull();
    expect(parseFaceValue('0')).toBeNull();
    expect(parseFaceValue('0 cr')).toBeNull();
    expect(parseFaceValue('100.50')).toBeNull();
    expect(parseFaceValue('1.234567891cr')).toBeNull();
    expect(parseFaceValue('1,00,000 cr')).toBeNull();
    expect(parseFaceValue('1000000000000')).toBeNull();
  });

  it('takes a number as rupees', () => {
    expect(parseFaceValue(50_000_000)).toBe(50_000_000);
    expect(parseFaceValue(0.5)).toBeNull();
    expect(parseFaceValue(-100)).toBeNull();
    expect(parseFaceValue(Number.NaN)).toBeNull();
  });
});

describe('checkFaceValue gives the spec message for each refusal', () => {
  it('uses the §5 quantum messages', () => {
    expect(checkFaceValue('')).toEqual({ ok: false, message: 'This field is required' });
    expect(checkFaceValue(undefined)).toEqual({ ok: false, message: 'This field is required' });
    expect(checkFaceValue('-5cr')).toEqual({ ok: false, message: 'Cannot be negative' });
    expect(checkFaceValue('0L')).toEqual({ ok: false, message: 'Cannot be zero' });
    expect(checkFaceValue('1,00,000cr')).toEqual({ ok: false, message: 'Max 12 digits' });
    expect(checkFaceValue('five crore')).toEqual({ ok: false, message: FACE_VALUE_MESSAGES.unreadable });
    expect(checkFaceValue('100.5')).toEqual({ ok: false, message: 'Should be a whole number of rupees' });
  });

  it('refuses a size that is not a whole number of bonds, naming the bond size', () => {
    expect(checkFaceValue('1.5L', 100_000)).toEqual({ ok: false, message: 'Must be a whole number of bonds (₹1 L each)' });
    expect(checkFaceValue('5cr', 10_000_000)).toEqual({ ok: true, rupees: 50_000_000 });
    expect(checkFaceValue('1,500', 100)).toEqual({ ok: true, rupees: 1_500 });
    expect(checkFaceValue('150', 100)).toEqual({ ok: false, message: 'Must be a whole number of bonds (₹100 each)' });
    expect(checkFaceValue('150.5', 100)).toEqual({ ok: false, message: 'Must be a whole number of bonds (₹100 each)' });
    expect(checkFaceValue('5,050', 100)).toEqual({ ok: false, message: 'Must be a whole number of bonds (₹100 each)' });
  });
});

describe('quantumError checks a wire quantum', () => {
  it('follows the spec order and the whole-bond rule', () => {
    expect(quantumError(-1)).toBe('Cannot be negative');
    expect(quantumError(0)).toBe('Cannot be zero');
    expect(quantumError(QUANTUM_MAX_RUPEES + 1)).toBe('Max 12 digits');
    expect(quantumError(QUANTUM_MAX_RUPEES)).toBeNull();
    expect(quantumError(10.5)).toBe('Should be a whole number of rupees');
    expect(quantumError(150_000, 100_000)).toBe('Must be a whole number of bonds (₹1 L each)');
    expect(quantumError(200_000, 100_000)).toBeNull();
    expect(quantumError(Number.NaN)).toBe('Should be number');
  });
});

describe('faceValuePerBond', () => {
  it('is ₹100 for G-secs, SDLs and T-bills whatever the data says', () => {
    expect(faceValuePerBond({ security_type: 'G-Sec', face_value: 10_000 })).toBe(100);
    expect(faceValuePerBond({ security_type: 'SDL', face_value: null })).toBe(100);
    expect(faceValuePerBond({ security_type: 'T-Bill' })).toBe(100);
  });
  it("is the bond's own face value for NCDs, CPs and CDs", () => {
    expect(faceValuePerBond({ security_type: 'Bond/NCD', face_value: 100_000 })).toBe(100_000);
    expect(faceValuePerBond({ security_type: 'Commercial Paper', face_value: 500_000 })).toBe(500_000);
    expect(faceValuePerBond({ security_type: 'Bond/NCD', face_value: 10_000_000 })).toBe(10_000_000);
  });
  it('falls back to ₹100 when the face value is missing or not positive', () => {
    expect(faceValuePerBond({ security_type: 'SGB', face_value: null })).toBe(DEFAULT_FACE_VALUE_PER_BOND);
    expect(faceValuePerBond({ security_type: 'Bond/NCD', face_value: 0 })).toBe(100);
    expect(faceValuePerBond({})).toBe(100);
  });
});

describe('formatting', () => {
  it.each([
    [50_000_000, '₹5 Cr'],
    [25_000_000, '₹2.5 Cr'],
    [12_500_000, '₹1.25 Cr'],
    [10_000_000_000, '₹1,000 Cr'],
    [5_000_000, '₹50 L'],
    [150_000, '₹1.5 L'],
    [100_000, '₹1 L'],
    [75_000, '₹75,000'],
    [100, '₹100'],
    [99_999_999, '₹9.99 Cr'],
    [9_999_999, '₹99.99 L'],
    [0, '₹0'],
    [-50_000_000, '-₹5 Cr'],
  ])('formatFaceValue(%d) is %s', (rupees, text) => {
    expect(formatFaceValue(rupees)).toBe(text);
  });

  it('counts bonds with Indian grouping', () => {
    expect(bondCount(50_000_000, 100)).toBe(500_000);
    expect(formatBondCount(500_000)).toBe('5,00,000 bonds');
    expect(formatBondCount(1)).toBe('1 bond');
    expect(formatBondCount(1.5)).toBe('1.5 bonds');
    expect(formatSizeWithBonds(50_000_000, 100)).toBe('₹5 Cr · 5,00,000 bonds');
    expect(isWholeBonds(300_000, 100_000)).toBe(true);
    expect(isWholeBonds(150_000, 100_000)).toBe(false);
    expect(isWholeBonds(0, 100)).toBe(false);
  });
});

describe('properties', () => {
  const quantum = fc.integer({ min: 1, max: QUANTUM_MAX_RUPEES });

  it('parses its own plain and Indian-grouped output back to the same rupees', () => {
    fc.assert(
      fc.property(quantum, (rupees) => {
        expect(parseFaceValue(String(rupees))).toBe(rupees);
        expect(parseFaceValue(new Intl.NumberFormat('en-IN').format(rupees))).toBe(rupees);
        expect(parseFaceValue(`₹${new Intl.NumberFormat('en-US').format(rupees)}`)).toBe(rupees);
      }),
    );
  });

  it('reads crore and lakh shorthand exactly (no binary rounding)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999 }), (hundredths) => {
        const text = `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
        expect(parseFaceValue(`${text}cr`)).toBe(hundredths * 100_000);
        expect(parseFaceValue(`${text} L`)).toBe(hundredths * 1_000);
      }),
    );
  });

  it('a formatted size parses back to within its 2-decimal cut, never above it', () => {
    fc.assert(
      fc.property(quantum, (rupees) => {
        const parsed = parseFaceValue(formatFaceValue(rupees));
        expect(parsed).not.toBeNull();
        expect(parsed!).toBeLessThanOrEqual(rupees);
        expect(rupees - parsed!).toBeLessThan(rupees >= 1e7 ? 1e5 : rupees >= 1e5 ? 1e3 : 1);
      }),
    );
  });

  it('whole multiples of a bond pass and anything else is refused', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(100, 1_000, 100_000, 500_000, 1_000_000, 10_000_000),
        fc.integer({ min: 1, max: 99_999 }),
        (perBond, bonds) => {
          expect(quantumError(perBond * bonds, perBond)).toBeNull();
          expect(quantumError(perBond * bonds + 1, perBond)).toBe(FACE_VALUE_MESSAGES.wholeBonds(perBond));
        },
      ),
    );
  });
});
