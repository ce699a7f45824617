import { describe, expect, it } from 'vitest';
import { groupBy } from './group-by';

describe('groupBy', () => {
  it('keeps the items’ order in each group and the groups in the order of their first item', () => {
    const trades = [
      { id: 1, exchange: 'BSE' },
      { id: 2, exchange: 'NSE' },
      { id: 3, exchange: 'BSE' },
      { id: 4, exchange: 'NSE' },
    ];
    const groups = groupBy(trades, (t) => t.exchange);
    expect([...groups.keys()]).toEqual(['BSE', 'NSE']);
    expect(groups.get('BSE')!.map((t) => t.id)).toEqual([1, 3]);
    expect(groups.get('NSE')!.map((t) => t.id)).toEqual([2, 4]);
  });

  it('gives no groups for no items', () => {
    expect(groupBy([], (x: number) => x).size).toBe(0);
  });
});
