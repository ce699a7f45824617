import { CHAT_LIMITS } from '@dart/contracts';
import { Avatar, Badge, Checkbox, Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { SearchIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useChatUserSearch, type ChatUser } from '../api/search-users';
import { initials } from '../utils/chat-format';
import classes from './chat.module.css';

/** Search debounce of spec §9. */
const SEARCH_DEBOUNCE_MS = 300;

interface UserPickerProps {
  /** Single: clicking a user picks it. Multiple: checkboxes toggle `selected`. */
  mode: 'single' | 'multiple';
  selected?: readonly ChatUser[];
  onPick: (user: ChatUser) => void;
  /** Users not offered (already members, me). */
  exclude?: readonly string[];
  label?: string;
}

export const userLabel = (user: ChatUser) => (user.is_staff ? PRODUCT_NAME : user.nickname);

/**
 * User search of spec §7 (`GET api/chatter/user/search`, page size 20), debounced 300 ms; with an
 * empty box it shows the suggested list.
 */
export function UserPicker({ mode, selected = [], onPick, exclude = [], label = 'Search people' }: UserPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useChatUserSearch(debounced);
  const users = (query.data?.results ?? []).filter((user) => !exclude.includes(user.id));
  const selectedIds = new Set(selected.map((user) => user.id));

  return (
    <Stack gap={6}>
      <TextInput
        label={label}
        placeholder="Name, firm or e-mail"
        leftSection={<SearchIcon size={16} />}
        rightSection={query.isFetching ? <Loader size={14} /> : null}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maxLength={100}
        data-testid="chat-user-search"
        data-autofocus
      />
      <Text size="xs" c="dimmed">
        {query.data?.suggested ? 'Suggested' : debounced ? `Results for “${debounced}”` : ''}
      </Text>
      <ScrollArea.Autosize mah={240} type="auto">
        <Stack gap={2} role="list" aria-label="People">
          {query.error ? (
            <Text size="sm" c="red">
              {describeError(query.error)}
            </Text>
          ) : users.length === 0 && !query.isPending ? (
            <Text size="sm" c="dimmed" py="xs">
              No user found.
            </Text>
          ) : (
            users.slice(0, CHAT_LIMITS.userSearchPageSize).map((user) => (
              <div role="listitem" key={user.id}>
                <button
                  type="button"
                  className={classes.userOption}
                  onClick={() => onPick(user)}
                  aria-pressed={mode === 'multiple' ? selectedIds.has(user.id) : undefined}
                  data-testid="chat-user-option"
                >
                  {mode === 'multiple' ? (
                    <Checkbox checked={selectedIds.has(user.id)} readOnly tabIndex={-1} aria-hidden size="xs" />
                  ) : null}
                  <Avatar size={28} radius="xl" variant="light">
                    {initials(userLabel(user))}
                  </Avatar>
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate="end">
                      {userLabel(user)}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {user.brand_name}
                    </Text>
                  </Stack>
                  <Group gap={4}>
                    {user.is_connection ? (
                      <Badge size="xs" variant="light" color="teal">
                        Connection
                      </Badge>
                    ) : null}
                    {!user.onboarded ? (
                      <Badge size="xs" variant="light" color="gray">
                        Not on chat yet
                      </Badge>
                    ) : null}
                  </Group>
                </button>
              </div>
            ))
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
