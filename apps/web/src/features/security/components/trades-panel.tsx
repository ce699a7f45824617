import { formatRupeesCompact, priceSourceLabel, TRADE_SORT_FIELDS } from '@dart/contracts';
import { Alert, Badge, Group, Loader, Pagination, Paper, ScrollArea, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { useTrades, type TradesRequest } from '../api/get-trades';
import { AccessPrompt, type SecurityAccess } from './access-prompt';
import { SortHeader, type SortState } from './sort-header';
import { formatDate } from '../../../lib/format';

const PriceHistoryChart = lazy(() => import('./price-history-chart').then((module) => ({ default: module.PriceHistoryChart })));

type TradeSortField = (typeof TRADE_SORT_FIELDS)[number];
const PAGE_SIZE = 20;

/** Trades and prices: a price/yield history chart and the paged, sortable observations. */
export function TradesPanel({ finstrumentId, access }: { finstrumentId: number; access: SecurityAccess }) {
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortState<TradeSortField>>({ field: 'trade_date', direction: 'desc' });
  const [from, setFrom] = useState('');
  // Trades need the security-data permission, not Premium.
  const enabled = access === 'full' || access === 'basic';
  const filters: TradesRequest['filters'] = from ? [{ field: 'trade_date', type: 'after', value: from }] : [];
  const table = useTrades(finstrumentId, { pagination: { page, page_size: PAGE_SIZE }, sort, filters }, enabled);
  const history = useTrades(
    finstrumentId,
    { pagination: { page: 1, page_size: 100 }, sort: { field: 'trade_date', direction: 'desc' }, filters: [] },
    enabled,
  );
  const pages = table.data ? Math.max(1, Math.ceil(table.data.count / PAGE_SIZE)) : 1;

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="trades-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id="trades-title">
            Trades and prices
          </Title>
          {table.isFetching ? <Loader size="xs" aria-label="Loading trades" /> : null}
        </Group>
        {access === 'visitor' || access === 'no-permission' ? (
          <AccessPrompt access={access} what="trades and prices" />
        ) : table.isError ? (
          <Alert color="red" variant="light" title="Could not load trades">
            {describeError(table.error)}
          </Alert>
        ) : (
          <>
            {history.data && history.data.results.length > 1 ? (
              <Suspense fallback={<Loader size="sm" />}>
                <PriceHistoryChart rows={history.data.results} />
              </Suspense>
            ) : null}
            <Group gap="sm" align="flex-end">
              <TextInput
                type="date"
                label="Traded after"
                value={from}
                onChange={(event) => {
                  setFrom(event.currentTarget.value);
                  setPage(1);
                }}
                w={180}
              />
              {table.data ? (
                <Text size="sm" c="dimmed" pb={6}>
                  {table.data.count} observations
                </Text>
              ) : null}
            </Group>
            {table.data && table.data.results.length === 0 ? (
              <Text c="dimmed">No trades, exchange closes or valuations recorded for this bond.</Text>
            ) : (
              <ScrollArea>
                <Table striped aria-label="Trades and prices" fz="sm" miw={640} style={{ whiteSpace: 'nowrap' }}>
                  <Table.Thead>
                    <Table.Tr>
                      <SortHeader field="trade_date" sort={sort} onSort={(next) => (setSort(next), setPage(1))}>
                        Date
                      </SortHeader>
                      <Table.Th>Kind</Table.Th>
                      <SortHeader field="price" sort={sort} onSort={(next) => (setSort(next), setPage(1))} align="right">
                        Price
                      </SortHeader>
                      <SortHeader field="bond_yield" sort={sort} onSort={(next) => (setSort(next), setPage(1))} align="right">
                        Yield
                      </SortHeader>
                      <SortHeader field="value_inr" sort={sort} onSort={(next) => (setSort(next), setPage(1))} align="right">
                        Value
                      </SortHeader>
                      <Table.Th>Detail</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {(table.data?.results ?? []).map((row, index) => (
                      <Table.Tr key={`${row.trade_date}-${row.kind}-${index}`}>
                        <Table.Td>{formatDate(row.trade_date)}</Table.Td>
                        <Table.Td>
                          <Badge size="sm" variant="light" color="gray" radius="sm" tt="none">
                            {priceSourceLabel(row.kind)}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {row.price === null ? '—' : row.price.toFixed(4)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {row.bond_yield === null ? '—' : `${(row.bond_yield * 100).toFixed(4)}%`}
                        </Table.Td>
                        <Table.Td ta="right">{row.value_inr === null ? '—' : formatRupeesCompact(row.value_inr)}</Table.Td>
                        <Table.Td>
                          <Text size="xs" c="dimmed" truncate="end" maw={260} title={row.detail ?? row.source}>
                            {row.detail ?? row.source}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
            {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Trades pages" /> : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
