import {
  MIN_SEARCH_CHARACTERS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_EMPTY_STATES,
  SEARCH_PLACEHOLDER,
  type FinstrumentSummary,
} from '@dart/contracts';
import { Badge, Combobox, Group, Loader, ScrollArea, Stack, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type Ref } from 'react';
import { SearchIcon } from '../../../components/ui/icons';
import { useFinstrumentSearch } from '../api/search-finstruments';
import { formatBondName, formatDate } from '../../../lib/format';

export interface BondSearchBoxProps {
  onSelect: (finstrument: FinstrumentSummary) => void;
  /** Accessible name of the input. */
  label?: string;
  w?: number | string;
  size?: 'xs' | 'sm' | 'md';
  /** The input, for a shortcut that focuses it (the header's `/` and Ctrl+K). */
  inputRef?: Ref<HTMLInputElement>;
  /** Focused when a modal that holds it opens (Mantine's data-autofocus). */
  autoFocus?: boolean;
}

/** Spec §2 security search: ≥ 3 characters, debounced 300 ms; matured and unlisted bonds are labelled and not selectable. */
export function BondSearchBox({ onSelect, label = 'Search bonds', w = 360, size = 'sm', inputRef, autoFocus = false }: BondSearchBoxProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [value, setValue] = useState('');
  const [debounced] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const active = debounced.length >= MIN_SEARCH_CHARACTERS;
  const search = useFinstrumentSearch(active ? debounced : '');
  const results = active ? search.results : [];
  const waiting = value.trim().length >= MIN_SEARCH_CHARACTERS && (value.trim() !== debounced || search.isFetching);

  const byId = new Map(results.map((item) => [String(item.id), item]));
  const options = results.map((item) => (
    <Combobox.Option value={String(item.id)} key={item.id} disabled={!item.available} aria-label={formatBondName(item.label)}>
      <Stack gap={0}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="sm" fw={500} lineClamp={1} c={item.available ? undefined : 'dimmed'}>
            {formatBondName(item.label)}
          </Text>
          {item.credit_rating ? (
            <Badge size="xs" variant="light" radius="sm" style={{ flexShrink: 0 }}>
              {item.credit_rating}
            </Badge>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {item.identifiers.ISIN} · {item.security_type}
          {item.contract_parameters.maturity_date ? ` · matures ${formatDate(item.contract_parameters.maturity_date)}` : ''}
        </Text>
      </Stack>
    </Combobox.Option>
  ));

  const empty = !active ? SEARCH_EMPTY_STATES.idle : waiting ? null : SEARCH_EMPTY_STATES.none;

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const picked = byId.get(id);
        if (!picked?.available) return;
        combobox.closeDropdown();
        setValue('');
        onSelect(picked);
      }}
      width={Math.max(typeof w === 'number' ? w : 360, 420)}
      position="bottom-start"
    >
      <Combobox.Target>
        <TextInput
          ref={inputRef}
          {...(autoFocus ? { 'data-autofocus': true } : {})}
          aria-label={label}
          placeholder={SEARCH_PLACEHOLDER}
          value={value}
          size={size}
          w={w}
          leftSection={<SearchIcon size={16} />}
          rightSection={waiting ? <Loader size={14} /> : null}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          autoComplete="off"
          type="search"
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options aria-label="Bond search results">
          <ScrollArea.Autosize mah={180} type="scroll">
            {options.length > 0 ? options : empty ? <Combobox.Empty>{empty}</Combobox.Empty> : <Combobox.Empty>Searching…</Combobox.Empty>}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
