/** Display formats: mm/dd/yy dates (spec §9) and Indian digit grouping. */
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
