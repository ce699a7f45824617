import { describe, expect, it } from 'vitest';
import { readableFacts } from './surveillance-facts';

describe('readableFacts', () => {
  it('reads the facts in words: yields as percentages, basis points, yes/no, and no ids', () => {
    const facts = readableFacts({
      isin: 'INE040A08955',
      yield: 0.0985,
      reference_yield: 0.0785,
      deviation_bp: 200,
      band_bp: 40,
      missing: true,
      sender_user_id: '0b8f3f43-3c1e-4a43-9d59-1f1d3d6a0c11',
      first_deal: 'x',
      minutes_before_deal: 1234,
      odd_fact: null,
    });
    expect(facts.map(({ label, value }) => `${label}: ${value}`)).toEqual([
      'ISIN: INE040A08955',
      'Yield: 9.8500%',
      'Reference yield: 7.8500%',
      'Deviation: 200 bp',
      'Band: 40 bp',
      'Not reported: Yes',
      'Minutes before the deal: 1,234',
      'Odd fact: —',
    ]);
  });
});
