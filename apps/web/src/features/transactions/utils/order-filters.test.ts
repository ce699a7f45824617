import { OrderUnifiedQuerySchema } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import {
  countActiveFilters,
  EMPTY_ORDER_FILTERS,
  filterProblems,
  filterTypesFor,
  hasProblems,
  newCondition,
  readCondition,
  readConditions,
  toOrderQuery,
  withField,
  type FilterCondition,
  type OrderFilters,
} from './order-filters';

const condition = (overrides: Partial<FilterCondition>): FilterCondition => ({ ...newCondition(1), ...overrides });

describe('reading a filter condition', () => {
  it('sends a yield typed in % as a fraction, a size typed in lakh/crore as rupees, amounts without grouping', () => {
    expect(readCondition(condition({ field: 'yield', type: 'greaterThanOrEqual', value: '7.25' }))).toEqual({
      filter: { field: 'yield', type: 'greaterThanOrEqual', value: 0.0725 },
    });
    expect(readCondition(condition({ field: 'quantum', type: 'lessThan', value: '5cr' }))).toEqual({
      filter: { field: 'quantum', type: 'lessThan', value: 50_000_000 },
    });
    expect(readCondition(condition({ field: 'consideration', type: 'greaterThan', value: '₹1,00,00,000' }))).toEqual({
      filter: { field: 'consideration', type: 'greaterThan', value: 10_000_000 },
    });
    expect(readCondition(condition({ field: 'price', type: 'equals', value: '100.25' }))).toEqual({
      filter: { field: 'price', type: 'equals', value: 100.25 },
    });
  });

  it('sends a date as it is, with the date comparisons', () => {
    expect(readCondition(condition({ field: 'settlement_date', type: 'before', value: '2026-05-06' }))).toEqual({
      filter: { field: 'settlement_date', type: 'before', value: '2026-05-06' },
    });
  });

  it('leaves a condition without a value out, and says why a value cannot be read', () => {
    expect(readCondition(condition({ field: 'price', value: '  ' }))).toBeNull();
    expect(readCondition(condition({ field: 'price', value: 'abc' }))).toEqual({ message: 'Should be number' });
    expect(readCondition(condition({ field: 'quantum', value: '5m' }))).toEqual({
      message: 'Enter a face value such as 5cr, 50L or 5,00,00,000.',
    });
    expect(readCondition(condition({ field: 'trade_date', type: 'is', value: '04/05/2026' }))).toEqual({
      message: 'Please enter a valid date.',
    });
    const read = readConditions([condition({ id: 1, field: 'price', value: 'x' }), condition({ id: 2, field: 'price', value: '99' })]);
    expect(read.errors).toEqual({ 1: 'Should be number' });
    expect(read.filters).toHaveLength(1);
  });

  it('offers numeric comparisons for numbers and is/after/before for dates, and keeps what still fits when the field changes', () => {
    expect(filterTypesFor('yield')).toContain('lessThanOrEqual');
    expect(filterTypesFor('trade_date')).toEqual(['is', 'after', 'before']);
    expect(newCondition(3, 'price')).toEqual({ id: 3, field: 'price', type: 'greaterThanOrEqual', value: '' });
    expect(withField(condition({ field: 'price', type: 'lessThan', value: '99' }), 'yield')).toMatchObject({
      type: 'lessThan',
      value: '99',
    });
    expect(withField(condition({ field: 'price', type: 'lessThan', value: '99' }), 'trade_date')).toMatchObject({
      type: 'after',
      value: '',
    });
  });
});

describe('the blotter query', () => {
  const filters: OrderFilters = {
    state: 'failed',
    kind: 'procurement',
    search: '  INE002A08534 ',
    conditions: [
      condition({ id: 1, field: 'yield', type: 'lessThanOrEqual', value: '8' }),
      condition({ id: 2, field: 'trade_date', type: 'after', value: '2026-05-01' }),
      condition({ id: 3, field: 'price', value: '' }),
    ],
  };

  it('builds the query the list and the export share, with the filters as a JSON array', () => {
    expect(toOrderQuery(filters)).toEqual({
      state: 'failed',
      kind: 'procurement',
      search: 'INE002A08534',
      filters: JSON.stringify([
        { field: 'yield', type: 'lessThanOrEqual', value: 0.08 },
        { field: 'trade_date', type: 'after', value: '2026-05-01' },
      ]),
    });
    expect(toOrderQuery(EMPTY_ORDER_FILTERS)).toEqual({});
  });

  it('is accepted by the server’s own schema', () => {
    const parsed = OrderUnifiedQuerySchema.safeParse({ ...toOrderQuery(filters), page: '2', page_size: '50' });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.filters).toHaveLength(2);
  });

  it('reports what stops the filters from being sent', () => {
    expect(hasProblems(filterProblems(filters))).toBe(false);
    const bad = filterProblems({ ...filters, search: 'x'.repeat(101), conditions: [condition({ id: 7, field: 'price', value: 'abc' })] });
    expect(bad.conditions).toEqual({ 7: 'Should be number' });
    expect(bad.search).toBeTruthy();
    const many = filterProblems({
      ...EMPTY_ORDER_FILTERS,
      conditions: Array.from({ length: 11 }, (_, i) => condition({ id: i, field: 'price', value: '1' })),
    });
    expect(many.form).toBe('At most 10 filters.');
  });

  it('counts the filters set beyond the state tab', () => {
    expect(countActiveFilters(EMPTY_ORDER_FILTERS)).toBe(0);
    expect(countActiveFilters({ ...EMPTY_ORDER_FILTERS, state: 'settled' })).toBe(0);
    expect(countActiveFilters(filters)).toBe(4);
  });
});
