/** Display formats of the market screens: quote statuses and countdowns (yields, prices and sizes: lib/format). */
import type { QuoteStatus } from '@dart/contracts';

// The yield, price and size formats are shared with chat's private-run cards, so they live in lib.
export { formatBonds, formatPrice, formatSize, formatSizeWithCount, formatYield } from '../../../lib/format';

export const QUOTE_STATUS_LABELS: Record<QuoteStatus, { label: string; color: string; description: string }> = {
  open: { label: 'Open', color: 'teal', description: 'Open in the market.' },
  closed: { label: 'Closed', color: 'gray', description: 'Closed by its owner; it can no longer be traded.' },
  expired: { label: 'Expired', color: 'orange', description: 'Its validity ended; it can no longer be traded.' },
  replaced: { label: 'Replaced', color: 'violet', description: 'Replaced by a newer quote from the same owner.' },
  filled: { label: 'Filled', color: 'blue', description: 'Its whole quantum was dealt.' },
};

/** Time left until an ISO instant, as '2h 05m' / '4m 10s' / 'expired'. */
export function formatTimeLeft(untilIso: string, now: number): string {
  const ms = Date.parse(untilIso) - now;
  if (!Number.isFinite(ms) || ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  if (minutes >= 24 * 60) return `${Math.floor(minutes / 1440)}d ${Math.floor((minutes % 1440) / 60)}h`;
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

/** A countdown's label and state: 'Expired' at the end, urgent (shown red) in the last minute. */
export function countdownState(untilIso: string, now: number): { label: string; urgent: boolean; expired: boolean } {
  const ms = Date.parse(untilIso) - now;
  if (!Number.isFinite(ms) || ms <= 0) return { label: 'Expired', urgent: false, expired: true };
  return { label: formatTimeLeft(untilIso, now), urgent: ms < 60_000, expired: false };
}
