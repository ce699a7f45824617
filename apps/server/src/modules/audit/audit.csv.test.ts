import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, formatIstDateTime, istDay, istDayStart } from './audit.csv';

describe('audit CSV', () => {
  it('neutralises cells a spreadsheet would run as a formula (= + - @ tab CR)', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('Signed in')).toBe('Signed in');
  });

  it('quotes cells with commas, quotes or line breaks and doubles the quotes (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x"),1')).toBe('"\'=HYPERLINK(""x""),1"');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it('writes instants and days in India Standard Time (UTC+05:30)', () => {
    const at = new Date('2025-08-21T19:00:00Z');
    expect(formatIstDateTime(at)).toBe('2025-08-22 00:30:00');
    expect(istDay(at)).toBe('2025-08-22');
    expect(istDayStart('2025-08-22').toISOString()).toBe('2025-08-21T18:30:00.000Z');
    expect(istDayStart('2025-08-31', 1).toISOString()).toBe('2025-08-31T18:30:00.000Z');
  });
});
