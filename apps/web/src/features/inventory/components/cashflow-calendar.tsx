import { formatRupeesCompact } from '@dart/contracts';
import { Alert, Group, Paper, SegmentedControl, Skeleton, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatBondName, formatDate, formatSize } from '../../../lib/format';
import { useCashflows } from '../api/get-inventory';

/** Cash-flow calendar: the coupons and redemptions the book is paid in the next 30 or 90 days. */
export function CashflowCalendar() {
  const [days, setDays] = useState<30 | 90>(30);
  const flows = useCashflows(days);
  const data = flows.data;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="inventory-cashflows">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} fz="md">
          Cash-flow calendar
        </Title>
        <SegmentedControl
          size="xs"
          aria-label="Cash-flow horizon"
          value={String(days)}
          onChange={(value) => setDays(value === '90' ? 90 : 30)}
          data={[
            { value: '30', label: 'Next 30 days' },
            { value: '90', label: 'Next 90 days' },
          ]}
        />
      </Group>
      {flows.isError ? (
        <Alert color="red" variant="light" role="alert">
          Could not load the cash flows: {describeError(flows.error)}
        </Alert>
      ) : !data ? (
        <Skeleton height={80} />
      ) : data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          No coupons or redemptions from {formatDate(data.from)} to {formatDate(data.to)}.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560} maxHeight={260}>
          <Table
            fz="xs"
            striped
            stickyHeader
            verticalSpacing={3}
            aria-label={`Cash flows from ${formatDate(data.from)} to ${formatDate(data.to)}`}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Bond</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th ta="right">Face value</Table.Th>
                <Table.Th ta="right">Coupon</Table.Th>
                <Table.Th ta="right">Redemption</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.results.map((row) => (
                <Table.Tr key={`${row.payment_date}-${row.isin}-${row.account}`}>
                  <Table.Td>{formatDate(row.payment_date)}</Table.Td>
                  <Table.Td title={row.isin}>{formatBondName(row.display_name)}</Table.Td>
                  <Table.Td>{row.account}</Table.Td>
                  <Table.Td ta="right">{formatSize(row.face_value)}</Table.Td>
                  <Table.Td ta="right">{formatRupeesCompact(row.interest)}</Table.Td>
                  <Table.Td ta="right">{row.principal ? formatRupeesCompact(row.principal) : '—'}</Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {formatRupeesCompact(row.total)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={4}>Total</Table.Th>
                <Table.Th ta="right">{formatRupeesCompact(data.totals.interest)}</Table.Th>
                <Table.Th ta="right">{formatRupeesCompact(data.totals.principal)}</Table.Th>
                <Table.Th ta="right">{formatRupeesCompact(data.totals.total)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
