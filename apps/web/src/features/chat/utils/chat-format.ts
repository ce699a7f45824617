/** Display helpers of chat: times, file sizes with Indian digit grouping, initials. */
import { formatIndianNumber } from '@dart/contracts';

const pad = (value: number) => String(value).padStart(2, '0');

/** HH:MM today, else mm/dd/yy (spec §9 default date format). */
export function formatMessageTime(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${pad(date.getFullYear() % 100)}`;
}

/** 1,23,456 bytes → "120.6 KB"; sizes use Indian grouping for the whole part. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${formatIndianNumber(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${formatIndianNumber(bytes / 1024, 1)} KB`;
  return `${formatIndianNumber(bytes / (1024 * 1024), 1)} MB`;
}

/** Unread badge text: Indian grouping, capped at 99+. */
export function formatUnread(count: number): string {
  return count > 99 ? '99+' : formatIndianNumber(count, 0);
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase();
}
