import { Badge, EmptyState, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { NetworkIcon, SearchIcon } from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import classes from './panels.module.css';

/** A firm of the user's network: the people of it the search found, and the deals done with it. */
export interface NetworkFirm {
  id: string;
  name: string;
  people: string[];
  deals: number;
}

export interface BuildNetworkPanelProps {
  firms: NetworkFirm[];
  search: string;
  onSearchChange: (search: string) => void;
  loading: boolean;
  /** Ops admins invite people to their firm (/manage-users); others are told whom to ask. */
  canInvite: boolean;
}

/**
 * The spec's 'Build Network' panel (issue 12 §2): the firms and people the user trades with (the
 * firms of their deals first, then Dart's trading firms and members), with a search and an invite.
 */
export function BuildNetworkPanel({ firms, search, onSearchChange, loading, canInvite }: BuildNetworkPanelProps) {
  return (
    <Stack gap={6} p={8} data-testid="network-panel">
      <Group gap={6} wrap="nowrap">
        <TextInput
          aria-label="Search firms and people"
          placeholder="Search firms and people"
          leftSection={<SearchIcon size={14} />}
          size="xs"
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
          style={{ flex: 1 }}
          rightSection={loading ? <Loader size={12} aria-label="Searching" /> : null}
        />
        {canInvite ? (
          <ButtonLink to="/manage-users" size="compact-sm" variant="light">
            Invite
          </ButtonLink>
        ) : null}
      </Group>
      {firms.length === 0 && !loading ? (
        <EmptyState
          size="sm"
          icon={<NetworkIcon />}
          withIndicatorBackground
          title={search.trim() ? 'No firm or person matches' : 'Your network is empty'}
          description="Banks, funds, brokers and treasuries you trade with appear here. Quotes, runs and chats flow between the members of your network."
          py="md"
        />
      ) : (
        <ul className={classes.rows} aria-label="Your network">
          {firms.map((firm) => (
            <li key={firm.id} className={classes.row} data-testid="network-firm">
              <div className={classes.rowMain}>
                <Text size="sm" fw={500} truncate title={firm.name}>
                  {firm.name}
                </Text>
                {firm.people.length > 0 ? (
                  <Text size="xs" c="dimmed" truncate title={firm.people.join(', ')}>
                    {firm.people.join(', ')}
                  </Text>
                ) : null}
              </div>
              {firm.deals > 0 ? (
                <Badge size="sm" variant="light" color="teal" radius="sm" className={classes.noShrink}>
                  {firm.deals} {firm.deals === 1 ? 'deal' : 'deals'}
                </Badge>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canInvite ? null : (
        <Text size="xs" c="dimmed">
          Your organisation's admin invites colleagues from Manage users.
        </Text>
      )}
    </Stack>
  );
}
