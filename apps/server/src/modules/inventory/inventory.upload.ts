/**
 * `POST api/inventory/upload/`: reads a holdings file (CSV or XLSX) into rows and checks each one. The file
 * checks are the quote upload's own (market/quote-upload.ts): the type from the magic bytes, the XLSX zip's
 * central directory read before anything is inflated (entry count, uncompressed size, no VBA project), exceljs
 * for OOXML (no external entities). Pure: no database, no Fastify; the service stores.
 */
import {
  checkFaceValue,
  INVENTORY_MESSAGES,
  INVENTORY_UPLOAD_COLUMNS,
  INVENTORY_UPLOAD_MAX_ROWS,
  INVENTORY_UPLOAD_REQUIRED_COLUMNS,
  InventoryUploadRowSchema,
  MESSAGES,
  quantumError,
  type InventoryUploadColumn,
  type InventoryUploadRow,
} from '@dart/contracts';
import ExcelJS from 'exceljs';
import { numberCell, readUploadTableOf, type Cell, type UploadTableRow } from '../market/quote-upload';

export type HoldingRow = UploadTableRow<InventoryUploadColumn>;

/** A refused file with every row error, carried to the HTTP edge (400 with `row_errors`). */
export class InventoryRowsError extends Error {
  constructor(readonly rowErrors: RowError[]) {
    super(INVENTORY_MESSAGES.rowsInvalid(new Set(rowErrors.map((e) => e.row)).size));
    this.name = 'InventoryRowsError';
  }
}

export interface RowError {
  row: number;
  field: string;
  message: string;
}

/** Header and rows of the first worksheet or the CSV, read and checked as the quote upload reads its file. */
export const readHoldings = (file: Buffer): Promise<HoldingRow[]> =>
  readUploadTableOf(file, {
    columns: INVENTORY_UPLOAD_COLUMNS,
    required: INVENTORY_UPLOAD_REQUIRED_COLUMNS,
    maxRows: INVENTORY_UPLOAD_MAX_ROWS,
    messages: { ...INVENTORY_MESSAGES, unreadable: INVENTORY_MESSAGES.unsupported, noSheet: INVENTORY_MESSAGES.noRows },
  });

const textCell = (cell: Cell | undefined): string | undefined => (cell === null || cell === undefined ? undefined : String(cell));

/**
 * One row → a checked holding. `perBond` is the face value of one bond of the ISIN's bond (undefined when the
 * ISIN is unknown: reported on `isin`); `today` the IST date (a holding dated later is refused).
 */
export function parseHoldingRow(
  row: HoldingRow,
  perBond: number | undefined,
  today: string,
): { ok: true; holding: InventoryUploadRow } | { ok: false; errors: RowError[] } {
  const errors: RowError[] = [];
  const c = row.cells;
  const size =
    c.face_value === null || c.face_value === undefined
      ? undefined
      : checkFaceValue(typeof c.face_value === 'boolean' ? String(c.face_value) : c.face_value);
  const payload: Record<string, unknown> = {
    isin: textCell(c.isin) ?? '',
    face_value: size === undefined ? undefined : size.ok ? size.rupees : 1,
    valuation_cost: numberCell(c.valuation_cost),
    ...(textCell(c.date) ? { date: textCell(c.date) } : {}),
    ...(textCell(c.account) ? { account: textCell(c.account) } : {}),
  };
  const parsed = InventoryUploadRowSchema.safeParse(payload);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'row');
      const message = field === 'isin' && !textCell(c.isin) ? MESSAGES.required : issue.message;
      if (!errors.some((e) => e.field === field)) errors.push({ row: row.row, field, message });
    }
  if (size && !size.ok && !errors.some((e) => e.field === 'face_value'))
    errors.push({ row: row.row, field: 'face_value', message: size.message });
  if (parsed.success && perBond === undefined) errors.push({ row: row.row, field: 'isin', message: INVENTORY_MESSAGES.bondNotFound });
  if (parsed.success && perBond !== undefined && size?.ok) {
    const sizeError = quantumError(parsed.data.face_value, perBond);
    if (sizeError) errors.push({ row: row.row, field: 'face_value', message: sizeError });
  }
  if (parsed.success && parsed.data.date && parsed.data.date > today)
    errors.push({ row: row.row, field: 'date', message: INVENTORY_MESSAGES.dateInFuture });
  if (errors.length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, holding: parsed.data };
}

/** The template: the columns and two example rows of real bonds (7.26% GS 2033, an HDFC Bank NCD). */
export const TEMPLATE_ROWS: ReadonlyArray<Record<InventoryUploadColumn, string | number>> = [
  { isin: 'IN0020220151', face_value: '5cr', valuation_cost: 101.25, date: '', account: 'AFS' },
  { isin: 'INE040A08955', face_value: 10_000_000, valuation_cost: 99.8, date: '', account: 'HTM' },
];

export function templateCsv(): string {
  const lines = [INVENTORY_UPLOAD_COLUMNS.join(',')];
  for (const example of TEMPLATE_ROWS) lines.push(INVENTORY_UPLOAD_COLUMNS.map((column) => String(example[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function templateXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Holdings');
  sheet.columns = INVENTORY_UPLOAD_COLUMNS.map((column) => ({ header: column, key: column, width: Math.max(14, column.length + 4) }));
  for (const example of TEMPLATE_ROWS) sheet.addRow(example);
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
