import { describe, expect, it } from 'vitest';
import { categoryOptions, countActiveFilters, EMPTY_FIND_FILTERS, toCategoriesRequest, toListRequest } from './find-filters';

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

  it('asks the categories call for the three filters, with the selections and ranges as set', () => {
    expect(toCategoriesRequest(EMPTY_FIND_FILTERS)).toEqual({
      category_list: ['security_type', 'credit_rating', 'exchange'],
      category_values: {},
      filters: [],
      include_matured: false,
    });
    const request = toCategoriesRequest({
      ...EMPTY_FIND_FILTERS,
      search: 'hdfc',
      securityTypes: ['G-Sec', 'SDL'],
      ratings: ['SOVEREIGN'],
      exchange: 'BSE',
      couponMin: 7,
      includeMatured: true,
    });
    expect(request).toEqual({
      category_list: ['security_type', 'credit_rating', 'exchange'],
      category_values: { security_type: ['G-Sec', 'SDL'], credit_rating: ['SOVEREIGN'], exchange: ['BSE'] },
      filters: [{ field: 'coupon_rate', type: 'greaterThanOrEqual', value: 7 }],
      include_matured: true,
    });
  });

  it("lists a category's values with counts, keeps chosen values, leaves out 'not rated'", () => {
    const ratings = {
      name: 'credit_rating' as const,
      label: 'Rating',
      values: [
        { value: 'AAA', label: 'AAA', count: 120 },
        { value: 'NR', label: 'Not rated', count: 40 },
        { value: 'SOVEREIGN', label: 'SOVEREIGN', count: 90 },
      ],
    };
    expect(categoryOptions(ratings, ['D'])).toEqual([
      { value: 'AAA', label: 'AAA', count: 120 },
      { value: 'SOVEREIGN', label: 'SOVEREIGN', count: 90 },
      { value: 'D', label: 'D', count: 0 },
    ]);
    // Before the answer: only what is chosen, with no count.
    expect(categoryOptions(undefined, ['AAA'])).toEqual([{ value: 'AAA', label: 'AAA', count: null }]);
  });
});
