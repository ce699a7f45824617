import { describe, expect, it } from 'vitest';
import { quoteRequestFor, reportedPricingDetails } from './pricing-details';

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

  it('shares what the user priced with the support team', () => {
    expect(reportedPricingDetails(details)).toEqual({
      priced_by: 'yield',
      clean_price: 100.1742,
      yield_percent: 6.89,
      settlement: 'T+0 (2026-11-23)',
      quantity: 10,
      total_consideration: 1052067.37,
    });
    expect(reportedPricingDetails({ ...details, cleanPrice: null, bondYield: null, settlementDate: null }).settlement).toBe('T+0');
  });
});
