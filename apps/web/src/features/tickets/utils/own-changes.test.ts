import { describe, expect, it } from 'vitest';
import { beginOwnCreate, isOwnEcho, markOwnChange } from './own-changes';

describe('the echo of the user’s own change', () => {
  it('treats events on a ticket the user just changed as an echo for five seconds', () => {
    markOwnChange('t1', 1_000);
    expect(isOwnEcho('t1', 'price', 1_500)).toBe(true);
    expect(isOwnEcho('t1', 'price', 5_999)).toBe(true);
    expect(isOwnEcho('t1', 'price', 6_000)).toBe(false);
    expect(isOwnEcho('t2', 'price', 1_500)).toBe(false);
  });

  it('treats a created event during and just after the user’s own creation as an echo', () => {
    const end = beginOwnCreate();
    expect(isOwnEcho('new', 'created')).toBe(true);
    end();
    expect(isOwnEcho('new', 'created')).toBe(true);
    expect(isOwnEcho('new', 'created', Date.now() + 10_000)).toBe(false);
    expect(isOwnEcho('new', 'send', Date.now())).toBe(false);
  });
});
