/**
 * The Chats section's period: IST calendar days as the form holds them (`yyyy-mm-dd`, both included), checked with
 * the server's schema; as the messages call's query; and as the instants `POST /api/download-chats` takes.
 */
import { SurveillanceChatMessagesQuerySchema } from '@dart/contracts';

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

export interface ChatPeriod {
  /** First IST day included, or '' (from the chat's start). */
  from: string;
  /** Last IST day included, or '' (up to now). */
  to: string;
}

/** The IST calendar day of an instant, `yyyy-mm-dd`. */
export function istDayOf(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant an IST day starts (`plusDays` later). */
export function istDayStart(day: string, plusDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + plusDays) - IST_OFFSET_MS);
}

/** The last `days` IST days up to today (today included). */
export function defaultChatPeriod(now: Date, days = 30): ChatPeriod {
  return { from: istDayOf(new Date(now.getTime() - (days - 1) * DAY_MS)), to: istDayOf(now) };
}

/** The messages call's query; empty days are left out. */
export function toChatPeriodQuery(period: ChatPeriod): { from?: string; to?: string } {
  return { ...(period.from ? { from: period.from } : {}), ...(period.to ? { to: period.to } : {}) };
}

/** Field errors of the period, from the schema the server validates with (empty when valid). */
export function chatPeriodErrors(period: ChatPeriod): Partial<Record<keyof ChatPeriod, string>> {
  const parsed = SurveillanceChatMessagesQuerySchema.safeParse(toChatPeriodQuery(period));
  if (parsed.success) return {};
  const errors: Partial<Record<keyof ChatPeriod, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0]);
    if ((key === 'from' || key === 'to') && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/**
 * The transcript's time range: the start of the first day (else the chat's creation) to the end of the last day
 * (else a minute from now, so a message sent just now is in it).
 */
export function exportRange(period: ChatPeriod, chatCreatedAt: string, now: Date): { startTime: string; endTime: string } {
  const start = period.from ? istDayStart(period.from) : new Date(chatCreatedAt);
  const end = period.to ? istDayStart(period.to, 1) : new Date(now.getTime() + 60_000);
  return { startTime: start.toISOString(), endTime: end.toISOString() };
}

/** The period in words ("2026-01-01 to 2026-01-31 (IST)"). */
export function describePeriod(period: ChatPeriod): string {
  if (period.from && period.to) return `${period.from} to ${period.to} (IST)`;
  if (period.from) return `from ${period.from} (IST)`;
  if (period.to) return `up to ${period.to} (IST)`;
  return 'the whole chat';
}
