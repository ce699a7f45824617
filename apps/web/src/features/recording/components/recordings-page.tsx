import { Alert, Badge, Button, Card, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { HttpError } from '@dart/client';
import { useState } from 'react';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useRecordingSettings } from '../api/recording-settings';
import { useRecording, useRecordings } from '../api/recordings';
import { SessionReplay } from './session-replay';

const formatBytes = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The ops admin's recordings of their own firm (README "Who may see"), and the replay of the one chosen. */
export function RecordingsPage() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const settings = useRecordingSettings();
  // Off (the default): the list is not even asked for.
  const list = useRecordings(page, settings.data?.enabled === true);
  const detail = useRecording(selected);

  if (settings.isPending || (settings.data?.enabled && list.isPending)) return <Loader aria-label="Loading recordings" />;
  if (settings.error || settings.data?.enabled === false || list.error || !list.data) {
    const off = settings.data?.enabled === false || (list.error instanceof HttpError && list.error.status === 404);
    return (
      <Alert color={off ? 'gray' : 'red'} title={off ? 'Session recording is off' : 'Recordings could not be loaded'}>
        {off ? 'This deployment does not record sessions. It is switched on with SESSION_RECORDING=on.' : 'Please try again in a moment.'}
      </Alert>
    );
  }
  const { results, count, page_size: pageSize, retention_days: retentionDays } = list.data;
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        Every typed value is masked in the browser before it is sent. Recordings are kept {retentionDays} days.
      </Text>
      {results.length === 0 ? (
        <Text c="dimmed">No recordings yet.</Text>
      ) : (
        <Table striped highlightOnHover aria-label="Session recordings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Last activity</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((row) => (
              <Table.Tr key={row.id} data-recording-id={row.id}>
                <Table.Td>
                  <Text size="sm">{row.user_name}</Text>
                  <Text size="xs" c="dimmed">
                    {row.user_email}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(row.started_at)}</Table.Td>
                <Table.Td>{row.last_event_at ? formatDateTime(row.last_event_at) : '—'}</Table.Td>
                <Table.Td>{formatCount(row.event_count)}</Table.Td>
                <Table.Td>{formatBytes(row.bytes)}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant={selected === row.id ? 'filled' : 'light'} onClick={() => setSelected(row.id)}>
                    Replay
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {count > pageSize ? <Pagination total={Math.ceil(count / pageSize)} value={page} onChange={setPage} /> : null}
      {selected ? (
        <Card withBorder>
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="lg">
              Replay
            </Title>
            {detail.data ? <Badge variant="light">{detail.data.user_email}</Badge> : null}
          </Group>
          {detail.isPending ? <Loader aria-label="Loading the recording" /> : null}
          {detail.error ? <Alert color="red">The recording could not be loaded.</Alert> : null}
          {detail.data ? <SessionReplay events={detail.data.events} /> : null}
        </Card>
      ) : null}
    </Stack>
  );
}
