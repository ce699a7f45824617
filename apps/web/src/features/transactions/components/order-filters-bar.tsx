import { ORDER_DATE_FIELDS, ORDER_NUMERIC_FIELDS, type OrderKind, type OrderState } from '@dart/contracts';
import { ActionIcon, Button, Group, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useRef } from 'react';
import { SearchIcon } from '../../../components/ui/icons';
import {
  FILTER_FIELD_LABELS,
  FILTER_TYPE_LABELS,
  filterTypesFor,
  isDateField,
  newCondition,
  withField,
  type FilterCondition,
  type FilterProblems,
  type OrderFilterField,
  type OrderFilters,
} from '../utils/order-filters';
import { STATE_TABS } from '../utils/order-format';
import classes from './transactions.module.css';

const FIELD_OPTIONS = [
  { group: 'Numbers', items: ORDER_NUMERIC_FIELDS.map((field) => ({ value: field, label: FILTER_FIELD_LABELS[field] })) },
  { group: 'Dates', items: ORDER_DATE_FIELDS.map((field) => ({ value: field, label: FILTER_FIELD_LABELS[field] })) },
];
const KIND_OPTIONS = [
  { value: 'order', label: 'Orders (we sell)' },
  { value: 'procurement', label: 'Procurement orders (we buy)' },
];
const PLACEHOLDERS: Record<OrderFilterField, string> = {
  price: 'e.g. 100.25',
  yield: 'e.g. 7.25',
  quantum: 'e.g. 5cr, 50L',
  consideration: 'e.g. 1,00,00,000',
  trade_date: '',
  settlement_date: '',
};
const MAX_CONDITIONS = 10;

export interface OrderFiltersBarProps {
  filters: OrderFilters;
  onChange: (next: OrderFilters) => void;
  problems: FilterProblems;
  activeCount: number;
}

function ConditionRow({
  condition,
  error,
  onChange,
  onRemove,
}: {
  condition: FilterCondition;
  error: string | undefined;
  onChange: (next: FilterCondition) => void;
  onRemove: () => void;
}) {
  const label = FILTER_FIELD_LABELS[condition.field];
  return (
    <Group gap={6} align="flex-start" wrap="nowrap" data-testid="order-filter-condition">
      <Select
        size="xs"
        w={170}
        aria-label="Filter on"
        data={FIELD_OPTIONS}
        value={condition.field}
        allowDeselect={false}
        onChange={(value) => value && onChange(withField(condition, value as OrderFilterField))}
      />
      <Select
        size="xs"
        w={90}
        aria-label={`Comparison for ${label}`}
        data={filterTypesFor(condition.field).map((type) => ({ value: type, label: FILTER_TYPE_LABELS[type] }))}
        value={condition.type}
        allowDeselect={false}
        onChange={(value) => value && onChange({ ...condition, type: value as FilterCondition['type'] })}
      />
      <TextInput
        size="xs"
        w={170}
        aria-label={`Value for ${label}`}
        type={isDateField(condition.field) ? 'date' : 'text'}
        inputMode={isDateField(condition.field) ? undefined : 'decimal'}
        placeholder={PLACEHOLDERS[condition.field]}
        value={condition.value}
        onChange={(event) => onChange({ ...condition, value: event.currentTarget.value })}
        error={error}
      />
      <ActionIcon variant="subtle" color="gray" size="md" onClick={onRemove} aria-label={`Remove the ${label} filter`}>
        ×
      </ActionIcon>
    </Group>
  );
}

/**
 * The blotter's filters: state tabs, kind, search (ISIN or bond name), and conditions on price, yield, face value,
 * consideration, trade date and settlement date (the spec's numeric and date filter types). A condition applies
 * once its value is typed; one that cannot be read says why and nothing is sent until it is fixed.
 */
export function OrderFiltersBar({ filters, onChange, problems, activeCount }: OrderFiltersBarProps) {
  const nextId = useRef(1);
  const set = <K extends keyof OrderFilters>(key: K, value: OrderFilters[K]) => onChange({ ...filters, [key]: value });
  const setCondition = (next: FilterCondition) =>
    set(
      'conditions',
      filters.conditions.map((condition) => (condition.id === next.id ? next : condition)),
    );
  const addCondition = () => {
    nextId.current = Math.max(nextId.current, ...filters.conditions.map((c) => c.id + 1));
    set('conditions', [...filters.conditions, newCondition(nextId.current++)]);
  };

  return (
    <Stack gap="xs" px="md" pb="sm">
      <Tabs
        value={filters.state ?? 'all'}
        onChange={(value) => set('state', !value || value === 'all' ? null : (value as OrderState))}
        variant="pills"
        radius="sm"
        className={classes.stateTabs}
      >
        <Tabs.List aria-label="Order state" style={{ flexWrap: 'nowrap' }}>
          {STATE_TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value} fz="xs" py={4} px={10} data-testid={`state-tab-${tab.value}`}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <form role="search" aria-label="Filter the transactions" onSubmit={(event) => event.preventDefault()}>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            size="xs"
            w={260}
            aria-label="Search"
            placeholder="ISIN or bond name"
            leftSection={<SearchIcon size={14} />}
            value={filters.search}
            onChange={(event) => set('search', event.currentTarget.value)}
            error={problems.search}
          />
          <Select
            size="xs"
            w={230}
            aria-label="Kind"
            placeholder="Orders and procurement orders"
            data={KIND_OPTIONS}
            value={filters.kind}
            onChange={(value) => set('kind', value as OrderKind | null)}
            clearable
          />
          <Button size="xs" variant="default" onClick={addCondition} disabled={filters.conditions.length >= MAX_CONDITIONS}>
            Add filter
          </Button>
          {activeCount > 0 || filters.conditions.length > 0 ? (
            <Button size="xs" variant="subtle" onClick={() => onChange({ ...filters, kind: null, search: '', conditions: [] })}>
              Clear filters
            </Button>
          ) : null}
        </Group>
        {filters.conditions.length > 0 ? (
          <Stack gap={6} mt="xs" aria-label="Conditions">
            {filters.conditions.map((condition) => (
              <ConditionRow
                key={condition.id}
                condition={condition}
                error={problems.conditions[condition.id]}
                onChange={setCondition}
                onRemove={() =>
                  set(
                    'conditions',
                    filters.conditions.filter((c) => c.id !== condition.id),
                  )
                }
              />
            ))}
          </Stack>
        ) : null}
        {problems.form ? (
          <Text size="xs" c="red" mt={4} role="alert">
            {problems.form}
          </Text>
        ) : null}
      </form>
    </Stack>
  );
}
