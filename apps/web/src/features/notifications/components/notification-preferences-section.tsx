import {
  NOTIFICATION_CHANNELS,
  type NotificationCategoryPreference,
  type NotificationChannel,
  type NotificationPreferencesUpdate,
} from '@dart/contracts';
import { HttpError } from '@dart/client';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useNow } from '../../../lib/use-now';
import { useNotificationPreferences, useSnoozeNotifications, useUpdateNotificationPreferences } from '../api/notification-preferences';

/** Until when the snooze runs, on the shared clock (it says "Not snoozed" once the hour is over). */
function SnoozeState({ until }: { until: string | null }) {
  const now = useNow();
  const active = until !== null && new Date(until).getTime() > now;
  return (
    <Text size="sm" c="dimmed" data-testid="notification-snooze-state">
      {active ? `Snoozed until ${formatDateTime(until)}: no toasts, sound, e-mail or SMS` : 'Not snoozed'}
    </Text>
  );
}

const CHANNEL_LABELS: Record<NotificationChannel, string> = { in_app: 'In-app', email: 'E-mail', sms: 'SMS' };

/**
 * The profile's "Notifications" section (issue 15 §3): per category, the in-app inbox, e-mail and SMS (the dev outbox
 * here); a trade-critical category's in-app channel stays on (its switch is locked, the server refuses it too); and
 * snooze for an hour. Each switch saves at once.
 */
export function NotificationPreferencesSection() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const snooze = useSnoozeNotifications();
  const [fieldError, setFieldError] = useState<{ key: string; message: string } | null>(null);

  async function toggle(row: NotificationCategoryPreference, channel: NotificationChannel, on: boolean) {
    setFieldError(null);
    const change: NotificationPreferencesUpdate = { categories: [{ category: row.category, [channel]: on }] };
    try {
      await update.mutateAsync(change);
      showToast({ summary: `${row.label}: ${CHANNEL_LABELS[channel]} ${on ? 'on' : 'off'}`, severity: 'success' });
    } catch (error) {
      const errors = error instanceof HttpError ? error.body.errors : undefined;
      const message = errors ? Object.values(errors).flat()[0] : undefined;
      if (message) setFieldError({ key: `${row.category}.${channel}`, message });
      showToast({ summary: 'Could not save the preference', detail: describeError(error), severity: 'error' });
    }
  }

  async function snoozeForAnHour() {
    try {
      const { snoozed_until } = await snooze.mutateAsync();
      showToast({ summary: `Notifications snoozed until ${formatDateTime(snoozed_until)}`, severity: 'success' });
    } catch (error) {
      showToast({ summary: 'Could not snooze notifications', detail: describeError(error), severity: 'error' });
    }
  }

  const data = preferences.data;

  return (
    <Paper withBorder radius="lg" p="lg" aria-labelledby="notification-preferences-title" component="section">
      <Stack gap="md">
        <div>
          <Title order={2} fz={18} id="notification-preferences-title">
            Notifications
          </Title>
          <Text size="sm" c="dimmed">
            What reaches your bell, e-mail and phone. Counters, matches, deals, tickets and orders always reach the bell.
          </Text>
        </div>
        <Group gap="sm">
          <Button variant="light" onClick={() => void snoozeForAnHour()} loading={snooze.isPending} disabled={!data}>
            Snooze for an hour
          </Button>
          <SnoozeState until={data?.snoozed_until ?? null} />
        </Group>
        {preferences.isPending ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Loading your notification preferences…</Text>
          </Group>
        ) : preferences.isError ? (
          <Alert color="red" title="Could not load your notification preferences">
            <Group justify="space-between">
              <Text size="sm">{describeError(preferences.error)}</Text>
              <Button size="xs" variant="light" onClick={() => void preferences.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : (
          <Table striped verticalSpacing="xs" aria-label="Notification channels by category">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Category</Table.Th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <Table.Th key={channel}>{CHANNEL_LABELS[channel]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data!.categories.map((row) => (
                <Table.Tr key={row.category}>
                  <Table.Td>
                    <Text size="sm">{row.label}</Text>
                    {row.trade_critical && (
                      <Text size="xs" c="dimmed">
                        Trade-critical: always in-app
                      </Text>
                    )}
                  </Table.Td>
                  {NOTIFICATION_CHANNELS.map((channel) => {
                    const key = `${row.category}.${channel}`;
                    // Locked on: a badge, not a greyed switch (a disabled switch reads as "off").
                    if (channel === 'in_app' && row.trade_critical)
                      return (
                        <Table.Td key={channel}>
                          <Badge variant="light" aria-label={`${row.label}: ${CHANNEL_LABELS[channel]} always on`}>
                            Always on
                          </Badge>
                        </Table.Td>
                      );
                    return (
                      <Table.Td key={channel}>
                        <Switch
                          aria-label={`${row.label}: ${CHANNEL_LABELS[channel]}`}
                          checked={row[channel]}
                          disabled={update.isPending}
                          error={fieldError?.key === key ? fieldError.message : undefined}
                          onChange={(event) => void toggle(row, channel, event.currentTarget.checked)}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
