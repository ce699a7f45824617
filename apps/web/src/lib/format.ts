/** Display formats: mm/dd/yy dates (spec §9), Indian digit grouping, yields in %, prices per ₹100. */
import { formatIndianNumber } from '@dart/contracts';

const pad = (value: number): string => String(value).padStart(2, '0');

/** mm/dd/yy in the viewer's local time. */
export function formatDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${pad(date.getFullYear() % 100)}`;
}

/** mm/dd/yy HH:MM:SS (24-hour) in the viewer's local time. */
export function formatDateTime(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
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

/** Units in Indian grouping: 1500000 → '15,00,000'. */
export function formatQuantum(units: number | null | undefined): string {
  return units === null || units === undefined ? '—' : formatIndianNumber(units, 0);
}
