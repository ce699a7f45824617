import { describe, expect, it } from 'vitest';
import { beforeDeal } from './surveillance.alerts';

describe('beforeDeal', () => {
  it('says how long before the deal the first message came, in words', () => {
    expect(beforeDeal(0)).toBe('under a minute before');
    expect(beforeDeal(1)).toBe('1 minute before');
    expect(beforeDeal(45)).toBe('45 minutes before');
    expect(beforeDeal(60)).toBe('1 hour before');
    expect(beforeDeal(125)).toBe('2 hours 5 minutes before');
    expect(beforeDeal(61)).toBe('1 hour 1 minute before');
  });
});
