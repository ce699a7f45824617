import { describe, expect, it } from 'vitest';
import { canaryBonds, valuationMethod } from './inventory.valuation';
import { keptWarmUpBooks, warmUpBooks, warmUpValuation } from './inventory.warm-up';

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

  it('shapes its books as real ones (bonds with no reference price, several issuers and ratings) and keeps the last', async () => {
    await warmUpBooks(8);
    const [small] = keptWarmUpBooks();
    // The last round (7, pair 3, on the node's figures) of the 7 canaries: bond 6 has no reference (id + pair ≡ 0
    // mod 9), in each of 4 accounts.
    expect(small!.totals.not_valued).toBe(4);
    expect(small!.totals.positions).toBe(28);
    expect(small!.breakdowns.issuer.map((row) => row.key).sort()).toEqual(
      ['Canary Bank', 'Canary Finance', 'Canary Power', 'Government of India', 'Unknown'].sort(),
    );
    expect(small!.breakdowns.rating.map((row) => row.key)).toContain('Unrated');
    await warmUpBooks(1, true);
    const [, large] = keptWarmUpBooks();
    // Round 0 of 2,500 bonds: one in nine (ids 0, 9, …, 2,493: 278) has no reference, each held in 2 accounts.
    expect(large!.totals.not_valued).toBe(278 * 2);
    expect(large!.totals.positions).toBe(5_000);
  });
});
