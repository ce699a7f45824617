import { formatIndianNumber, LIST_PAGE_SIZE_MAX, SECURITY_TYPES } from '@dart/contracts';
import {
  Badge,
  Button,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatBondName } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { listFinstruments, type FinstrumentListRow } from '../api/list-finstruments';
import {
  countActiveFilters,
  EMPTY_FIND_FILTERS,
  RATING_OPTIONS,
  toListRequest,
  type FindFilters,
  type SecurityType,
} from '../utils/find-filters';
import { findExportTable } from '../utils/find-export';
import { saveFile, toCsv, toXlsx } from '../utils/table-export';
import { CompareModal } from './compare-modal';

const FinstrumentGrid = lazy(() => import('./finstrument-grid').then((module) => ({ default: module.FinstrumentGrid })));

const MAX_COMPARE = 5;
const EXPORT_MAX_ROWS = 1000;

const numberOrNull = (value: string | number): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** /find: filters, the universe grid (server paging/sort), CSV/XLSX export and compare up to five bonds. */
export function FindPage({ onOpen }: { onOpen: (finstrumentId: number) => void }) {
  const [filters, setFilters] = useState<FindFilters>(EMPTY_FIND_FILTERS);
  const [debouncedFilters] = useDebouncedValue(filters, 300);
  const request = useMemo(() => toListRequest(debouncedFilters), [debouncedFilters]);
  const [count, setCount] = useState<number | null>(null);
  const [selected, setSelected] = useState<FinstrumentListRow[]>([]);
  const [comparing, setComparing] = useState(false);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const set = <K extends keyof FindFilters>(key: K, value: FindFilters[K]) => setFilters((current) => ({ ...current, [key]: value }));
  const openRow = useCallback((row: FinstrumentListRow) => onOpen(row.id), [onOpen]);
  const active = countActiveFilters(filters);

  async function exportRows(kind: 'csv' | 'xlsx') {
    setExporting(kind);
    try {
      const rows: FinstrumentListRow[] = [];
      for (let page = 1; rows.length < EXPORT_MAX_ROWS; page++) {
        const list = await listFinstruments({ ...request, pagination: { page, page_size: LIST_PAGE_SIZE_MAX } });
        rows.push(...list.results);
        if (list.results.length < LIST_PAGE_SIZE_MAX || rows.length >= list.count) break;
      }
      const table = findExportTable(rows);
      const stamp = new Date().toISOString().slice(0, 10);
      if (kind === 'csv') saveFile(`\uFEFF${toCsv(table)}`, `dart-bonds-${stamp}.csv`, 'text/csv;charset=utf-8');
      else saveFile(toXlsx(table), `dart-bonds-${stamp}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      showToast({
        summary: 'Export ready',
        detail: `${formatIndianNumber(rows.length, 0)} bonds exported${count !== null && count > rows.length ? ` (the first ${formatIndianNumber(EXPORT_MAX_ROWS, 0)} of ${formatIndianNumber(count, 0)})` : ''}.`,
        severity: 'success',
      });
    } catch (error) {
      showToast({ summary: 'Export failed', detail: describeError(error), severity: 'error' });
    } finally {
      setExporting(null);
    }
  }

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" component="section" aria-label="Filters">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <TextInput
              label="Name, ISIN or issuer"
              placeholder="e.g. hdfc 2030"
              value={filters.search}
              onChange={(event) => set('search', event.currentTarget.value)}
            />
            <MultiSelect
              label="Security type"
              placeholder={filters.securityTypes.length ? undefined : 'All types'}
              data={[...SECURITY_TYPES]}
              value={filters.securityTypes}
              onChange={(value) => set('securityTypes', value as SecurityType[])}
              clearable
              maxDropdownHeight={180}
            />
            <MultiSelect
              label="Rating"
              placeholder={filters.ratings.length ? undefined : 'All ratings'}
              data={RATING_OPTIONS}
              value={filters.ratings}
              onChange={(value) => set('ratings', value)}
              clearable
              searchable
              maxDropdownHeight={180}
            />
            <Group grow gap="xs" align="flex-start">
              <Select
                label="Listing"
                data={[
                  { value: 'all', label: 'All' },
                  { value: 'listed', label: 'Listed' },
                  { value: 'unlisted', label: 'Unlisted' },
                ]}
                value={filters.listed}
                onChange={(value) => set('listed', (value ?? 'all') as FindFilters['listed'])}
                allowDeselect={false}
              />
              <Select
                label="Exchange"
                data={[
                  { value: 'any', label: 'Any' },
                  { value: 'NSE', label: 'NSE' },
                  { value: 'BSE', label: 'BSE' },
                ]}
                value={filters.exchange}
                onChange={(value) => set('exchange', (value ?? 'any') as FindFilters['exchange'])}
                allowDeselect={false}
              />
            </Group>
            <Group grow gap="xs">
              <TextInput
                type="date"
                label="Maturity from"
                value={filters.maturityFrom}
                onChange={(event) => set('maturityFrom', event.currentTarget.value)}
              />
              <TextInput
                type="date"
                label="Maturity to"
                value={filters.maturityTo}
                onChange={(event) => set('maturityTo', event.currentTarget.value)}
              />
            </Group>
            <Group grow gap="xs">
              <NumberInput
                label="Coupon from %"
                value={filters.couponMin ?? ''}
                onChange={(value) => set('couponMin', numberOrNull(value))}
                min={0}
                max={100}
                decimalScale={4}
                hideControls
              />
              <NumberInput
                label="Coupon to %"
                value={filters.couponMax ?? ''}
                onChange={(value) => set('couponMax', numberOrNull(value))}
                min={0}
                max={100}
                decimalScale={4}
                hideControls
              />
            </Group>
            <Group grow gap="xs">
              <NumberInput
                label="Yield from %"
                value={filters.yieldMin ?? ''}
                onChange={(value) => set('yieldMin', numberOrNull(value))}
                min={0}
                max={100}
                decimalScale={4}
                hideControls
              />
              <NumberInput
                label="Yield to %"
                value={filters.yieldMax ?? ''}
                onChange={(value) => set('yieldMax', numberOrNull(value))}
                min={0}
                max={100}
                decimalScale={4}
                hideControls
              />
            </Group>
            <Stack gap={6} justify="flex-end">
              <Switch
                label="Include matured bonds"
                checked={filters.includeMatured}
                onChange={(event) => set('includeMatured', event.currentTarget.checked)}
              />
              <Button
                variant="subtle"
                size="compact-sm"
                disabled={active === 0}
                onClick={() => setFilters(EMPTY_FIND_FILTERS)}
                w="fit-content"
              >
                Clear filters{active ? ` (${active})` : ''}
              </Button>
            </Stack>
          </SimpleGrid>
        </Stack>
      </Paper>

      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="find-count">
          {count === null ? 'Loading bonds…' : `${formatIndianNumber(count, 0)} bonds`}
          {' · '}select up to {MAX_COMPARE} to compare
        </Text>
        <Group gap="xs">
          <Button variant="light" disabled={selected.length < 2} onClick={() => setComparing(true)}>
            Compare{selected.length ? ` (${selected.length})` : ''}
          </Button>
          <Button variant="default" loading={exporting === 'csv'} disabled={exporting !== null} onClick={() => void exportRows('csv')}>
            Export CSV
          </Button>
          <Button variant="default" loading={exporting === 'xlsx'} disabled={exporting !== null} onClick={() => void exportRows('xlsx')}>
            Export XLSX
          </Button>
        </Group>
      </Group>
      {selected.length ? (
        <Group gap={6}>
          {selected.map((row) => (
            <Badge key={row.id} variant="light" radius="sm" tt="none">
              {formatBondName(row.display_name)}
            </Badge>
          ))}
        </Group>
      ) : null}

      <Suspense
        fallback={
          <Group justify="center" h={560}>
            <Loader aria-label="Loading the grid" />
          </Group>
        }
      >
        <FinstrumentGrid request={request} onOpen={openRow} onSelectionChange={setSelected} onCount={setCount} maxSelected={MAX_COMPARE} />
      </Suspense>
      <CompareModal rows={selected} opened={comparing} onClose={() => setComparing(false)} onOpen={openRow} />
    </Stack>
  );
}
