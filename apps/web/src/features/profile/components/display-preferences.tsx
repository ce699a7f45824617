import { DATE_FORMAT_LABELS, DATE_FORMATS, type DateFormat, type DisplayPreferencesUpdate, type SessionUser } from '@dart/contracts';
import { HttpError } from '@dart/client';
import { Group, Paper, Radio, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useDisplayPreferences } from '../../../lib/display-preferences';
import { describeError } from '../../../lib/errors';
import { formatBondName, formatDate } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useUpdateDisplayPreferences } from '../api/display-preferences';

/** A date and a bond whose name carries its maturity, to show what the choice does. */
const EXAMPLE_DATE = '2026-11-25';
const EXAMPLE_BOND = 'GS STRIPS 02-Jan-2036';

/**
 * The profile's "Display & sounds" section (issue 12 §5 fixes 5 and 11): the date format every date and
 * bond name follows, and the toast sounds' mute. Any role may change them; each change is saved at once.
 */
export function DisplayPreferencesSection({ user }: { user: SessionUser }) {
  const preferences = useDisplayPreferences();
  const update = useUpdateDisplayPreferences(user.user_info.id);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof DisplayPreferencesUpdate, string>>>({});

  async function save(change: DisplayPreferencesUpdate, saved: string) {
    setFieldErrors({});
    try {
      await update.mutateAsync(change);
      showToast({ summary: saved, severity: 'success' });
    } catch (error) {
      const errors = error instanceof HttpError ? error.body.errors : undefined;
      setFieldErrors({ date_format: errors?.date_format?.[0], sounds_enabled: errors?.sounds_enabled?.[0] });
      showToast({ summary: 'Could not save the preference', detail: describeError(error), severity: 'error' });
    }
  }

  return (
    <Paper withBorder radius="lg" p="lg" aria-labelledby="display-preferences-title" component="section">
      <Stack gap="md">
        <div>
          <Title order={2} fz={18} id="display-preferences-title">
            Display &amp; sounds
          </Title>
          <Text size="sm" c="dimmed">
            How dates look everywhere in Dart, and whether toasts play a sound. Saved to your account.
          </Text>
        </div>
        <Radio.Group
          label="Date format"
          description="Dates in tables, bond pages and bond names."
          value={preferences.date_format}
          error={fieldErrors.date_format}
          onChange={(value) => void save({ date_format: value as DateFormat }, 'Date format saved')}
        >
          <Group gap="lg" mt="xs">
            {DATE_FORMATS.map((format) => (
              <Radio key={format} value={format} label={DATE_FORMAT_LABELS[format]} disabled={update.isPending} />
            ))}
          </Group>
        </Radio.Group>
        <Text size="sm" data-testid="date-format-preview">
          Example: <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatDate(EXAMPLE_DATE)}</span> · {formatBondName(EXAMPLE_BOND)}
        </Text>
        <Switch
          label="Play sounds"
          description="An error, success or notification sound with toasts."
          checked={preferences.sounds_enabled}
          error={fieldErrors.sounds_enabled}
          disabled={update.isPending}
          onChange={(event) => {
            const on = event.currentTarget.checked;
            void save({ sounds_enabled: on }, on ? 'Sounds on' : 'Sounds muted');
          }}
        />
      </Stack>
    </Paper>
  );
}
