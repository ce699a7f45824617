/** The /find filters whose choices come from `POST /api/categories/`, each choice with its bond count. */
import { formatIndianNumber } from '@dart/contracts';
import { Group, MultiSelect, Select, Text, type ComboboxItem } from '@mantine/core';
import { useMemo } from 'react';
import type { CategoryOption } from '../utils/find-filters';

/** The facet's state as the page knows it: still loading, failed, or answered. */
export type FacetState = 'loading' | 'error' | 'ready';

const ANY = 'any';

function placeholderFor(state: FacetState, fallback: string): string {
  if (state === 'loading') return 'Loading values…';
  if (state === 'error') return 'Values unavailable';
  return fallback;
}

function nothingFor(state: FacetState): string {
  if (state === 'loading') return 'Loading values…';
  if (state === 'error') return 'The values could not be loaded';
  return 'No bonds match the other filters';
}

/** An option's label with its bond count at the right. */
function OptionRow({ label, count }: { label: string; count: number | null | undefined }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" w="100%">
      <span>{label}</span>
      {count === null || count === undefined ? null : (
        <Text component="span" size="xs" c="dimmed" ff="monospace">
          {formatIndianNumber(count, 0)}
        </Text>
      )}
    </Group>
  );
}

function useCounts(options: CategoryOption[]) {
  return useMemo(() => new Map(options.map((option) => [option.value, option.count])), [options]);
}

export interface CategoryMultiSelectProps {
  label: string;
  allLabel: string;
  options: CategoryOption[];
  value: string[];
  onChange: (value: string[]) => void;
  state: FacetState;
  searchable?: boolean;
}

/** Several values of one category (any of them matches). */
export function CategoryMultiSelect({ label, allLabel, options, value, onChange, state, searchable }: CategoryMultiSelectProps) {
  const counts = useCounts(options);
  const data = useMemo<ComboboxItem[]>(() => options.map((option) => ({ value: option.value, label: option.label })), [options]);
  return (
    <MultiSelect
      label={label}
      placeholder={value.length ? undefined : placeholderFor(state, allLabel)}
      data={data}
      value={value}
      onChange={onChange}
      renderOption={({ option }) => <OptionRow label={option.label} count={counts.get(option.value)} />}
      nothingFoundMessage={nothingFor(state)}
      clearable
      searchable={searchable ?? false}
      maxDropdownHeight={220}
    />
  );
}

export interface CategorySelectProps {
  label: string;
  anyLabel: string;
  options: CategoryOption[];
  value: string | null;
  onChange: (value: string | null) => void;
}

/** One value of a category, or any (its counts appear once the answer is in). */
export function CategorySelect({ label, anyLabel, options, value, onChange }: CategorySelectProps) {
  const counts = useCounts(options);
  const data = useMemo<ComboboxItem[]>(
    () => [{ value: ANY, label: anyLabel }, ...options.map((option) => ({ value: option.value, label: option.label }))],
    [anyLabel, options],
  );
  return (
    <Select
      label={label}
      data={data}
      value={value ?? ANY}
      onChange={(next) => onChange(next === null || next === ANY ? null : next)}
      renderOption={({ option }) => <OptionRow label={option.label} count={option.value === ANY ? null : counts.get(option.value)} />}
      allowDeselect={false}
    />
  );
}
