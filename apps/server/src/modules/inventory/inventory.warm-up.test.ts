import { describe, expect, it } from 'vitest';
import { canaryBonds, valuationMethod } from './inventory.valuation';
import { warmUpBooks, warmUpValuation } from './inventory.warm-up';

describe('warmUpValuation', () => {
  it('prices every canary (seven builders) each round, and leaves the valuation method as it was', () => {
    const method = valuationMethod();
    expect(warmUpValuation(40)).toBe(7 * 40);
    expect(valuationMethod()).toBe(method);
  });
});

describe('warmUpBooks', () => {
  it('values each round a whole canary book (7 bonds in 4 accounts), read with terms and with stored figures', async () => {
    // Four rounds: two whose bonds come with their terms (priced on the read), two with stored figures; each cuts
    // and checks a page's answer against the contract on its first and last round, which throws on a bad row.
    expect(await warmUpBooks(4)).toBe(4 * 7 * 4);
  });

  it('values books the size of a real one with `large`: 2,500 bonds (the seven conventions in turn) in 2 accounts', async () => {
    expect(await warmUpBooks(2, true)).toBe(2 * 2_500 * 2);
    const bonds = canaryBonds(2_500);
    expect(new Set(bonds.map((b) => b.held.isin)).size).toBe(2_500);
    expect(bonds[7]!.terms.slice(2)).toEqual(bonds[0]!.terms.slice(2));
    expect(bonds[7]!.bond.id).toBe(7);
  });
});
