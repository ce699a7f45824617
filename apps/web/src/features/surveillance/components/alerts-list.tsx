import {
  SURVEILLANCE_ALERT_KIND_LABELS,
  SURVEILLANCE_ALERT_STATUS_LABELS,
  type SurveillanceAlertKind,
  type SurveillanceAlertStatus,
} from '@dart/contracts';
import { Badge, Button, Group, Pagination, Paper, ScrollArea, Select, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { ShieldIcon } from '../../../components/ui/icons';
import { formatCount, formatDateTime } from '../../../lib/format';
import { exportAlertsCsv } from '../api/export-alerts';
import { ALERT_PAGE_SIZE, useAlerts } from '../api/get-alerts';
import { useAuditUsers } from '../api/get-audit-users';
import { alertFilterErrors, countActiveAlertFilters, EMPTY_ALERT_FILTERS, type AlertFilters } from '../utils/alert-filters';
import { ALERT_STATUS_COLORS, scoreColor } from '../utils/alert-format';
import { AlertDrawer } from './alert-drawer';
import classes from './surveillance.module.css';
import { ListStates } from './list-states';
import { useFileSave } from '../hooks/use-file-save';

const KIND_OPTIONS = Object.entries(SURVEILLANCE_ALERT_KIND_LABELS).map(([value, label]) => ({ value, label }));
const STATUS_OPTIONS = Object.entries(SURVEILLANCE_ALERT_STATUS_LABELS).map(([value, label]) => ({ value, label }));

/**
 * The firm's surveillance alerts, newest first: filters (kind, status, assignee, IST days of creation) checked with
 * the server's schema, a page of 20, CSV export of the filtered list; a row opens the alert's drawer.
 */
export function AlertsList() {
  const [filters, setFilters] = useState<AlertFilters>(EMPTY_ALERT_FILTERS);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const csv = useFileSave({ summary: 'Alerts exported', detail: 'The filtered alerts were saved as a CSV file.' }, 'Export failed');
  const errors = alertFilterErrors(filters);
  const valid = Object.keys(errors).length === 0;
  const query = useAlerts(filters, page, valid);
  const users = useAuditUsers();
  const active = countActiveAlertFilters(filters);
  const userOptions = (users.data?.results ?? []).map((user) => ({ value: user.id, label: user.name || user.email }));

  const set = <K extends keyof AlertFilters>(key: K, value: AlertFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
    setPage(1);
  };

  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / ALERT_PAGE_SIZE)) : 1;

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }} component="section" aria-labelledby="alerts-heading">
      <Group justify="space-between" px="lg" pt="md" pb="xs" wrap="wrap">
        <div>
          <Text fw={600} id="alerts-heading">
            Alerts
          </Text>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="alerts-count">
            {!valid ? 'Correct the filters to see alerts' : data ? `${formatCount(data.count)} alerts, newest first` : 'Loading alerts…'}
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => void query.refetch()} loading={query.isFetching} disabled={!valid}>
            Refresh alerts
          </Button>
          <Button
            size="xs"
            onClick={() => void csv.save(() => exportAlertsCsv(filters))}
            loading={csv.saving}
            disabled={!valid || data?.count === 0}
          >
            Export alerts (CSV)
          </Button>
        </Group>
      </Group>
      <form role="search" aria-label="Filter the alerts" onSubmit={(event) => event.preventDefault()}>
        <Group px="lg" pb="md" gap="xs" align="flex-start" wrap="wrap">
          <Select
            label="Kind"
            placeholder="All kinds"
            data={KIND_OPTIONS}
            value={filters.kind}
            onChange={(value) => set('kind', value as SurveillanceAlertKind | null)}
            clearable
            w={240}
            size="xs"
          />
          <Select
            label="Status"
            placeholder="Any status"
            data={STATUS_OPTIONS}
            value={filters.status}
            onChange={(value) => set('status', value as SurveillanceAlertStatus | null)}
            clearable
            w={140}
            size="xs"
          />
          <Select
            label="Assignee"
            placeholder="Anyone"
            data={userOptions}
            value={filters.assignee}
            onChange={(value) => set('assignee', value)}
            searchable
            clearable
            nothingFoundMessage="No user of your firm matches"
            error={errors.assignee}
            w={190}
            size="xs"
          />
          <TextInput
            type="date"
            label="Raised from"
            value={filters.from}
            onChange={(event) => set('from', event.currentTarget.value)}
            error={errors.from}
            w={150}
            size="xs"
          />
          <TextInput
            type="date"
            label="Raised to"
            value={filters.to}
            onChange={(event) => set('to', event.currentTarget.value)}
            error={errors.to}
            w={150}
            size="xs"
          />
          {active > 0 ? (
            <Button
              variant="subtle"
              size="xs"
              mt={22}
              onClick={() => {
                setFilters(EMPTY_ALERT_FILTERS);
                setPage(1);
              }}
            >
              Clear alert filters
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
        errorTitle="Could not load the alerts"
        noMatch={{
          title: 'No alerts match these filters',
          description: 'Widen the dates, choose another kind, status or assignee, or clear the filters.',
        }}
        none={{
          icon: <ShieldIcon size={28} />,
          title: 'No alerts yet',
          description:
            'Off-market prices, late reporting, chat lexicon hits, chat before trade, spoofing and wash trades will be raised here.',
        }}
        skeletonRows={5}
        skeletonHeight={32}
      >
        {data ? (
          <ScrollArea>
            <Table highlightOnHover verticalSpacing={6} horizontalSpacing="md" miw={980} fz="sm" aria-label="Surveillance alerts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={64}>Score</Table.Th>
                  <Table.Th w={190}>Kind</Table.Th>
                  <Table.Th>Alert</Table.Th>
                  <Table.Th w={110}>Status</Table.Th>
                  <Table.Th w={150}>Assignee</Table.Th>
                  <Table.Th w={160}>Raised</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
                {data.results.map((alert) => (
                  <Table.Tr
                    key={alert.id}
                    className={classes.row}
                    data-testid="alert-row"
                    data-kind={alert.kind}
                    onClick={() => setOpenId(alert.id)}
                  >
                    <Table.Td>
                      <Badge
                        color={scoreColor(alert.score)}
                        variant="filled"
                        radius="sm"
                        className={classes.score}
                        aria-label={`Score ${alert.score}`}
                      >
                        {alert.score}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{alert.kind_label}</Table.Td>
                    <Table.Td>
                      <UnstyledButton className={classes.title} onClick={() => setOpenId(alert.id)} aria-haspopup="dialog">
                        {alert.title}
                      </UnstyledButton>
                      <Text size="xs" c="dimmed" lineClamp={1} title={alert.summary}>
                        {alert.summary}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={ALERT_STATUS_COLORS[alert.status]} radius="sm" tt="none" fw={500}>
                        {alert.status_label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {alert.assignee_name ?? (
                        <Text span size="sm" c="dimmed">
                          Unassigned
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td className={classes.mono}>{formatDateTime(alert.created_at)}</Table.Td>
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
          <Pagination total={totalPages} value={page} onChange={setPage} size="sm" aria-label="Alert pages" />
        </Group>
      ) : null}
      <AlertDrawer alertId={openId} onOpen={setOpenId} onClose={() => setOpenId(null)} userOptions={userOptions} />
    </Paper>
  );
}
