import { describe, expect, it } from 'vitest';
import { crc32, toCsv, toXlsx } from './table-export';

describe('table export', () => {
  it('quotes CSV cells with commas, quotes and line breaks', () => {
    expect(
      toCsv({
        columns: ['Name', 'Coupon'],
        rows: [
          ['HDFC Bank, 7.78% "NCD"', 7.78],
          [null, 1],
        ],
      }),
    ).toBe('Name,Coupon\r\n"HDFC Bank, 7.78% ""NCD""",7.78\r\n,1');
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });

  it('writes an XLSX zip with the sheet and escaped strings', () => {
    const bytes = toXlsx({ columns: ['Name'], rows: [['A & B <c>']] });
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain('xl/worksheets/sheet1.xml');
    expect(text).toContain('A &amp; B &lt;c&gt;');
  });
});
