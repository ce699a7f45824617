/**
 * Bulk quote upload (`POST api/eoi/upload/`): reads a CSV or XLSX file into rows, and turns each row
 * into the single-create payload (`QuoteCreateSchema`), so a row is held to exactly the rules of one
 * `POST api/trade/eoi/`. Pure: no database, no Fastify; the service prices and stores.
 *
 * Safety (RELIABILITY #28): the type comes from the magic bytes, not the name or header; an XLSX is a
 * zip whose central directory is checked before it is opened (entry count, total uncompressed size,
 * no VBA project: a renamed .xlsm is refused). exceljs parses OOXML with saxes, which never fetches
 * external entities.
 */
import {
  checkFaceValue,
  MARKET_MESSAGES,
  MESSAGES,
  QUOTE_UPLOAD_COLUMNS,
  QUOTE_UPLOAD_MAX_ROWS,
  QUOTE_UPLOAD_MESSAGES,
  QUOTE_UPLOAD_REQUIRED_COLUMNS,
  QuoteCreateSchema,
  quantumError,
  type QuoteCreate,
  type QuoteUploadColumn,
  type UploadRowError,
} from '@dart/contracts';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { AppError } from '../../lib/errors';

/** Zip limits of an XLSX: a workbook of a few hundred quotes is a few dozen entries and well under 5 MB. */
export const XLSX_MAX_ENTRIES = 200;
export const XLSX_MAX_UNCOMPRESSED_BYTES = 20 * 1_048_576;

export type UploadFormat = 'csv' | 'xlsx';
export type Cell = string | number | boolean | null;
export type UploadRow = UploadTableRow<QuoteUploadColumn>;

const ZIP_LOCAL_HEADER = 0x04034b50;
const ZIP_END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP_CENTRAL_ENTRY = 0x02014b50;

/** CSV or XLSX, from the first bytes; anything else (PDF, HTML, a legacy .xls) is refused with 415. */
export function detectFormat(file: Buffer): UploadFormat {
  if (file.length === 0) throw new AppError('BAD_REQUEST', QUOTE_UPLOAD_MESSAGES.empty);
  if (file.length >= 4 && file.readUInt32LE(0) === ZIP_LOCAL_HEADER) return 'xlsx';
  // Text only: no NUL bytes and valid UTF-8 (a binary or an OLE .xls is not a CSV).
  if (file.includes(0)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', QUOTE_UPLOAD_MESSAGES.unsupported);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', QUOTE_UPLOAD_MESSAGES.unsupported);
  }
  return 'csv';
}

/** Reads the zip central directory and refuses zip bombs and macro workbooks before anything is inflated. */
export function inspectZip(file: Buffer): { entries: number; uncompressedBytes: number } {
  // The end-of-central-directory record is in the last 22 + 65535 bytes (its comment is at most 64 KiB).
  let end = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 65_535); i--) {
    if (file.readUInt32LE(i) === ZIP_END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new AppError('BAD_REQUEST', QUOTE_UPLOAD_MESSAGES.unreadable);
  const entries = file.readUInt16LE(end + 10);
  const directoryOffset = file.readUInt32LE(end + 16);
  if (entries > XLSX_MAX_ENTRIES) throw new AppError('PAYLOAD_TOO_LARGE', QUOTE_UPLOAD_MESSAGES.tooLarge);
  let offset = directoryOffset;
  let uncompressedBytes = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > file.length || file.readUInt32LE(offset) !== ZIP_CENTRAL_ENTRY)
      throw new AppError('BAD_REQUEST', QUOTE_UPLOAD_MESSAGES.unreadable);
    const size = file.readUInt32LE(offset + 24);
    const nameLength = file.readUInt16LE(offset + 28);
    const extraLength = file.readUInt16LE(offset + 30);
    const commentLength = file.readUInt16LE(offset + 32);
    const name = file.toString('utf8', offset + 46, offset + 46 + nameLength);
    // 0xFFFFFFFF marks a zip64 size: never needed by a workbook this small.
    if (size === 0xffffffff) throw new AppError('PAYLOAD_TOO_LARGE', QUOTE_UPLOAD_MESSAGES.tooLarge);
    if (/(^|\/)vbaProject\.bin$/i.test(name)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', QUOTE_UPLOAD_MESSAGES.macro);
    uncompressedBytes += size;
    if (uncompressedBytes > XLSX_MAX_UNCOMPRESSED_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', QUOTE_UPLOAD_MESSAGES.tooLarge);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, uncompressedBytes };
}

const normaliseHeader = (value: unknown) =>
  String(value ?? '')
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** An XLSX cell as a plain value: formulas give their result, rich text its text, dates `yyyy-mm-dd`. */
function plainCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('result' in value) return value.result === undefined ? null : plainCell(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value) return value.text;
  if ('error' in value) return value.error;
  return null;
}

/** What a table upload expects: its columns, its row limit and the words of its refusals. */
export interface UploadTableSpec<C extends string> {
  columns: readonly C[];
  required: readonly C[];
  maxRows: number;
  messages: {
    /** An XLSX exceljs cannot read. */
    unreadable: string;
    /** A zip without a worksheet. */
    noSheet: string;
    tooManyRows: string;
    noRows: string;
    unknownColumn(column: string): string;
    missingColumn(column: string): string;
  };
}

/** One data row: its spreadsheet row number (the header is row 1) and its cells by column. */
export interface UploadTableRow<C extends string> {
  row: number;
  cells: Partial<Record<C, Cell>>;
}

/**
 * Header + rows of the first worksheet or the CSV (the quote upload's and the inventory upload's): the type from
 * the magic bytes, the zip inspected before anything is inflated, header problems a 400 for the whole file,
 * blank rows skipped, at most `maxRows` data rows.
 */
export async function readUploadTableOf<C extends string>(file: Buffer, spec: UploadTableSpec<C>): Promise<Array<UploadTableRow<C>>> {
  const format = detectFormat(file);
  let table: Cell[][];
  if (format === 'xlsx') {
    inspectZip(file);
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
    } catch {
      throw new AppError('BAD_REQUEST', spec.messages.unreadable);
    }
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new AppError('BAD_REQUEST', spec.messages.noSheet);
    if (sheet.actualRowCount > spec.maxRows + 1) throw new AppError('BAD_REQUEST', spec.messages.tooManyRows);
    table = [];
    sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const cells: Cell[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = plainCell(cell.value);
      });
      table[rowNumber - 1] = cells;
    });
  } else {
    const text = file.toString('utf8').replace(/^\uFEFF/, '');
    table = Papa.parse<string[]>(text, { skipEmptyLines: false }).data;
  }
  const header = (table[0] ?? []).map(normaliseHeader);
  while (header.length > 0 && header.at(-1) === '') header.pop();
  if (header.length === 0) throw new AppError('BAD_REQUEST', spec.messages.noRows);
  const known = new Set<string>(spec.columns);
  // No prototype: column names come from the file (`constructor`, `__proto__`).
  const headerErrors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  header.forEach((column, index) => {
    if (column === '' || !known.has(column))
      (headerErrors[column || `column_${index + 1}`] ??= []).push(spec.messages.unknownColumn(column || `#${index + 1}`));
  });
  for (const column of spec.required) if (!header.includes(column)) (headerErrors[column] ??= []).push(spec.messages.missingColumn(column));
  if (Object.keys(headerErrors).length > 0) throw new AppError('VALIDATION_FAILED', Object.values(headerErrors)[0]![0]!, headerErrors);

  const rows: Array<UploadTableRow<C>> = [];
  for (let index = 1; index < table.length; index++) {
    const raw = table[index] ?? [];
    const cells: Partial<Record<C, Cell>> = {};
    let empty = true;
    header.forEach((column, c) => {
      const value = raw[c];
      const cell = typeof value === 'string' ? value.trim() : (value ?? null);
      if (cell !== null && cell !== '') empty = false;
      cells[column as C] = cell === '' ? null : cell;
    });
    if (empty) continue;
    rows.push({ row: index + 1, cells });
    if (rows.length > spec.maxRows) throw new AppError('BAD_REQUEST', spec.messages.tooManyRows);
  }
  if (rows.length === 0) throw new AppError('BAD_REQUEST', spec.messages.noRows);
  return rows;
}

/** Header + rows of a quote upload (`readUploadTableOf` with the quote columns). */
export const readUploadTable = (file: Buffer): Promise<UploadRow[]> =>
  readUploadTableOf(file, {
    columns: QUOTE_UPLOAD_COLUMNS,
    required: QUOTE_UPLOAD_REQUIRED_COLUMNS,
    maxRows: QUOTE_UPLOAD_MAX_ROWS,
    messages: { ...QUOTE_UPLOAD_MESSAGES, noSheet: QUOTE_UPLOAD_MESSAGES.unreadable },
  });

/** A number cell (quote and inventory uploads): blank → undefined; text that is not a number stays text so the schema says 'Should be number'. */
export const numberCell = (cell: Cell | undefined): unknown => {
  if (cell === null || cell === undefined) return undefined;
  if (typeof cell === 'number') return cell;
  const text = String(cell).replace(/,/g, '').trim();
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : cell;
};
/**
 * A size cell: face value in rupees (issue 12 §1), a number or text with lakh/crore shorthand ('5cr',
 * '50 L', '5,00,00,000'). Unreadable text gives its message and a placeholder the schema accepts.
 */
const sizeCell = (cell: Cell | undefined): { value: unknown; error?: string } => {
  if (cell === null || cell === undefined) return { value: undefined };
  if (typeof cell === 'number') return { value: cell };
  const check = checkFaceValue(String(cell));
  return check.ok ? { value: check.rupees } : { value: 1, error: check.message };
};
const textCell = (cell: Cell | undefined): string | undefined => (cell === null || cell === undefined ? undefined : String(cell));

/** Where a payload field is shown in the file. */
const COLUMN_OF_FIELD: Record<string, QuoteUploadColumn | 'row'> = {
  finstrument_id: 'isin',
  quote_type: 'quote_type',
  quantum: 'quantum',
  unit_price_stored: 'price',
  yield_stored: 'yield',
  validity: 'validity',
  settlement: 'settlement_date',
  settlement_delta: 'settlement_delta',
  state: 'state',
  end_client_id: 'end_client_id',
  expiry_date_stored: 'validity',
};
export const columnOfField = (field: string): string => COLUMN_OF_FIELD[field] ?? 'row';

/**
 * One row → the single-create payload, validated by `QuoteCreateSchema` itself. `finstrumentId` is the
 * bond the row's ISIN names (undefined when unknown: the service reports it). Yield is read in percent;
 * quantum is face value in rupees, a whole number of bonds of `perBond` rupees when the bond is known.
 */
export function parseUploadRow(
  row: UploadRow,
  finstrumentId: number | undefined,
  perBond?: number,
): { ok: true; input: QuoteCreate } | { ok: false; errors: UploadRowError[] } {
  const errors: UploadRowError[] = [];
  const c = row.cells;
  const price = numberCell(c.price);
  const yieldPercent = numberCell(c.yield);
  if (price !== undefined && yieldPercent !== undefined)
    errors.push({ row: row.row, field: 'price', message: MARKET_MESSAGES.bothPriceAndYield });
  const isin = textCell(c.isin)?.toUpperCase();
  if (!isin) errors.push({ row: row.row, field: 'isin', message: MESSAGES.required });
  else if (finstrumentId === undefined) errors.push({ row: row.row, field: 'isin', message: QUOTE_UPLOAD_MESSAGES.bondNotFound });
  const delta = numberCell(c.settlement_delta);
  const size = sizeCell(c.quantum);
  const payload: Record<string, unknown> = {
    finstrument_id: finstrumentId ?? 1,
    quantum: size.value,
    ...(textCell(c.quote_type) ? { quote_type: textCell(c.quote_type) } : {}),
    ...(price !== undefined ? { fixed_field: 'price', unit_price_stored: price } : {}),
    ...(yieldPercent !== undefined
      ? { fixed_field: 'yield', yield_stored: typeof yieldPercent === 'number' ? Number((yieldPercent / 100).toFixed(6)) : yieldPercent }
      : {}),
    ...(numberCell(c.validity) !== undefined ? { validity: numberCell(c.validity) } : {}),
    ...(textCell(c.settlement_date) ? { settlement: textCell(c.settlement_date) } : {}),
    ...(delta !== undefined ? { settlement_delta: delta } : {}),
    ...(textCell(c.state) ? { state: textCell(c.state)!.toUpperCase() } : {}),
    ...(textCell(c.end_client_id) ? { end_client_id: textCell(c.end_client_id) } : {}),
    source: 'UPLOAD',
  };
  if (price === undefined && yieldPercent === undefined) errors.push({ row: row.row, field: 'yield', message: MESSAGES.required });
  const parsed = QuoteCreateSchema.safeParse(payload);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = columnOfField(String(issue.path[0] ?? ''));
      // Already reported above (no price or yield at all).
      if ((field === 'yield' || field === 'price') && price === undefined && yieldPercent === undefined) continue;
      if (!errors.some((e) => e.field === field && e.message === issue.message))
        errors.push({ row: row.row, field, message: issue.message });
    }
  }
  const sizeError = size.error ?? (parsed.success && perBond !== undefined ? quantumError(parsed.data.quantum, perBond) : null);
  if (sizeError) errors.push({ row: row.row, field: 'quantum', message: sizeError });
  if (errors.length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

/**
 * The template offered for download: the columns and two example rows (one by yield, one by price).
 * quantum is face value in rupees: a plain number (₹5 Cr) or lakh/crore shorthand ('2.5cr').
 */
export const TEMPLATE_EXAMPLE_ROWS: ReadonlyArray<Partial<Record<QuoteUploadColumn, string | number>>> = [
  { isin: 'IN0020220151', quote_type: 'BID', quantum: 50_000_000, yield: 7.05, validity: 1440, settlement_delta: 1 },
  { isin: 'IN0020220151', quote_type: 'ASK', quantum: '2.5cr', price: 101.25, validity: 60, settlement_delta: 1, state: 'FIRM' },
];

/** A CSV template (the example values are plain: no cell starts with = + - @, so nothing is a formula). */
export function templateCsv(): string {
  const lines = [QUOTE_UPLOAD_COLUMNS.join(',')];
  for (const example of TEMPLATE_EXAMPLE_ROWS) lines.push(QUOTE_UPLOAD_COLUMNS.map((column) => String(example[column] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function templateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Quotes');
  sheet.columns = QUOTE_UPLOAD_COLUMNS.map((column) => ({ header: column, key: column, width: Math.max(12, column.length + 4) }));
  for (const example of TEMPLATE_EXAMPLE_ROWS) sheet.addRow(example);
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
