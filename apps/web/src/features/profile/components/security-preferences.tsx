import { SECURITY_PREFERENCES, type SecurityPreferenceKey, type SessionUser } from '@dart/contracts';
import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useSetSecurityPreference } from '../api/set-security-preference';

const KEYS = Object.keys(SECURITY_PREFERENCES) as SecurityPreferenceKey[];

export function SecurityPreferences({ user }: { user: SessionUser }) {
  const setPreference = useSetSecurityPreference();
  const enabled = (key: string): boolean =>
    user.user_info.user_security_preferences.some((preference) => preference.key === key && preference.enabled);

  async function toggle(key: SecurityPreferenceKey, value: boolean) {
    try {
      await setPreference.mutateAsync({ key, enabled: value });
      showToast({ summary: 'Security preference saved', severity: 'success' });
    } catch (error) {
      showToast({ summary: 'Could not save the preference', detail: describeError(error), severity: 'error' });
    }
  }

  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="md">
        <div>
          <Title order={2} fz={18}>
            Security
          </Title>
          <Text size="sm" c="dimmed">
            How Dart protects your sign-in.
          </Text>
        </div>
        {KEYS.map((key) => (
          <Switch
            key={key}
            label={SECURITY_PREFERENCES[key]}
            checked={enabled(key)}
            disabled={setPreference.isPending && setPreference.variables?.key === key}
            onChange={(event) => void toggle(key, event.currentTarget.checked)}
          />
        ))}
      </Stack>
    </Paper>
  );
}
