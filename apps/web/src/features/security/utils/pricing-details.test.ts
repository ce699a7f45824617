import { describe, expect, it } from 'vitest';
import { describePricingDetails, quoteRequestFor } from './pricing-details';

const details = {
  fixedField: 'yield' as const,
  cleanPrice: 100.1742,
  bondYield: 0.0689,
  settlementDelta: 0,
  settlementDate: '2026-11-23',
  quantity: 10,
  total: 1052067.37,
};

describe('pricing details', () => {
  it('sends the fixed value only', () => {
    expect(quoteRequestFor(details)).toEqual({ settlement_delta: 0, quantity: 10, yield: 0.0689 });
    expect(quoteRequestFor({ ...details, fixedField: 'price' })).toEqual({ settlement_delta: 0, quantity: 10, price: 100.1742 });
    expect(quoteRequestFor(null)).toEqual({});
  });

  it('describes what the user priced for the support team', () => {
    const text = describePricingDetails(details);
    expect(text).toContain('Yield: 6.8900%');
    expect(text).toContain('Settlement: T+0 (2026-11-23)');
    expect(text).toContain('Quantity: 10 units');
  });
});
