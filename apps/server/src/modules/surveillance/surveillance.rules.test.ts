import { describe, expect, it } from 'vitest';
import {
  assessOffMarket,
  assessReporting,
  chatBeforeTradeScore,
  findLexiconHits,
  findSpoofRuns,
  isWashPair,
  LEXICON,
  LEXICON_ANY,
  LEXICON_SQL_PREFILTER,
  lexiconScore,
  mentionsBond,
  offMarketBandBp,
  pairKey,
  ratingGroup,
  washScore,
  type DealLeg,
  type QuoteLife,
} from './surveillance.rules';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 5, 0, 0) + seconds * 1000);

describe('off-market price', () => {
  it('groups ratings with agency names and (CE) suffixes removed, sovereigns first', () => {
    expect(ratingGroup('G-Sec', null)).toBe('sovereign');
    expect(ratingGroup('Corporate Bond', 'CRISIL AAA')).toBe('AAA');
    expect(ratingGroup('Corporate Bond', 'ICRA AA+ (CE)')).toBe('AA');
    expect(ratingGroup('Corporate Bond', 'CARE A-')).toBe('A');
    expect(ratingGroup('Corporate Bond', 'BBB')).toBe('other');
    expect(ratingGroup('Corporate Bond', null)).toBe('other');
  });

  it('widens the band for short paper and narrows it for long paper', () => {
    expect(offMarketBandBp('AAA', 3)).toBe(40);
    expect(offMarketBandBp('AAA', 0.5)).toBe(60);
    expect(offMarketBandBp('AAA', 10)).toBe(32);
    expect(offMarketBandBp('sovereign', null)).toBe(25);
  });

  it('flags a yield outside the band, scoring 50 at the edge and 100 at three bands', () => {
    const base = { referenceYield: 0.07, securityType: 'Corporate Bond', rating: 'CRISIL AAA', tenorYears: 3 };
    const finding = assessOffMarket({ ...base, yieldFraction: 0.082 })!;
    expect(finding.deviationBp).toBe(120);
    expect(finding.bandBp).toBe(40);
    expect(finding.score).toBe(100);
    expect(assessOffMarket({ ...base, yieldFraction: 0.0745 })!.score).toBe(53);
    expect(assessOffMarket({ ...base, yieldFraction: 0.0655 })!.deviationBp).toBe(-45);
  });

  it('does not flag a yield within the band or a bond without a reference', () => {
    const base = { securityType: 'Corporate Bond', rating: 'AAA', tenorYears: 3 };
    expect(assessOffMarket({ ...base, referenceYield: 0.07, yieldFraction: 0.0739 })).toBeNull();
    expect(assessOffMarket({ ...base, referenceYield: null, yieldFraction: 0.2 })).toBeNull();
  });
});

describe('exchange reporting (15-minute rule)', () => {
  it('flags a report after the deadline and a missing one past it', () => {
    expect(assessReporting(at(0), at(20 * 60), at(3600))).toEqual({ missing: false, minutesLate: 5, score: 70 });
    expect(assessReporting(at(0), null, at(16 * 60))).toEqual({ missing: true, minutesLate: 1, score: 80 });
  });

  it('does not flag a report on time or an unreported trade still inside the 15 minutes', () => {
    expect(assessReporting(at(0), at(15 * 60), at(3600))).toBeNull();
    expect(assessReporting(at(0), null, at(14 * 60))).toBeNull();
  });
});

describe('chat lexicon', () => {
  it('finds English and Hinglish phrases whatever the case and separators', () => {
    expect(findLexiconHits('Sir PAKKA RETURN hai, guarantee hai').map((h) => h.category)).toEqual(['assured_returns', 'assured_returns']);
    expect(findLexiconHits('keep it off-the-books please').map((h) => h.term)).toEqual(['off the books']);
    expect(findLexiconHits('thoda under the table setting karo').map((h) => h.category)).toEqual(['off_the_books', 'side_deal']);
    expect(findLexiconHits('window_dressing_q4.xlsx'.replace(/_/g, ' ')).map((h) => h.category)).toEqual(['window_dressing']);
    expect(findLexiconHits('buy before the client order lands').map((h) => h.category)).toEqual(['front_running']);
  });

  it('ignores ordinary trading talk and words that only contain a phrase', () => {
    expect(findLexiconHits('Bid 7.12 for 5 cr HDFC 2030, settlement T+1, cash settlement at NSCCL')).toEqual([]);
    expect(findLexiconHits('the carparking levy')).toEqual([]);
    expect(findLexiconHits('')).toEqual([]);
  });

  it('scores the highest phrase, +10 per further category', () => {
    expect(lexiconScore(findLexiconHits('kickback'))).toBe(90);
    expect(lexiconScore(findLexiconHits('kickback, under the table'))).toBe(100);
    expect(lexiconScore([])).toBe(0);
  });
});

describe('lexicon pre-filter of the database (PostgreSQL ~*, read here as a case-insensitive JavaScript pattern)', () => {
  const prefilter = new RegExp(LEXICON_SQL_PREFILTER, 'i');

  it('matches wherever the rule does: any case, hyphens, dots, no-break or no spaces, the Kelvin sign and the long s', () => {
    let checked = 0;
    for (const t of LEXICON) {
      const variants = [
        t.term,
        t.term.toUpperCase(),
        t.term.replaceAll(' ', '-'),
        t.term.replaceAll(' ', ' . '),
        t.term.replaceAll(' ', '\u00a0'),
        t.term.replaceAll(' ', ''),
        t.term.replaceAll('k', '\u212a').replaceAll('s', '\u017f'),
      ];
      for (const variant of variants) {
        const text = `sir, ${variant}!`;
        if (!LEXICON_ANY.test(text)) continue;
        expect(prefilter.test(text), text).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(LEXICON.length * 5);
  });

  it('lets ordinary dealer talk through unmatched', () => {
    for (const text of ['Bid 7.80 for 5 cr, settlement T+1 at NSCCL', 'cash settlement as usual', 'setting up a call at 3'])
      expect(prefilter.test(text), text).toBe(false);
  });
});

describe('chat before trade', () => {
  const bond = { isin: 'INE040A08955', names: ['HDFC 2030', null, 'HB'] };
  it('matches the ISIN or a short name of four characters or more', () => {
    expect(mentionsBond('can you do ine040a08955 at 7.8?', bond)).toBe(true);
    expect(mentionsBond('hdfc 2030 offer?', bond)).toBe(true);
    expect(mentionsBond('HB anything?', bond)).toBe(false);
    expect(mentionsBond('SBI 2031 offer?', bond)).toBe(false);
  });
  it('scores more for more messages and a deal within the hour', () => {
    expect(chatBeforeTradeScore(1, 300)).toBe(70);
    expect(chatBeforeTradeScore(3, 30)).toBe(100);
  });
});

describe('spoofing / layering', () => {
  const q = (id: string, placed: number, life: number, filled = 0): QuoteLife => ({
    id,
    createdAt: at(placed),
    endedAt: at(placed + life),
    quantum: 500_000,
    remainingQuantum: 500_000 - filled,
  });
  it('finds three or more quotes pulled within seconds inside five minutes', () => {
    const runs = findSpoofRuns([q('a', 0, 3), q('b', 60, 5), q('c', 120, 2), q('d', 200, 4)]);
    expect(runs.map((run) => run.map((x) => x.id))).toEqual([['a', 'b', 'c', 'd']]);
  });
  it('ignores quotes that lived longer, traded, or were spread over more than the window', () => {
    expect(findSpoofRuns([q('a', 0, 3), q('b', 60, 60), q('c', 120, 2)])).toEqual([]);
    expect(findSpoofRuns([q('a', 0, 3), q('b', 60, 3, 100_000), q('c', 120, 2)])).toEqual([]);
    expect(findSpoofRuns([q('a', 0, 3), q('b', 200, 3), q('c', 400, 2)])).toEqual([]);
  });
});

describe('wash / circular trades', () => {
  const leg = (id: string, buyer: string, seller: string, seconds: number, quantum = 500_000): DealLeg => ({
    id,
    finstrumentId: 7,
    buyerClientId: buyer,
    sellerClientId: seller,
    quantum,
    createdAt: at(seconds),
  });
  it('pairs a deal reversed between the same firms on the same bond within 24 hours', () => {
    expect(isWashPair(leg('1', 'A', 'B', 0), leg('2', 'B', 'A', 3600))).toBe(true);
    expect(washScore(leg('1', 'A', 'B', 0), leg('2', 'B', 'A', 3600))).toBe(90);
    expect(washScore(leg('1', 'A', 'B', 0), leg('2', 'B', 'A', 3600, 100_000))).toBe(70);
  });
  it('does not pair the same direction, another bond, or a reversal after the window', () => {
    expect(isWashPair(leg('1', 'A', 'B', 0), leg('2', 'A', 'B', 60))).toBe(false);
    expect(isWashPair(leg('1', 'A', 'B', 0), { ...leg('2', 'B', 'A', 60), finstrumentId: 8 })).toBe(false);
    expect(isWashPair(leg('1', 'A', 'B', 0), leg('2', 'B', 'A', 25 * 3600))).toBe(false);
  });
  it('keys a pair of firms the same whichever side', () => {
    expect(pairKey('b', 'a')).toBe(pairKey('a', 'b'));
  });
});
