/**
 * Business quotas (RELIABILITY #34): daily caps on the actions that can flood other firms — quotes
 * and private runs created, exchange RFQs raised, quote updates/replaces (cancel/replace loops) and
 * broadcast chat messages. Days are IST calendar days (the market's day); a cap resets at midnight
 * IST. The spec has no numbers or words for these: they are our choice, generous for a busy desk,
 * and each deployment may lower or raise them (`DAILY_QUOTAS`, see the README).
 */
export const QUOTA_ACTIONS = ['quote.create', 'rfq.raise', 'quote.update', 'chat.broadcast'] as const;
export type QuotaAction = (typeof QUOTA_ACTIONS)[number];
export type QuotaScope = 'user' | 'client';
/** `${action}.${scope}`, e.g. `quote.create.client`. */
export type QuotaKey = `${QuotaAction}.${QuotaScope}`;

export const DEFAULT_DAILY_QUOTAS: Partial<Record<QuotaKey, number>> = {
  'quote.create.user': 5_000,
  'quote.create.client': 20_000,
  'rfq.raise.user': 500,
  'rfq.raise.client': 2_000,
  'quote.update.user': 10_000,
  'chat.broadcast.user': 200,
};

const WHAT: Record<QuotaAction, string> = {
  'quote.create': 'quotes',
  'rfq.raise': 'RFQs',
  'quote.update': 'quote updates',
  'chat.broadcast': 'broadcast messages',
};

/** The 429 text: what ran out, for whom, and when it comes back. */
export function quotaExceededMessage(action: QuotaAction, scope: QuotaScope, limit: number): string {
  const who = scope === 'user' ? 'per user' : 'per firm';
  return `Daily limit reached: at most ${limit.toLocaleString('en-IN')} ${WHAT[action]} a day ${who}. It resets at midnight IST.`;
}
