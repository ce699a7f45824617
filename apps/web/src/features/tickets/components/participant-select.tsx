import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useBrokers } from '../api/search-brokers';
import { useUsersClients } from '../api/search-users-clients';
import {
  brokerGroups,
  participantGroups,
  participantValue,
  pickParticipant,
  type ParticipantGroup,
  type ParticipantKind,
  type PickedParticipant,
} from '../utils/participants';

interface BaseProps extends Pick<SelectProps, 'label' | 'description' | 'placeholder' | 'size' | 'required' | 'autoFocus'> {
  value: PickedParticipant | null;
  onChange: (picked: PickedParticipant | null) => void;
  error?: string | undefined;
  onBlur?: () => void;
  /**
   * Inside a Popover: the list renders in place, not in a portal (a choice in a portal counts as a click outside
   * the popover and closed it before its form was sent).
   */
  inPopover?: boolean;
}

export interface ParticipantSelectProps extends BaseProps {
  kind: ParticipantKind;
  /** The user's firm: never offered (a ticket is between two different firms). */
  ownClientId: string;
  /**
   * For `broker`: the ticket whose side a broker would work (`GET api/chatter/search-brokers/{id}`); without it
   * (a new manual ticket) brokers come from `users-clients-unified?broker=true`.
   */
  ticketId?: string;
}

/** Groups with the chosen participant kept in them (a new search may not return it). */
function withChosen(groups: ParticipantGroup[], value: PickedParticipant | null): ParticipantGroup[] {
  if (!value) return groups;
  const chosen = participantValue(value);
  if (groups.some((group) => group.items.some((item) => item.value === chosen))) return groups;
  return [{ group: 'Chosen', items: [{ value: chosen, label: value.label }] }, ...groups];
}

/**
 * A searchable select of firms and people to put on a ticket: the counterparty (firms and their dealers, grouped)
 * or a broker (broker firms' users). The server searches as the user types (250 ms debounce).
 */
export function ParticipantSelect({
  kind,
  ownClientId,
  ticketId,
  value,
  onChange,
  error,
  onBlur,
  inPopover = false,
  ...rest
}: ParticipantSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // The box shows the chosen label after a choice: that is not a search.
  const query = value && debounced === value.label ? '' : debounced;
  const byTicket = kind === 'broker' && Boolean(ticketId);
  const unified = useUsersClients({ search: query, broker: kind === 'broker' }, !byTicket);
  const brokers = useBrokers(ticketId ?? '', query, byTicket);
  const loaded = useMemo(
    () => (byTicket ? { users: brokers.data ?? [], clients: [] } : (unified.data ?? { users: [], clients: [] })),
    [byTicket, brokers.data, unified.data],
  );
  const groups = useMemo(
    () => withChosen(byTicket ? brokerGroups(loaded.users) : participantGroups(loaded, kind, ownClientId), value),
    [byTicket, loaded, kind, ownClientId, value],
  );
  const fetching = byTicket ? brokers.isFetching : unified.isFetching;
  return (
    <Select
      searchable
      clearable
      data={groups}
      value={value ? participantValue(value) : null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(next) =>
        onChange(next ? (pickParticipant(next, loaded) ?? (value && participantValue(value) === next ? value : null)) : null)
      }
      onBlur={onBlur}
      // The server filtered already; Mantine's own filter would hide a person found by their firm's name.
      filter={({ options }) => options}
      nothingFoundMessage={fetching ? 'Searching…' : 'No Entities Found'}
      error={error}
      comboboxProps={{ withinPortal: !inPopover }}
      maxDropdownHeight={220}
      {...rest}
    />
  );
}
