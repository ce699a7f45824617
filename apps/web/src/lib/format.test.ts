import { afterEach, describe, expect, it } from 'vitest';
import { applyDisplayPreferences } from './display-preferences';
import {
  formatBondName,
  formatCount,
  formatDate,
  formatDateTime,
  formatPrice,
  formatSize,
  formatSizeWithCount,
  formatBonds,
  formatYield,
} from './format';

describe('display formats', () => {
  afterEach(() => applyDisplayPreferences({ date_format: 'mm/dd/yy' }));

  it('writes dates as mm/dd/yy by default (spec §9)', () => {
    expect(formatDate(new Date(2026, 0, 5))).toBe('01/05/26');
    expect(formatDateTime(new Date(2026, 10, 22, 9, 3, 7))).toBe('11/22/26 09:03:07');
  });

  it('writes dates in the format the user chose: dd/mm/yy and DD-Mon-YYYY', () => {
    applyDisplayPreferences({ date_format: 'dd/mm/yy' });
    expect(formatDate(new Date(2026, 0, 5))).toBe('05/01/26');
    expect(formatDate('2026-11-25')).toBe('25/11/26');
    expect(formatDateTime(new Date(2026, 10, 22, 9, 3, 7))).toBe('22/11/26 09:03:07');
    applyDisplayPreferences({ date_format: 'DD-Mon-YYYY' });
    expect(formatDate('2026-11-25')).toBe('25-Nov-2026');
    expect(formatDate(new Date(2026, 0, 5))).toBe('05-Jan-2026');
    expect(formatDateTime(new Date(2026, 11, 31, 23, 59, 59))).toBe('31-Dec-2026 23:59:59');
  });

  it('writes edge dates right in all three formats: leap day, year ends, 2000 and 2100', () => {
    const cases: Array<[string, string, string, string]> = [
      ['2024-02-29', '02/29/24', '29/02/24', '29-Feb-2024'],
      ['2025-12-31', '12/31/25', '31/12/25', '31-Dec-2025'],
      ['2026-01-01', '01/01/26', '01/01/26', '01-Jan-2026'],
      ['2000-06-09', '06/09/00', '09/06/00', '09-Jun-2000'],
      ['2100-03-01', '03/01/00', '01/03/00', '01-Mar-2100'],
    ];
    for (const [iso, us, indian, market] of cases) {
      expect(formatDate(iso, 'mm/dd/yy')).toBe(us);
      expect(formatDate(iso, 'dd/mm/yy')).toBe(indian);
      expect(formatDate(iso, 'DD-Mon-YYYY')).toBe(market);
    }
  });

  it('keeps a calendar date on its day whatever the time zone (no UTC midnight shift)', () => {
    // new Date('2033-04-15') is UTC midnight: west of Greenwich its local date is the 14th.
    expect(formatDate('2033-04-15', 'DD-Mon-YYYY')).toBe('15-Apr-2033');
    expect(formatDate('2033-04-15T00:00:00', 'dd/mm/yy')).toBe('15/04/33');
  });

  it("rewrites a bond name's embedded maturity as dd/mm/yy for a user who chose it; the market's form otherwise", () => {
    expect(formatBondName('364 DTB 16-Feb-2017', 'dd/mm/yy')).toBe('364 DTB 16/02/17');
    expect(formatBondName('(MATURED) 364 DTB 16-Feb-2017', 'dd/mm/yy')).toBe('(MATURED) 364 DTB 16/02/17');
    expect(formatBondName('364 DTB 16-Feb-2017', 'mm/dd/yy')).toBe('364 DTB 16-Feb-2017');
    expect(formatBondName('HDFC LTD NCD 10-Jun-2027', 'dd/mm/yy')).toBe('HDFC LTD NCD 10/06/27');
    expect(formatBondName('HDFC LTD NCD 10-Jun-2027', 'DD-Mon-YYYY')).toBe('HDFC LTD NCD 10-Jun-2027');
    expect(formatBondName('7.18% GS 2033', 'dd/mm/yy')).toBe('7.18% GS 2033');
    expect(formatBondName('Sovereign Gold Bonds 2.75% NOV 2023 Tr-I', 'dd/mm/yy')).toBe('Sovereign Gold Bonds 2.75% NOV 2023 Tr-I');
    applyDisplayPreferences({ date_format: 'dd/mm/yy' });
    expect(formatBondName('GS STRIPS 02-Jan-2036')).toBe('GS STRIPS 02/01/36');
  });

  it('groups counts the Indian way', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
  });

  it('shows yields in % and clean prices with 4 decimals, sizes as face value in ₹ lakh/crore with the bond count', () => {
    expect(formatYield(0.0791)).toBe('7.9100%');
    expect(formatPrice(99.5)).toBe('99.5000');
    expect(formatSize(50_000_000)).toBe('₹5 Cr');
    expect(formatSize(null)).toBe('—');
    expect(formatBonds(50_000_000, 100)).toBe('5,00,000 bonds');
    expect(formatBonds(50_000_000, undefined)).toBe('');
    expect(formatSizeWithCount(5_000_000, 100_000)).toBe('₹50 L · 50 bonds');
    expect(formatSizeWithCount(5_000_000, null)).toBe('₹50 L');
    expect(formatYield(null)).toBe('—');
  });

  it('leaves unparseable input as it is', () => {
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDate('2026-13-40', 'DD-Mon-YYYY')).toBe('2026-13-40');
    expect(formatDateTime('soon')).toBe('soon');
  });
});
