import { AUDIT_CATEGORIES, type AuditCategory } from '@dart/contracts';
import { Badge, Button, Group, Pagination, Paper, ScrollArea, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { SearchIcon, ShieldIcon } from '../../../components/ui/icons';
import { formatCount, formatDateTime } from '../../../lib/format';
import { exportAuditCsv } from '../api/export-audit-csv';
import { AUDIT_PAGE_SIZE, useAuditEntries, type AuditEntry } from '../api/get-audit-entries';
import { useAuditUsers } from '../api/get-audit-users';
import { auditFilterErrors, countActiveAuditFilters, EMPTY_AUDIT_FILTERS, type AuditFilters } from '../utils/audit-filters';
import { AuditIntegrityStatus } from './audit-integrity';
import { ListStates } from './list-states';
import { useFileSave } from '../hooks/use-file-save';

const CATEGORY_OPTIONS = Object.entries(AUDIT_CATEGORIES).map(([value, label]) => ({ value, label }));

/** Colour of an action badge by what kind of event it is. */
function actionColor(entry: AuditEntry): string {
  if (/fail|denied|reuse|revok|ban|declin/i.test(entry.action)) return 'red';
  if (entry.category === 'auth') return 'dart';
  if (entry.category === 'deal' || /created|registered|invite/i.test(entry.action)) return 'teal';
  return 'gray';
}

/** The append-only audit trail in words: who did what, when, on what; filtered and exported on the server. Read-only. */
export function AuditTrail() {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const csv = useFileSave({ summary: 'Export ready', detail: 'The audit trail was saved as a CSV file.' }, 'Export failed');
  const [debouncedSearch] = useDebouncedValue(filters.search, 300);
  const applied = useMemo(() => ({ ...filters, search: debouncedSearch }), [filters, debouncedSearch]);
  const errors = auditFilterErrors(filters);
  const valid = Object.keys(errors).length === 0;
  const query = useAuditEntries(applied, page, valid);
  const users = useAuditUsers();
  const active = countActiveAuditFilters(filters);

  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  };

  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / AUDIT_PAGE_SIZE)) : 1;
  const userOptions = (users.data?.results ?? []).map((user) => ({ value: user.id, label: user.name || user.email }));

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="lg" pt="md" pb="xs" wrap="wrap">
        <div>
          <Text fw={600}>Audit trail</Text>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="audit-count">
            {!valid ? 'Correct the filters to see events' : data ? `${formatCount(data.count)} events, newest first` : 'Loading events…'}
          </Text>
          <AuditIntegrityStatus />
        </div>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => void query.refetch()} loading={query.isFetching} disabled={!valid}>
            Refresh
          </Button>
          <Button
            size="xs"
            onClick={() => void csv.save(() => exportAuditCsv(applied))}
            loading={csv.saving}
            disabled={!valid || data?.count === 0}
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      <form role="search" aria-label="Filter the audit trail" onSubmit={(event) => event.preventDefault()}>
        <Group px="lg" pb="md" gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            type="date"
            label="From"
            value={filters.from}
            onChange={(event) => set('from', event.currentTarget.value)}
            error={errors.from}
            w={150}
            size="xs"
          />
          <TextInput
            type="date"
            label="To"
            value={filters.to}
            onChange={(event) => set('to', event.currentTarget.value)}
            error={errors.to}
            w={150}
            size="xs"
          />
          <Select
            label="User"
            placeholder="All users"
            data={userOptions}
            value={filters.userId}
            onChange={(value) => set('userId', value)}
            searchable
            clearable
            nothingFoundMessage="No user of your firm matches"
            error={errors.userId}
            w={200}
            size="xs"
          />
          <Select
            label="Action"
            placeholder="All actions"
            data={CATEGORY_OPTIONS}
            value={filters.category}
            onChange={(value) => set('category', value as AuditCategory | null)}
            clearable
            w={190}
            size="xs"
          />
          <TextInput
            label="Search"
            placeholder="Person, firm, bond, chat or action"
            leftSection={<SearchIcon size={14} />}
            value={filters.search}
            onChange={(event) => set('search', event.currentTarget.value)}
            error={errors.search}
            w={260}
            size="xs"
          />
          {active > 0 ? (
            <Button
              variant="subtle"
              size="xs"
              mt={22}
              onClick={() => {
                setFilters(EMPTY_AUDIT_FILTERS);
                setPage(1);
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </Group>
      </form>
      <ListStates
        query={query}
        valid={valid}
        hasData={Boolean(data)}
        isEmpty={data?.results.length === 0}
        narrowed={active > 0}
        errorTitle="Could not load the audit trail"
        noMatch={{
          title: 'No events match these filters',
          description: 'Widen the dates, choose another user or action, or clear the filters.',
        }}
        none={{
          icon: <ShieldIcon size={28} />,
          title: 'No events yet',
          description: "Sign-ins, registrations and every change to your organisation's data will be recorded here.",
        }}
        skeletonRows={8}
        skeletonHeight={28}
      >
        {data ? (
          <ScrollArea>
            <Table striped highlightOnHover verticalSpacing={4} horizontalSpacing="md" miw={980} fz="sm" aria-label="Audit trail">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>On</Table.Th>
                  <Table.Th>Details</Table.Th>
                  <Table.Th>IP address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
                {data.results.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatDateTime(entry.at)}</Table.Td>
                    <Table.Td>
                      {entry.actor_name ?? entry.actor_email ?? (
                        <Text span c="dimmed" size="sm">
                          System
                        </Text>
                      )}
                      {entry.actor_client_name ? (
                        <Text size="xs" c="dimmed">
                          {entry.actor_client_name}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={actionColor(entry)} radius="sm" tt="none" fw={500}>
                        {entry.action_label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{entry.entity_name ?? entry.entity_label}</Text>
                      {entry.entity_name ? (
                        <Text size="xs" c="dimmed">
                          {entry.entity_label}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td maw={360}>
                      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                        {entry.details || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{entry.ip ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : null}
      </ListStates>
      {valid && data && totalPages > 1 ? (
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
