import { HttpError } from '@dart/client';
import { describeError } from '../../../lib/errors';

/** The server's field errors (`errors: { field: [messages] }`), first message per field, and the sentence to show. */
export function serverErrors(error: unknown): { fields: Record<string, string>; message: string } {
  const fields: Record<string, string> = {};
  if (error instanceof HttpError && error.body.errors)
    for (const [field, messages] of Object.entries(error.body.errors)) if (messages[0]) fields[field] = messages[0];
  return { fields, message: describeError(error) };
}

/** Today in India (yyyy-mm-dd): trade dates and book dates are IST dates. */
export const istToday = (now = new Date()) => new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** A price typed per ₹100 ('101.25'): the number, or null when it is not one. */
export function readNumber(text: string): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '' || !/^-?\d*(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}
