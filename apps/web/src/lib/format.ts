/**
 * Display formats: dates in the user's format (the spec's mm/dd/yy by default, dd/mm/yy or DD-Mon-YYYY
 * from the profile), Indian digit grouping, yields in %, prices per ₹100. Every date the web app shows
 * goes through formatDate / formatDateTime, which read the preference at call time (lib/display-preferences).
 */
import { bondCount, formatBondCount, formatFaceValue, formatIndianNumber, type DateFormat } from '@dart/contracts';
import { getDisplayPreferences } from './display-preferences';

const pad = (value: number): string => String(value).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** A calendar date with no time of day: `2033-04-15` (a maturity, a settlement date). */
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CalendarParts {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

/** Writes a calendar date in one of the three formats: 11/25/26, 25/11/26 or 25-Nov-2026. */
export function writeDate({ year, month, day }: CalendarParts, format: DateFormat): string {
  const yy = pad(((year % 100) + 100) % 100);
  if (format === 'dd/mm/yy') return `${pad(day)}/${pad(month)}/${yy}`;
  if (format === 'DD-Mon-YYYY') return `${pad(day)}-${MONTHS[month - 1]}-${String(year).padStart(4, '0')}`;
  return `${pad(month)}/${pad(day)}/${yy}`;
}

/**
 * A date in the user's format. A bare `YYYY-MM-DD` is a calendar date and is written as it is (no time
 * zone can move a maturity by a day); a timestamp is shown in the viewer's local time.
 */
export function formatDate(value: string | Date, format: DateFormat = getDisplayPreferences().date_format): string {
  if (typeof value === 'string') {
    const match = CALENDAR_DATE.exec(value);
    if (match) {
      const parts = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
      return parts.month >= 1 && parts.month <= 12 && parts.day >= 1 && parts.day <= 31 ? writeDate(parts, format) : value;
    }
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return writeDate({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() }, format);
}

/** The date in the user's format and HH:MM:SS (24-hour), in the viewer's local time. */
export function formatDateTime(value: string | Date, format: DateFormat = getDisplayPreferences().date_format): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date, format)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** `DD-Mon-YYYY` at the end of a bond name, as the data writes maturities: "364 DTB 16-Feb-2017". */
const NAME_DATE = /(\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{4})$/;

/**
 * A bond's display name with its embedded maturity in the user's format. The data (like NSE, BSE and NSDL)
 * writes names with a DD-Mon-YYYY maturity ("HDFC LTD NCD 10-Jun-2027"); a user who chose dd/mm/yy sees
 * "HDFC LTD NCD 10/06/27". Under the spec's default mm/dd/yy, as under DD-Mon-YYYY, the name stays the
 * market's name: a month-first date inside a name would misread as the market's day-first one (a
 * documented decision). Names without a date ("7.18% GS 2033") are unchanged.
 */
export function formatBondName(name: string, format: DateFormat = getDisplayPreferences().date_format): string {
  if (format !== 'dd/mm/yy') return name;
  const match = NAME_DATE.exec(name);
  if (!match) return name;
  const month = MONTHS.indexOf(match[2] as (typeof MONTHS)[number]) + 1;
  return `${name.slice(0, match.index)}${writeDate({ year: Number(match[3]), month, day: Number(match[1]) }, format)}`;
}

/** A whole count with Indian grouping: 1,23,456. */
export function formatCount(value: number): string {
  return formatIndianNumber(value, 0);
}

/** A yield fraction as a percentage with 4 decimals: 0.0778 → '7.7800%'. */
export function formatYield(fraction: number | null | undefined): string {
  return fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(4)}%`;
}

/** A clean price per ₹100 with 4 decimals. */
export function formatPrice(price: number | null | undefined): string {
  return price === null || price === undefined ? '—' : price.toFixed(4);
}

/**
 * A size (the wire's `quantum`: face value in rupees, issue 12 §1) in ₹ lakh/crore: 50000000 → '₹5 Cr'.
 * Replaces the units format (formatQuantum) of before issue 12.
 */
export function formatSize(rupees: number | null | undefined): string {
  return rupees === null || rupees === undefined ? '—' : formatFaceValue(rupees);
}

/** The bond count of a size: '5,00,000 bonds'; '' when the bond's face value per bond is not known. */
export function formatBonds(rupees: number | null | undefined, perBond: number | null | undefined): string {
  return rupees === null || rupees === undefined || !perBond ? '' : formatBondCount(bondCount(rupees, perBond));
}

/** A size with its bond count where known: '₹5 Cr · 5,00,000 bonds', else '₹5 Cr'. */
export function formatSizeWithCount(rupees: number | null | undefined, perBond: number | null | undefined): string {
  const bonds = formatBonds(rupees, perBond);
  return bonds ? `${formatSize(rupees)} · ${bonds}` : formatSize(rupees);
}
