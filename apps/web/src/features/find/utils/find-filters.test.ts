import { describe, expect, it } from 'vitest';
import { countActiveFilters, EMPTY_FIND_FILTERS, toListRequest } from './find-filters';

describe('Find filters', () => {
  it('sends nothing but the matured flag for the defaults', () => {
    expect(toListRequest(EMPTY_FIND_FILTERS)).toEqual({ filters: [], include_matured: false });
    expect(countActiveFilters(EMPTY_FIND_FILTERS)).toBe(0);
  });

  it('maps ranges to numeric and date filters, yields as fractions', () => {
    const request = toListRequest({
      ...EMPTY_FIND_FILTERS,
      search: ' hdfc ',
      securityTypes: ['Bond/NCD'],
      maturityFrom: '2027-01-01',
      couponMin: 7,
      yieldMax: 8.5,
      listed: 'unlisted',
      exchange: 'NSE',
    });
    expect(request).toEqual({
      filters: [
        { field: 'maturity_date', type: 'after', value: '2027-01-01' },
        { field: 'coupon_rate', type: 'greaterThanOrEqual', value: 7 },
        { field: 'bond_yield', type: 'lessThanOrEqual', value: 0.085 },
      ],
      include_matured: false,
      search: 'hdfc',
      security_types: ['Bond/NCD'],
      listed: false,
      exchange: 'NSE',
    });
  });
});
