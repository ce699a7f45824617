import {
  TRADE_PARTICIPANT_EMPTY_TEXTS,
  TRADE_PARTICIPANT_GROUPS,
  TRADE_PARTICIPANT_SEARCH_DEBOUNCE_MS,
  type Counterparty,
  type Exchange,
} from '@dart/contracts';
import { Combobox, Group, Loader, Pill, PillsInput, ScrollArea, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { BuildingIcon, CheckIcon, UserIcon } from '../../../components/ui/icons';
import { useTradeParticipants } from '../api/search-trade-participants';

/** Spec §2: dropdown lists are at most 180 px high. */
const DROPDOWN_MAX_HEIGHT = 180;

export interface CounterpartyPickerProps {
  /** The chosen firms' client ids (what a private run's `counterparties` takes). */
  value: string[];
  onChange: (clientIds: string[]) => void;
  label?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  error?: string | undefined;
  /** The spec's empty text for what is asked for (buyers, sellers, or any entity). */
  emptyText?: string;
  /** For an RFQ on this exchange: only firms enabled for RFQs there. */
  rfqExchange?: Exchange;
  /** Names of ids chosen outside the picker (a prefilled counterparty), by client id. */
  knownNames?: Record<string, string>;
}

/** An option's value: unique per row; a member row carries its firm's id first. */
const optionValue = (row: Counterparty) => (row.user_id ? `${row.client_id}:${row.user_id}` : row.client_id);
/** How a row reads: a firm by its name, a person as "Person · Firm". */
export const counterpartyLabel = (row: Counterparty) => (row.user_id ? `${row.user_name ?? ''} · ${row.name}` : row.name);

/**
 * Spec §2 "Ticketing participant search" as a multi-choice of firms: a debounced search of other
 * trading firms (Company) and their people (Member). Choosing a person chooses their firm; chosen
 * firms show as removable pills by name. Arrow keys move, Enter chooses (or un-chooses a chosen
 * firm), Backspace in an empty box removes the last firm, Escape closes the list.
 */
export function CounterpartyPicker({
  value,
  onChange,
  label,
  description,
  placeholder = 'Search firms or people',
  error,
  emptyText = TRADE_PARTICIPANT_EMPTY_TEXTS.entities,
  rfqExchange,
  knownNames,
}: CounterpartyPickerProps) {
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
    onDropdownOpen: () => combobox.updateSelectedOptionIndex('active'),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), TRADE_PARTICIPANT_SEARCH_DEBOUNCE_MS);
  // Firm names of the chosen ids, learnt when they were chosen (the form itself holds only ids).
  const [names, setNames] = useState<Record<string, string>>({});
  const participants = useTradeParticipants({ search: debounced, ...(rfqExchange ? { rfqExchange } : {}) }, combobox.dropdownOpened);
  const results = participants.results;
  const waiting = combobox.dropdownOpened && (search.trim() !== debounced || participants.isFetching);
  const chosen = new Set(value);

  // With something typed, the best match is highlighted so Enter takes it at once.
  useEffect(() => {
    if (combobox.dropdownOpened && debounced !== '' && results.length > 0) combobox.selectFirstOption();
    // `combobox` is a new object every render; the highlight follows the results only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [results, debounced, combobox.dropdownOpened]);

  const byValue = new Map(results.map((row) => [optionValue(row), row]));
  const toggle = (row: Counterparty) => {
    if (chosen.has(row.client_id)) onChange(value.filter((id) => id !== row.client_id));
    else {
      setNames((old) => ({ ...old, [row.client_id]: row.name }));
      onChange([...value, row.client_id]);
    }
    setSearch('');
  };
  const remove = (clientId: string) => onChange(value.filter((id) => id !== clientId));

  const optionOf = (row: Counterparty) => {
    const isChosen = chosen.has(row.client_id);
    const codes = [row.nsccl_code && `NSCCL ${row.nsccl_code}`, row.iccl_code && `ICCL ${row.iccl_code}`].filter(Boolean).join(' · ');
    return (
      <Combobox.Option
        value={optionValue(row)}
        key={optionValue(row)}
        active={isChosen}
        aria-label={counterpartyLabel(row)}
        aria-checked={isChosen}
      >
        <Group gap={8} wrap="nowrap">
          {row.user_id ? <UserIcon size={14} /> : <BuildingIcon size={14} />}
          <div style={{ minWidth: 0, flex: 1 }}>
            <Text size="sm" lineClamp={1}>
              {row.user_id ? (
                <>
                  {row.user_name}
                  <Text span c="dimmed" size="sm">
                    {' · '}
                    {row.name}
                  </Text>
                </>
              ) : (
                row.name
              )}
            </Text>
            {codes ? (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {codes}
              </Text>
            ) : null}
          </div>
          {isChosen ? <CheckIcon size={14} /> : null}
        </Group>
      </Combobox.Option>
    );
  };
  const companies = results.filter((row) => !row.user_id);
  const members = results.filter((row) => row.user_id);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(key) => {
        const row = byValue.get(key);
        if (row) toggle(row);
      }}
    >
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          description={description}
          error={error}
          onClick={() => combobox.openDropdown()}
          rightSection={waiting ? <Loader size={14} /> : null}
        >
          <Pill.Group>
            {value.map((clientId) => (
              <Pill
                key={clientId}
                withRemoveButton
                onRemove={() => remove(clientId)}
                removeButtonProps={{ 'aria-label': `Remove ${names[clientId] ?? knownNames?.[clientId] ?? clientId}` }}
                data-testid="counterparty-pill"
              >
                {names[clientId] ?? knownNames?.[clientId] ?? clientId}
              </Pill>
            ))}
            <Combobox.EventsTarget withExpandedAttribute>
              <PillsInput.Field
                value={search}
                placeholder={value.length === 0 ? placeholder : undefined}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                onChange={(event) => {
                  setSearch(event.currentTarget.value);
                  combobox.openDropdown();
                  combobox.resetSelectedOption();
                }}
                onKeyDown={(event) => {
                  // Enter in the open list chooses, never submits the quote.
                  if (event.key === 'Enter' && combobox.dropdownOpened) event.preventDefault();
                  // Esc in the open list closes the list only: the ticket's own Esc (clear the ticket) must not see it.
                  if (event.key === 'Escape' && combobox.dropdownOpened) event.stopPropagation();
                  if (event.key === 'Backspace' && search === '' && value.length > 0) {
                    event.preventDefault();
                    remove(value[value.length - 1]!);
                  }
                }}
                autoComplete="off"
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown>
        <Combobox.Options aria-label="Counterparty search results">
          <ScrollArea.Autosize mah={DROPDOWN_MAX_HEIGHT} type="scroll">
            {companies.length > 0 ? (
              <Combobox.Group label={TRADE_PARTICIPANT_GROUPS.company}>{companies.map(optionOf)}</Combobox.Group>
            ) : null}
            {members.length > 0 ? <Combobox.Group label={TRADE_PARTICIPANT_GROUPS.member}>{members.map(optionOf)}</Combobox.Group> : null}
            {results.length === 0 ? <Combobox.Empty>{waiting || participants.isPending ? 'Searching…' : emptyText}</Combobox.Empty> : null}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
