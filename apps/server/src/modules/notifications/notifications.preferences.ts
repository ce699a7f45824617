/**
 * Preference rules (README "Preferences"), pure: a missing row is the default; the in-app channel of a
 * trade-critical category is always on, whatever a row says; a snooze is the latest `snoozed_until` of the user's rows.
 */
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CATEGORY_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_MESSAGES,
  TRADE_CRITICAL_CATEGORIES,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
} from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { PreferenceRow } from './notifications.repository';

export interface UserPreferences {
  enabled(category: NotificationCategory, channel: NotificationChannel): boolean;
  snoozedUntil: Date | null;
  isSnoozed(now: Date): boolean;
}

export const isTradeCritical = (category: string) => (TRADE_CRITICAL_CATEGORIES as readonly string[]).includes(category);

export function preferencesFrom(rows: readonly PreferenceRow[]): UserPreferences {
  const set = new Map(rows.map((r) => [`${r.category}/${r.channel}`, r.enabled]));
  const snoozedUntil = rows.reduce<Date | null>(
    (latest, r) => (r.snoozedUntil && (!latest || r.snoozedUntil > latest) ? r.snoozedUntil : latest),
    null,
  );
  return {
    enabled: (category, channel) => {
      if (channel === 'in_app' && isTradeCritical(category)) return true;
      return set.get(`${category}/${channel}`) ?? DEFAULT_NOTIFICATION_CHANNELS[channel];
    },
    snoozedUntil,
    isSnoozed: (now) => snoozedUntil !== null && snoozedUntil > now,
  };
}

/** Groups rows by user; users without rows get the defaults. */
export function preferencesByUser(rows: readonly PreferenceRow[]): (userId: string) => UserPreferences {
  const grouped = new Map<string, PreferenceRow[]>();
  for (const row of rows) grouped.set(row.userId, [...(grouped.get(row.userId) ?? []), row]);
  const cache = new Map<string, UserPreferences>();
  return (userId) => {
    let prefs = cache.get(userId);
    if (!prefs) {
      prefs = preferencesFrom(grouped.get(userId) ?? []);
      cache.set(userId, prefs);
    }
    return prefs;
  };
}

export function preferencesView(prefs: UserPreferences, now: Date): NotificationPreferences {
  return {
    categories: NOTIFICATION_CATEGORIES.map((category) => ({
      category,
      label: NOTIFICATION_CATEGORY_LABELS[category],
      trade_critical: isTradeCritical(category),
      in_app: prefs.enabled(category, 'in_app'),
      email: prefs.enabled(category, 'email'),
      sms: prefs.enabled(category, 'sms'),
    })),
    snoozed_until: prefs.isSnoozed(now) ? prefs.snoozedUntil!.toISOString() : null,
  };
}

/** The rows a `PUT` writes; refuses switching off a trade-critical category's in-app channel and repeated categories. */
export function preferenceChanges(userId: string, update: NotificationPreferencesUpdate) {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  const rows: Array<{ userId: string; category: string; channel: NotificationChannel; enabled: boolean }> = [];
  update.categories.forEach((entry, i) => {
    if (seen.has(entry.category)) errors[`categories.${i}.category`] = [NOTIFICATION_MESSAGES.duplicateCategory];
    seen.add(entry.category);
    if (entry.in_app === false && isTradeCritical(entry.category)) errors[`categories.${i}.in_app`] = [NOTIFICATION_MESSAGES.tradeCritical];
    for (const channel of NOTIFICATION_CHANNELS) {
      const enabled = entry[channel];
      if (enabled !== undefined) rows.push({ userId, category: entry.category, channel, enabled });
    }
  });
  const first = Object.values(errors)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first[0]!, errors);
  return rows;
}

/** Every (category, channel) row of a user with its current value: what a snooze stamps. */
export function allRows(userId: string, prefs: UserPreferences) {
  return NOTIFICATION_CATEGORIES.flatMap((category) =>
    NOTIFICATION_CHANNELS.map((channel) => ({ userId, category, channel, enabled: prefs.enabled(category, channel) })),
  );
}
