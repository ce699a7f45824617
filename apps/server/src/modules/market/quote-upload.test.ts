import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { detectFormat, inspectZip, parseUploadRow, readUploadTable, templateCsv, templateXlsx } from './quote-upload';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as AppError).code;
  }
  return null;
};

describe('bulk quote upload: reading files', () => {
  it('tells CSV from XLSX by the magic bytes and refuses binaries and empty files', () => {
    expect(detectFormat(Buffer.from('isin,quantum\n'))).toBe('csv');
    expect(detectFormat(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]))).toBe('xlsx');
    expect(codeOf(() => detectFormat(Buffer.alloc(0)))).toBe('BAD_REQUEST');
    expect(codeOf(() => detectFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0])))).toBe('UNSUPPORTED_MEDIA_TYPE'); // legacy .xls
    expect(codeOf(() => detectFormat(Buffer.from([0xff, 0xfe, 0x41])))).toBe('UNSUPPORTED_MEDIA_TYPE'); // not UTF-8
  });

  it('checks an XLSX zip before opening it', async () => {
    const template = await templateXlsx();
    const { entries, uncompressedBytes } = inspectZip(template);
    expect(entries).toBeGreaterThan(3);
    expect(uncompressedBytes).toBeGreaterThan(1000);
    expect(codeOf(() => inspectZip(Buffer.from('PK\u0003\u0004 no directory')))).toBe('BAD_REQUEST');
  });

  it('reads the templates back as their example rows, header matched case- and space-insensitively', async () => {
    const fromCsv = await readUploadTable(Buffer.from(templateCsv()));
    const fromXlsx = await readUploadTable(await templateXlsx());
    expect(fromCsv.map((r) => r.row)).toEqual([2, 3]);
    expect(fromXlsx.map((r) => r.cells.isin)).toEqual(['IN0020220151', 'IN0020220151']);
    expect(fromXlsx[0]!.cells.quantum).toBe(50_000_000);
    expect(fromCsv[1]!.cells.quantum).toBe('2.5cr');
    const spaced = await readUploadTable(Buffer.from('ISIN, Quote Type ,Quantum,Yield\nX,bid,5,7\n,,,\n'));
    expect(spaced).toEqual([{ row: 2, cells: { isin: 'X', quote_type: 'bid', quantum: '5', yield: '7' } }]);
  });

  it('reports header names that collide with object built-ins as unknown columns, not a crash', async () => {
    const error = await readUploadTable(Buffer.from('isin,quantum,yield,constructor,__proto__,toString\nX,5,7,a,b,c\n')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    expect(Object.keys((error as AppError).fieldErrors ?? {}).sort()).toEqual(['__proto__', 'constructor', 'tostring'].sort());
  });
});

describe('bulk quote upload: rows', () => {
  const row = (cells: Record<string, string | number | null>) => ({ row: 7, cells });

  it('turns a row into the single-create payload: yield in percent, price fixes the price, source UPLOAD', () => {
    const byYield = parseUploadRow(row({ isin: 'IN0020220151', quantum: '1,500', yield: '7.1234567', quote_type: 'ask' }), 42);
    expect(byYield).toMatchObject({
      ok: true,
      input: { finstrument_id: 42, quantum: 1500, yield_stored: 0.071235, fixed_field: 'yield', quote_type: 'ASK', source: 'UPLOAD' },
    });
    const byPrice = parseUploadRow(row({ isin: 'X', quantum: 5, price: 99.5, settlement_date: '2026-12-01', state: 'firm' }), 1);
    expect(byPrice).toMatchObject({
      ok: true,
      input: { unit_price_stored: 99.5, fixed_field: 'price', settlement: '2026-12-01', state: 'FIRM' },
    });
  });

  it('reads quantum as face value in rupees, with lakh/crore shorthand (issue 12 §1)', () => {
    const ok = (quantum: string | number) => parseUploadRow(row({ isin: 'X', quantum, yield: 7 }), 1, 100);
    expect(ok('5cr')).toMatchObject({ ok: true, input: { quantum: 50_000_000 } });
    expect(ok('50 L')).toMatchObject({ ok: true, input: { quantum: 5_000_000 } });
    expect(ok('5,00,00,000')).toMatchObject({ ok: true, input: { quantum: 50_000_000 } });
    expect(ok(50_000_000)).toMatchObject({ ok: true, input: { quantum: 50_000_000 } });
    expect(ok('five crore')).toEqual({
      ok: false,
      errors: [{ row: 7, field: 'quantum', message: 'Enter a size such as 5cr, 50L or 5,00,00,000' }],
    });
    expect(ok('-5cr')).toEqual({ ok: false, errors: [{ row: 7, field: 'quantum', message: 'Cannot be negative' }] });
  });

  it("refuses a size that is not a whole number of the bond's bonds", () => {
    expect(parseUploadRow(row({ isin: 'X', quantum: '1.5L', yield: 7 }), 1, 100_000)).toEqual({
      ok: false,
      errors: [{ row: 7, field: 'quantum', message: 'Must be a whole number of bonds (₹1 L each)' }],
    });
    expect(parseUploadRow(row({ isin: 'X', quantum: 150, yield: 7 }), 1, 100)).toEqual({
      ok: false,
      errors: [{ row: 7, field: 'quantum', message: 'Must be a whole number of bonds (₹100 each)' }],
    });
    expect(parseUploadRow(row({ isin: 'X', quantum: '2L', yield: 7 }), 1, 100_000)).toMatchObject({ ok: true });
  });

  it('reports every problem of a row against its column with the spec messages', () => {
    expect(parseUploadRow(row({ isin: null, quantum: -1 }), undefined)).toEqual({
      ok: false,
      errors: [
        { row: 7, field: 'isin', message: 'This field is required' },
        { row: 7, field: 'yield', message: 'This field is required' },
        { row: 7, field: 'quantum', message: 'Cannot be negative' },
      ],
    });
    expect(parseUploadRow(row({ isin: 'X', quantum: 1, price: 100, yield: 7 }), 1)).toEqual({
      ok: false,
      errors: [{ row: 7, field: 'price', message: 'Cannot provide both price and yield' }],
    });
    expect(parseUploadRow(row({ isin: 'X', quantum: 1, yield: 'seven', validity: 0 }), 1)).toEqual({
      ok: false,
      errors: [
        { row: 7, field: 'validity', message: 'Validity should be between 1 and 43200 minutes.' },
        { row: 7, field: 'yield', message: 'Should be number' },
      ],
    });
  });
});
