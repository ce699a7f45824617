/**
 * Display preferences of the signed-in user (issue 12 §5 fixes 5 and 11): how dates are written and
 * whether the toast sounds play. Stored on the server with the user so they follow them to another
 * machine; every role may set its own (they change nothing but the user's own screen).
 */
import { z } from 'zod';
import { DEFAULT_DATE_FORMAT } from './constants';

/**
 * Date formats a user may choose: the spec's default `mm/dd/yy` (spec §9), `dd/mm/yy`, and the
 * Indian market's `DD-Mon-YYYY` (25-Nov-2026), the form the bond names of the data carry.
 */
export const DATE_FORMATS = ['mm/dd/yy', 'dd/mm/yy', 'DD-Mon-YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Labels of the profile's date-format choice, each with 25 November 2026 as its example. */
export const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  'mm/dd/yy': 'mm/dd/yy (11/25/26)',
  'dd/mm/yy': 'dd/mm/yy (25/11/26)',
  'DD-Mon-YYYY': 'DD-Mon-YYYY (25-Nov-2026)',
};

export const DATE_FORMAT_MESSAGE = `Choose one of ${DATE_FORMATS.join(', ')}.`;

/** What the server stores and answers. Sounds default on: the spec plays them on error, success and notification toasts. */
export const DisplayPreferencesSchema = z.object({
  date_format: z.enum(DATE_FORMATS),
  sounds_enabled: z.boolean(),
});
export type DisplayPreferences = z.infer<typeof DisplayPreferencesSchema>;

export const DEFAULT_DISPLAY_PREFERENCES: DisplayPreferences = {
  date_format: DEFAULT_DATE_FORMAT,
  sounds_enabled: true,
};

/** PATCH body: any subset of the preferences; unknown keys are refused. */
export const DisplayPreferencesUpdateSchema = z.strictObject({
  date_format: z.enum(DATE_FORMATS, { message: DATE_FORMAT_MESSAGE }).optional(),
  sounds_enabled: z.boolean({ message: 'Sounds must be on (true) or off (false).' }).optional(),
});
export type DisplayPreferencesUpdate = z.infer<typeof DisplayPreferencesUpdateSchema>;

/** GET and PATCH: the caller's own display preferences (no spec path names them; they sit beside PATCH api/profile/). */
export const DISPLAY_PREFERENCES_PATH = '/api/profile/display-preferences/';
