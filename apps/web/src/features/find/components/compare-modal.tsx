import { formatIndianNumber, priceSourceLabel } from '@dart/contracts';
import { Button, Modal, ScrollArea, Table, Text } from '@mantine/core';
import type { FinstrumentListRow } from '../api/list-finstruments';
import { formatBondName, formatDate } from '../../../lib/format';

const ROWS: { label: string; value: (row: FinstrumentListRow) => string }[] = [
  { label: 'ISIN', value: (row) => row.identifiers.ISIN },
  { label: 'Issuer', value: (row) => row.issuer_name ?? '—' },
  { label: 'Type', value: (row) => row.security_type },
  { label: 'Coupon', value: (row) => (row.coupon_rate === null ? '—' : `${row.coupon_rate.toFixed(2)}%`) },
  {
    label: 'Maturity',
    value: (row) => (row.contract_parameters.maturity_date ? formatDate(row.contract_parameters.maturity_date) : '—'),
  },
  { label: 'Rating', value: (row) => row.credit_rating ?? '—' },
  { label: 'Reference yield', value: (row) => (row.bond_yield === null ? 'NA' : `${(row.bond_yield * 100).toFixed(4)}%`) },
  { label: 'Yield source', value: (row) => (row.reference_source === null ? '—' : priceSourceLabel(row.reference_source)) },
  { label: 'Face value', value: (row) => (row.face_value === null ? '—' : `₹${formatIndianNumber(row.face_value, 0)}`) },
  { label: 'Listing', value: (row) => (row.contract_parameters.is_listed ? row.exchanges.join(', ') || 'Listed' : 'Unlisted') },
  { label: 'Listing date', value: (row) => (row.listing_date ? formatDate(row.listing_date) : '—') },
  { label: 'Status', value: (row) => (row.is_matured ? 'Matured' : 'Live') },
];

/** Side-by-side comparison of up to five bonds from the Find grid. */
export function CompareModal({
  rows,
  opened,
  onClose,
  onOpen,
}: {
  rows: FinstrumentListRow[];
  opened: boolean;
  onClose: () => void;
  onOpen: (row: FinstrumentListRow) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Compare ${rows.length} bonds`} size="xl" centered>
      <ScrollArea>
        <Table withColumnBorders striped aria-label="Bond comparison" miw={rows.length * 180 + 140}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={140} />
              {rows.map((row) => (
                <Table.Th key={row.id} style={{ verticalAlign: 'top' }}>
                  <Text size="sm" fw={600}>
                    {formatBondName(row.display_name)}
                  </Text>
                  <Button variant="subtle" size="compact-xs" px={0} onClick={() => onOpen(row)}>
                    Open
                  </Button>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ROWS.map((line) => (
              <Table.Tr key={line.label}>
                <Table.Th scope="row" fw={500} c="dimmed">
                  {line.label}
                </Table.Th>
                {rows.map((row) => (
                  <Table.Td key={row.id}>{line.value(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Modal>
  );
}
