import { FINSTRUMENT_SORT_FIELDS } from '@dart/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Group,
  Loader,
  NumberInput,
  Pagination,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { useIssuerBonds, type IssuerBondsRequest } from '../api/get-issuer-bonds';
import { SortHeader, type SortState } from './sort-header';
import { formatDate } from '../../../lib/format';

type SortField = (typeof FINSTRUMENT_SORT_FIELDS)[number];
type NumericField = 'coupon_rate' | 'bond_yield' | 'years_to_maturity';
type NumericType = 'greaterThanOrEqual' | 'lessThanOrEqual' | 'equals' | 'greaterThan' | 'lessThan';
const PAGE_SIZE = 10;

/** Other bonds of the same issuer: paged, sortable, with a numeric filter and a maturity date filter (spec §7). */
export function IssuerBondsPanel({
  finstrumentId,
  issuerName,
  onOpen,
}: {
  finstrumentId: number;
  issuerName: string | null;
  onOpen: (id: number) => void;
}) {
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortState<SortField>>({ field: 'maturity_date', direction: 'asc' });
  const [includeMatured, setIncludeMatured] = useState(false);
  const [numericField, setNumericField] = useState<NumericField>('coupon_rate');
  const [numericType, setNumericType] = useState<NumericType>('greaterThanOrEqual');
  const [numericValue, setNumericValue] = useState<number | null>(null);
  const [dateType, setDateType] = useState<'after' | 'before' | 'is'>('after');
  const [dateValue, setDateValue] = useState('');
  const [debouncedValue] = useDebouncedValue(numericValue, 300);

  const filters: NonNullable<IssuerBondsRequest['filters']> = [];
  if (debouncedValue !== null)
    filters.push({ field: numericField, type: numericType, value: numericField === 'bond_yield' ? debouncedValue / 100 : debouncedValue });
  if (dateValue) filters.push({ field: 'maturity_date', type: dateType, value: dateValue });
  const list = useIssuerBonds(finstrumentId, {
    pagination: { page, page_size: PAGE_SIZE },
    sort,
    filters,
    include_matured: includeMatured,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / PAGE_SIZE)) : 1;
  const onSort = (next: SortState<SortField>) => {
    setSort(next);
    setPage(1);
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="issuer-bonds-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id="issuer-bonds-title">
            Bonds by the same issuer{issuerName ? ` · ${issuerName}` : ''}
          </Title>
          {list.isFetching ? <Loader size="xs" aria-label="Loading bonds by the same issuer" /> : null}
        </Group>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label="Filter"
            w={150}
            value={numericField}
            onChange={(value) => setNumericField((value ?? 'coupon_rate') as NumericField)}
            allowDeselect={false}
            data={[
              { value: 'coupon_rate', label: 'Coupon %' },
              { value: 'bond_yield', label: 'Yield %' },
              { value: 'years_to_maturity', label: 'Years to maturity' },
            ]}
          />
          <Select
            aria-label="Comparison"
            w={90}
            value={numericType}
            onChange={(value) => setNumericType((value ?? 'greaterThanOrEqual') as NumericType)}
            allowDeselect={false}
            data={[
              { value: 'greaterThanOrEqual', label: '≥' },
              { value: 'greaterThan', label: '>' },
              { value: 'equals', label: '=' },
              { value: 'lessThan', label: '<' },
              { value: 'lessThanOrEqual', label: '≤' },
            ]}
          />
          <NumberInput
            aria-label="Filter value"
            w={110}
            value={numericValue ?? ''}
            onChange={(value) => {
              setNumericValue(typeof value === 'number' ? value : null);
              setPage(1);
            }}
            decimalScale={4}
            hideControls
            placeholder="Any"
          />
          <Select
            label="Maturity"
            w={100}
            value={dateType}
            onChange={(value) => setDateType((value ?? 'after') as 'after' | 'before' | 'is')}
            allowDeselect={false}
            data={[
              { value: 'after', label: 'after' },
              { value: 'before', label: 'before' },
              { value: 'is', label: 'on' },
            ]}
          />
          <TextInput
            type="date"
            aria-label="Maturity date"
            w={160}
            value={dateValue}
            onChange={(event) => {
              setDateValue(event.currentTarget.value);
              setPage(1);
            }}
          />
          <Switch
            label="Include matured"
            checked={includeMatured}
            onChange={(event) => {
              setIncludeMatured(event.currentTarget.checked);
              setPage(1);
            }}
            mb={8}
          />
        </Group>
        {list.isError ? (
          <Alert color="red" variant="light" title="Could not load the issuer's bonds">
            {describeError(list.error)}
          </Alert>
        ) : list.data && list.data.results.length === 0 ? (
          <Text c="dimmed">No other bonds of this issuer match.</Text>
        ) : (
          <ScrollArea>
            <Table striped highlightOnHover aria-label="Bonds by the same issuer" fz="sm" miw={640}>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader field="display_name" sort={sort} onSort={onSort}>
                    Bond
                  </SortHeader>
                  <SortHeader field="isin" sort={sort} onSort={onSort}>
                    ISIN
                  </SortHeader>
                  <SortHeader field="coupon_rate" sort={sort} onSort={onSort} align="right">
                    Coupon
                  </SortHeader>
                  <SortHeader field="maturity_date" sort={sort} onSort={onSort}>
                    Maturity
                  </SortHeader>
                  <Table.Th>Rating</Table.Th>
                  <SortHeader field="bond_yield" sort={sort} onSort={onSort} align="right">
                    Yield
                  </SortHeader>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(list.data?.results ?? []).map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Anchor
                        href={`/security/${row.id}`}
                        size="sm"
                        onClick={(event) => {
                          if (event.metaKey || event.ctrlKey) return;
                          event.preventDefault();
                          onOpen(row.id);
                        }}
                      >
                        {row.label}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ff="monospace">{row.identifiers.ISIN}</Table.Td>
                    <Table.Td ta="right">{row.coupon_rate === null ? '—' : `${row.coupon_rate.toFixed(2)}%`}</Table.Td>
                    <Table.Td>{row.contract_parameters.maturity_date ? formatDate(row.contract_parameters.maturity_date) : '—'}</Table.Td>
                    <Table.Td>
                      {row.credit_rating ? (
                        <Badge size="sm" variant="light" radius="sm">
                          {row.credit_rating}
                        </Badge>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {row.bond_yield === null ? 'NA' : `${(row.bond_yield * 100).toFixed(4)}%`}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data ? `${list.data.count} bonds` : ''}
          </Text>
          {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Issuer bonds pages" /> : null}
        </Group>
      </Stack>
    </Paper>
  );
}
