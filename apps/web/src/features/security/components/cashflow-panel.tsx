import { checkFaceValue, faceValuePerBond, formatRupees } from '@dart/contracts';
import { Alert, Group, Loader, Paper, ScrollArea, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { describeError } from '../../../lib/errors';
import { useCashflows } from '../api/get-cashflows';
import { useFinstrument } from '../api/get-finstrument';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { AccessPrompt, type SecurityAccess } from './access-prompt';
import { formatDate } from '../../../lib/format';

const CashflowChart = lazy(() => import('./cashflow-chart').then((module) => ({ default: module.CashflowChart })));

/**
 * Cash-flow schedule for a size and reference date: table and bar chart (Premium). The size is face value
 * (issue 12 §1, ₹5 Cr to start); the API takes its number of bonds.
 */
export function CashflowPanel({
  finstrumentId,
  access,
  upgradeAction,
}: {
  finstrumentId: number;
  access: SecurityAccess;
  upgradeAction?: ReactNode;
}) {
  const [sizeText, setSizeText] = useState('5cr');
  const bond = useFinstrument(String(finstrumentId)).data;
  const perBond = bond ? faceValuePerBond(bond) : undefined;
  const size = checkFaceValue(sizeText, perBond);
  const quantity = size.ok && perBond ? Math.round(size.rupees / perBond) : Number.NaN;
  const [refDate, setRefDate] = useState('');
  const [debouncedQuantity] = useDebouncedValue(quantity, 300);
  const validQuantity = Number.isInteger(debouncedQuantity) && debouncedQuantity >= 1;
  const cashflows = useCashflows(
    finstrumentId,
    validQuantity ? debouncedQuantity : 1,
    refDate || undefined,
    access === 'full' && validQuantity,
  );
  const schedule = cashflows.data;

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="cashflows-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id="cashflows-title">
            Cash flows
          </Title>
          {cashflows.isFetching ? <Loader size="xs" aria-label="Loading cash flows" /> : null}
        </Group>
        {access !== 'full' ? (
          <AccessPrompt access={access} what="cash flows" action={access === 'basic' ? upgradeAction : undefined} />
        ) : (
          <>
            <Group gap="sm" align="flex-end">
              <FaceValueInput
                value={sizeText}
                onChange={setSizeText}
                perBond={perBond}
                w={220}
                error={sizeText.trim() === '' ? 'Enter a size' : undefined}
              />
              <TextInput
                type="date"
                label="Reference date"
                value={refDate}
                onChange={(event) => setRefDate(event.currentTarget.value)}
                w={180}
                description="Default: T+1 settlement"
              />
            </Group>
            {cashflows.isError ? (
              <Alert color="red" variant="light" title="Could not load the cash flows">
                {describeError(cashflows.error)}
              </Alert>
            ) : null}
            {schedule && schedule.cashflows.length === 0 ? (
              <Text c="dimmed">No cash flows after {formatDate(schedule.ref_date)}.</Text>
            ) : null}
            {schedule && schedule.cashflows.length > 0 ? (
              <>
                <Suspense fallback={<Loader size="sm" />}>
                  <CashflowChart schedule={schedule} />
                </Suspense>
                <ScrollArea.Autosize mah={320}>
                  <Table striped stickyHeader aria-label="Cash-flow schedule" fz="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Payment date</Table.Th>
                        <Table.Th>Record date</Table.Th>
                        <Table.Th ta="right">Coupon %</Table.Th>
                        <Table.Th ta="right">Interest</Table.Th>
                        <Table.Th ta="right">Principal</Table.Th>
                        <Table.Th ta="right">Total</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {schedule.cashflows.map((flow) => (
                        <Table.Tr key={`${flow.due_date}-${flow.payment_date}`}>
                          <Table.Td>{formatDate(flow.payment_date)}</Table.Td>
                          <Table.Td>{flow.record_date ? formatDate(flow.record_date) : '—'}</Table.Td>
                          {/* coupon_rate is a fraction on this call (0.0778). */}
                          <Table.Td ta="right">{(flow.coupon_rate * 100).toFixed(2)}</Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {formatRupees(flow.interest)}
                          </Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {formatRupees(flow.principal)}
                          </Table.Td>
                          <Table.Td ta="right" ff="monospace">
                            {formatRupees(flow.total)}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                    <Table.Tfoot>
                      <Table.Tr fw={700}>
                        <Table.Td colSpan={3}>Total after {formatDate(schedule.ref_date)}</Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatRupees(schedule.totals.interest)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatRupees(schedule.totals.principal)}
                        </Table.Td>
                        <Table.Td ta="right" ff="monospace">
                          {formatRupees(schedule.totals.total)}
                        </Table.Td>
                      </Table.Tr>
                    </Table.Tfoot>
                  </Table>
                </ScrollArea.Autosize>
              </>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
