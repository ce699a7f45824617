import { describe, expect, it } from 'vitest';
import {
  figuresShownFor,
  formatCleanPrice,
  formatYieldPercent,
  inferFixedField,
  inputTextFor,
  isPricedQuantity,
  validatePricingInput,
} from './pricing-input';

describe('pricing input', () => {
  it('switches to price at or above the threshold and to yield below it', () => {
    expect(inferFixedField('7.25')).toBe('yield');
    expect(inferFixedField('101.5')).toBe('price');
    expect(inferFixedField('30')).toBe('price');
    expect(inferFixedField('abc')).toBeNull();
    expect(inferFixedField('')).toBeNull();
  });

  it('requires a value with the spec messages', () => {
    expect(validatePricingInput('yield', ' ')).toEqual({ ok: false, message: 'Yield is required' });
    expect(validatePricingInput('price', '')).toEqual({ ok: false, message: 'Price is required' });
  });

  it('sends a yield as a fraction with 6 decimals and a price with 4', () => {
    expect(validatePricingInput('yield', '7.1234')).toEqual({ ok: true, wire: { yield: 0.071234 } });
    expect(validatePricingInput('price', '101.25')).toEqual({ ok: true, wire: { price: 101.25 } });
  });

  it('keeps a price within 1–250 and step 0.0001', () => {
    expect(validatePricingInput('price', '0.5')).toMatchObject({ ok: false, message: 'Price should be at least 1' });
    expect(validatePricingInput('price', '251')).toMatchObject({ ok: false, message: 'Should be less than 250' });
    expect(validatePricingInput('price', '100.12345')).toMatchObject({ ok: false });
  });

  it('rejects a yield above 100%', () => {
    expect(validatePricingInput('yield', '101')).toMatchObject({ ok: false, message: 'Yield above 100%' });
  });

  it('formats clean price and yield with 4 decimals', () => {
    expect(formatCleanPrice(100.17)).toBe('100.1700');
    expect(formatYieldPercent(0.0689)).toBe('6.8900%');
    expect(formatYieldPercent(null)).toBeNull();
    expect(inputTextFor('yield', { unit_clean_price: 100.1742, bond_yield: 0.0689 })).toBe('6.8900');
    expect(inputTextFor('price', { unit_clean_price: 100.1742, bond_yield: 0.0689 })).toBe('100.1742');
  });
});

describe('figures for what is typed', () => {
  it('shows the reference figures while the field is untouched', () => {
    expect(figuresShownFor('yield', null, null)).toBe(true);
  });

  it('shows no figure for a price it rejected or an empty field', () => {
    // 300 → 'Should be less than 250': the request leaves it out and the answer is the reference price.
    expect(figuresShownFor('price', '300', '300')).toBe(false);
    expect(figuresShownFor('price', '', '')).toBe(false);
    expect(figuresShownFor('yield', '  ', '  ')).toBe(false);
    expect(figuresShownFor('yield', 'abc', 'abc')).toBe(false);
    expect(figuresShownFor('yield', '101', '101')).toBe(false);
  });

  it('shows figures for a valid value once its request is the one sent', () => {
    expect(figuresShownFor('price', '101.25', '101.25')).toBe(true);
    expect(figuresShownFor('yield', '7.1', '7.12')).toBe(true);
  });

  it('waits for a valid value whose request has not replaced a rejected or empty one', () => {
    expect(figuresShownFor('price', '200', '300')).toBe(false);
    expect(figuresShownFor('yield', '7.1', '')).toBe(false);
    expect(figuresShownFor('yield', '7.1', null)).toBe(false);
  });

  it('prices the consideration only for a whole number of units from 1', () => {
    expect(isPricedQuantity(1)).toBe(true);
    expect(isPricedQuantity(500)).toBe(true);
    expect(isPricedQuantity(0)).toBe(false);
    expect(isPricedQuantity(1.5)).toBe(false);
    expect(isPricedQuantity(Number.NaN)).toBe(false);
  });
});
