/**
 * CSV for the audit export (RFC 4180: comma-separated, CRLF rows, quoted when a cell holds a comma,
 * quote or line break). A cell a spreadsheet would run as a formula (starting with = + - @, or a tab
 * or carriage return) is prefixed with an apostrophe: the OWASP "CSV injection" guard, because a
 * trail entry carries text users typed (names, chat messages, search reasons).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Byte-order mark first, so spreadsheet programs read the file as UTF-8 (₹, names in Indian scripts). */
export const CSV_BOM = '\uFEFF';

const IST_OFFSET_MS = 330 * 60_000;

/** `2025-08-21 14:05:09`: the instant in India Standard Time (UTC+05:30, no daylight saving). */
export function formatIstDateTime(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The IST calendar day of an instant, `yyyy-mm-dd`. */
export function istDay(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The first instant of an IST calendar day (`yyyy-mm-dd`), `plusDays` later. */
export function istDayStart(day: string, plusDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + plusDays) - IST_OFFSET_MS);
}
