import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useCustodians, type Custodian } from '../api/search-custodians';

const STORAGE_PREFIX = 'dart.tickets.custodian.';

/** The custodian the firm chose last time (a desk settles through one custodian most days). */
export function lastCustodian(clientId: string): Custodian | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_PREFIX + clientId);
    const parsed = raw ? (JSON.parse(raw) as Partial<Custodian>) : null;
    return parsed && typeof parsed.client_id === 'string' && typeof parsed.name === 'string'
      ? { client_id: parsed.client_id, name: parsed.name }
      : null;
  } catch {
    return null;
  }
}

export function rememberCustodian(clientId: string, custodian: Custodian): void {
  try {
    window.localStorage.setItem(STORAGE_PREFIX + clientId, JSON.stringify(custodian));
  } catch {
    // Storage full or disabled: the next accept simply starts empty.
  }
}

export interface CustodianSelectProps {
  value: Custodian | null;
  onChange: (custodian: Custodian | null) => void;
  error?: string | undefined;
  autoFocus?: boolean;
}

/** SEBI-registered custodians, searched on the server as the user types (`GET /api/client/search-custodians/`). */
export function CustodianSelect({ value, onChange, error, autoFocus = false }: CustodianSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // The list is searched by what was typed, not by the chosen name the box shows after a choice.
  const query = value && debounced === value.name ? '' : debounced;
  const custodians = useCustodians(query);
  const data = useMemo(() => {
    const rows = custodians.data ?? [];
    const options = rows.map((row) => ({ value: row.client_id, label: row.name }));
    if (value && !rows.some((row) => row.client_id === value.client_id)) options.unshift({ value: value.client_id, label: value.name });
    return options;
  }, [custodians.data, value]);
  return (
    <Select
      label="Custodian"
      placeholder="Search custodians"
      searchable
      data={data}
      value={value?.client_id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => onChange(id && option ? { client_id: id, name: option.label } : null)}
      filter={({ options }) => options}
      nothingFoundMessage={custodians.isFetching ? 'Searching…' : 'No custodian found'}
      error={error}
      autoFocus={autoFocus}
      // Rendered inside the accept popover: a list in a portal would be "outside" it, and choosing closed the popover.
      comboboxProps={{ withinPortal: false }}
      size="sm"
      data-autofocus={autoFocus || undefined}
    />
  );
}
