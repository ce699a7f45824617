/**
 * The signed-in user's display preferences (date format, toast sounds) as a small external store:
 * lib/format.ts and lib/sounds read it at call time, so no component passes it down. The server holds
 * the truth (GET/PATCH api/profile/display-preferences/, loaded by the profile feature after sign-in);
 * a copy in localStorage lets the first paint of the next visit use the user's format at once.
 */
import { DEFAULT_DISPLAY_PREFERENCES, DisplayPreferencesSchema, type DisplayPreferences } from '@dart/contracts';
import { useSyncExternalStore } from 'react';

export const DISPLAY_PREFERENCES_STORAGE_KEY = 'dart.display-preferences';

function readCached(): DisplayPreferences {
  try {
    const raw = globalThis.localStorage?.getItem(DISPLAY_PREFERENCES_STORAGE_KEY);
    if (!raw) return DEFAULT_DISPLAY_PREFERENCES;
    const parsed = DisplayPreferencesSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_DISPLAY_PREFERENCES;
  } catch {
    // Storage blocked or a hand-edited value: the defaults.
    return DEFAULT_DISPLAY_PREFERENCES;
  }
}

let current: DisplayPreferences = readCached();
const listeners = new Set<() => void>();

export function getDisplayPreferences(): DisplayPreferences {
  return current;
}

/** Applies (and caches) preferences, e.g. the server's answer; listeners hear only real changes. */
export function applyDisplayPreferences(next: Partial<DisplayPreferences>): void {
  const merged = { ...current, ...next };
  if (merged.date_format === current.date_format && merged.sounds_enabled === current.sounds_enabled) return;
  current = merged;
  try {
    globalThis.localStorage?.setItem(DISPLAY_PREFERENCES_STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Storage full or blocked: the preference still holds for this page.
  }
  for (const listener of listeners) listener();
}

export function subscribeDisplayPreferences(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders the caller when a preference changes (for screens that show a preview or a date list). */
export function useDisplayPreferences(): DisplayPreferences {
  return useSyncExternalStore(subscribeDisplayPreferences, getDisplayPreferences, getDisplayPreferences);
}
