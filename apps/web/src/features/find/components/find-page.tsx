import { FIND_CATEGORY_LABELS, formatIndianNumber, LIST_PAGE_SIZE_MAX, SECURITY_TYPES } from '@dart/contracts';
import { Badge, Button, Group, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatBondName } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useFindCategories } from '../api/find-categories';
import { listFinstruments, type FinstrumentListRow } from '../api/list-finstruments';
import {
  categoryOptions,
  countActiveFilters,
  EMPTY_FIND_FILTERS,
  toCategoriesRequest,
  toListRequest,
  type FilterCategory,
  type FindFilters,
  type SecurityType,
} from '../utils/find-filters';
import { findExportTable } from '../utils/find-export';
import { saveFile, toCsv, toXlsx } from '../utils/table-export';
import { CategoryMultiSelect, CategorySelect, type FacetState } from './category-filter';
import { CompareModal } from './compare-modal';

const FinstrumentGrid = lazy(() => import('./finstrument-grid').then((module) => ({ default: module.FinstrumentGrid })));

const MAX_COMPARE = 5;
const EXPORT_MAX_ROWS = 1000;

const isSecurityType = (value: string): value is SecurityType => (SECURITY_TYPES as readonly string[]).includes(value);
const numberOrNull = (value: string | number): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** /find: filters, the universe grid (server paging/sort), CSV/XLSX export and compare up to five bonds. */
export function FindPage({ onOpen }: { onOpen: (finstrumentId: number) => void }) {
  const [filters, setFilters] = useState<FindFilters>(EMPTY_FIND_FILTERS);
  const [debouncedFilters] = useDebouncedValue(filters, 300);
  const request = useMemo(() => toListRequest(debouncedFilters), [debouncedFilters]);
  const categories = useFindCategories(useMemo(() => toCategoriesRequest(debouncedFilters), [debouncedFilters]));
  const facet = (name: FilterCategory) => categories.data?.categories.find((category) => category.name === name);
  const labelOf = (name: FilterCategory) => facet(name)?.label ?? FIND_CATEGORY_LABELS[name];
  const facetState: FacetState = categories.data ? 'ready' : categories.isError ? 'error' : 'loading';
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
            <CategoryMultiSelect
              label={labelOf('security_type')}
              allLabel="All types"
              options={categoryOptions(facet('security_type'), filters.securityTypes)}
              value={filters.securityTypes}
              onChange={(value) => set('securityTypes', value.filter(isSecurityType))}
              state={facetState}
            />
            <CategoryMultiSelect
              label={labelOf('credit_rating')}
              allLabel="All ratings"
              options={categoryOptions(facet('credit_rating'), filters.ratings)}
              value={filters.ratings}
              onChange={(value) => set('ratings', value)}
              state={facetState}
              searchable
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
              <CategorySelect
                label={labelOf('exchange')}
                anyLabel="Any"
                options={categoryOptions(facet('exchange'), filters.exchange === 'any' ? [] : [filters.exchange])}
                value={filters.exchange === 'any' ? null : filters.exchange}
                onChange={(value) => set('exchange', value === 'NSE' || value === 'BSE' ? value : 'any')}
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
          {categories.isError ? (
            <Group gap="xs" role="alert">
              <Text size="sm" c="red">
                The filter values could not be loaded: {describeError(categories.error)}
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={() => void categories.refetch()} loading={categories.isFetching}>
                Retry
              </Button>
            </Group>
          ) : null}
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
