import { Alert, Badge, Button, EmptyState, Group, Pagination, Paper, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { AlertIcon, ShieldIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatCount, formatDateTime } from '../../../lib/format';
import { AUDIT_PAGE_SIZE, useAuditEntries } from '../api/get-audit-entries';

/** Colour of an action badge by what kind of event it is. */
function actionColor(action: string): string {
  if (/fail|denied|reuse|revok|lock/i.test(action)) return 'red';
  if (/login|sign|token|otp/i.test(action)) return 'dart';
  if (/create|register|invite/i.test(action)) return 'teal';
  return 'gray';
}

/** The append-only audit trail: who did what, when, from where. Read-only. */
export function AuditTrail() {
  const [page, setPage] = useState(1);
  const query = useAuditEntries(page);

  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the audit trail" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{describeError(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / AUDIT_PAGE_SIZE)) : 1;

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="lg" py="md">
        <div>
          <Text fw={600}>Audit trail</Text>
          <Text size="sm" c="dimmed" aria-live="polite">
            {data ? `${formatCount(data.count)} events, newest first` : 'Loading events…'}
          </Text>
        </div>
        <Button variant="default" size="xs" onClick={() => void query.refetch()} loading={query.isFetching}>
          Refresh
        </Button>
      </Group>
      {!data ? (
        <Stack px="lg" pb="lg" gap="xs" aria-busy="true">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      ) : data.results.length === 0 ? (
        <EmptyState
          py="xl"
          icon={<ShieldIcon size={28} />}
          withIndicatorBackground
          title="No events yet"
          description="Sign-ins, registrations and every change to your organisation's data will be recorded here."
        />
      ) : (
        <ScrollArea>
          <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing="lg" miw={820} aria-label="Audit trail">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Entity</Table.Th>
                <Table.Th>IP address</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
              {data.results.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatDateTime(entry.at)}</Table.Td>
                  <Table.Td>
                    {entry.actor_email ?? (
                      <Text span c="dimmed" size="sm">
                        system
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={actionColor(entry.action)} radius="sm" tt="none">
                      {entry.action_label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{entry.entity_label}</Text>
                    {entry.entity_name ? (
                      <Text size="xs" c="dimmed">
                        {entry.entity_name}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{entry.ip ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {data && totalPages > 1 ? (
        <Group justify="space-between" px="lg" py="md">
          <Text size="sm" c="dimmed">
            Page {formatCount(page)} of {formatCount(totalPages)}
          </Text>
          <Pagination total={totalPages} value={page} onChange={setPage} size="sm" aria-label="Audit trail pages" />
        </Group>
      ) : null}
    </Paper>
  );
}
