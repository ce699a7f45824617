import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  businessEmailSchema,
  emailSchema,
  loginOtpSchema,
  mobileSchema,
  nameSchema,
  panSchema,
  priceFieldSchema,
  quantumFieldSchema,
  yieldFieldSchema,
  ifscSchema,
  gstSchema,
  pincodeSchema,
  timeSchema,
} from './validation';

function firstError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('field rules (spec trading §5)', () => {
  it('accepts a real PAN and rejects a malformed one with the spec message', () => {
    expect(panSchema.parse('aaacr5055k')).toBe('AAACR5055K');
    expect(firstError(panSchema, 'AAACR50555')).toBe('Please enter a valid PAN (10 Digits).');
  });
  it('accepts mobiles with +91 or 91 prefixes starting 6-9', () => {
    expect(mobileSchema.parse('+919876543210')).toBe('9876543210');
    expect(mobileSchema.parse('919876543210')).toBe('9876543210');
    expect(firstError(mobileSchema, '5876543210')).toBe('Please enter a valid Phone number.');
    expect(firstError(mobileSchema, '98765')).toBe('Please enter a valid Phone number.');
  });
  it('validates e-mail and business e-mail', () => {
    expect(firstError(emailSchema, 'not-an-email')).toBe('Please enter a valid email address.');
    expect(firstError(businessEmailSchema, 'a@gmail.com')).toBe('Enter a valid business email');
    expect(firstError(businessEmailSchema, 'nope')).toBe('Enter a valid email ID');
    expect(businessEmailSchema.parse('Treasury@HDFCBank.com')).toBe('treasury@hdfcbank.com');
  });
  it('requires names without special characters', () => {
    expect(firstError(nameSchema('First name'), '')).toBe('First name is required.');
    expect(firstError(nameSchema('First name'), 'R@vi')).toBe('Should not contain special characters.');
    expect(nameSchema('First name').parse("D'Souza")).toBe("D'Souza");
  });
  it('requires a six-digit OTP', () => {
    expect(firstError(loginOtpSchema, '')).toBe('OTP is required');
    expect(firstError(loginOtpSchema, '12345')).toBe('Must be 6 digits');
    expect(loginOtpSchema.parse('012345')).toBe('012345');
  });
  it('applies yield, price and quantum bounds with the spec messages', () => {
    expect(firstError(yieldFieldSchema, '')).toBe('This field is required');
    expect(firstError(yieldFieldSchema, 'abc')).toBe('Should be number');
    expect(firstError(yieldFieldSchema, -1)).toBe('Cannot be negative');
    expect(firstError(yieldFieldSchema, 101)).toBe('Yield above 100%');
    expect(firstError(priceFieldSchema, 251)).toBe('Should be less than 250');
    expect(firstError(quantumFieldSchema, 0)).toBe('Cannot be zero');
    expect(firstError(quantumFieldSchema, 1234567890123)).toBe('Max 12 digits');
    expect(quantumFieldSchema.parse('500')).toBe(500);
  });
  it('checks IFSC, GSTIN, pincode and time formats', () => {
    expect(ifscSchema.parse('hdfc0000001')).toBe('HDFC0000001');
    expect(firstError(ifscSchema, 'HDFC1000001')).toBe('Please enter a valid IFSC Code (11 Digits).');
    expect(gstSchema.parse('27AAACR5055K1Z5')).toBe('27AAACR5055K1Z5');
    expect(firstError(pincodeSchema, '4000')).toBe('Please enter a valid Pincode');
    expect(firstError(timeSchema, '24:00')).toBe('Please enter valid time in HH:MM 24-hour format');
  });
});
