import { Button, EmptyState, Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { NetworkIcon, SearchIcon } from '../../../components/ui/icons';
import { BuildNetworkPanelRow, type BuildNetworkActions, type BuildNetworkRow } from './build-network-panel-row';
import classes from './panels.module.css';

export type { BuildNetworkActions, BuildNetworkRow } from './build-network-panel-row';

export interface BuildNetworkPanelProps extends BuildNetworkActions {
  sections: { trading: BuildNetworkRow[]; partners: BuildNetworkRow[]; brokers: BuildNetworkRow[] };
  search: string;
  onSearchChange: (search: string) => void;
  loading: boolean;
  /** Partners need the view-partners permission (`client.view_client`). */
  canViewPartners: boolean;
  /** Ops admins invite people to their firm (the route opens the invite form); others are told whom to ask. */
  canInvite: boolean;
  onInvite: () => void;
}

function Section({
  title,
  rows,
  empty,
  actions,
}: {
  title: string;
  rows: BuildNetworkRow[];
  empty: ReactNode;
  actions: BuildNetworkActions;
}) {
  return (
    <section aria-label={title}>
      <Group justify="space-between" className={classes.sectionTitle}>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {rows.length}
        </Text>
      </Group>
      {rows.length === 0 ? (
        <Text size="xs" c="dimmed" px={4} py={4}>
          {empty}
        </Text>
      ) : (
        <ul className={classes.rows} aria-label={title}>
          {rows.map((row) => (
            <BuildNetworkPanelRow key={row.clientId} row={row} actions={actions} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Up / Down move between the rows' first buttons (the list is long; Tab still walks every button). */
function moveBetweenRows(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('li button:not(:disabled)')].filter(
    (button) => button.closest('li')?.querySelector('button:not(:disabled)') === button,
  );
  const at = buttons.findIndex((button) => button.closest('li')?.contains(document.activeElement));
  const next = buttons[event.key === 'ArrowDown' ? at + 1 : Math.max(at - 1, 0)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/**
 * The spec's 'Build Network' panel (issue 15 §1): the firms we trade with and how they deal with us (response
 * rate, median time to answer, hit rate, quotes held / pulled over 90 days), partners, brokers and facilitators,
 * one search over all three, an invite, and per firm Chat, Private run and OTO RFQ.
 */
export function BuildNetworkPanel(props: BuildNetworkPanelProps) {
  const { sections, search, onSearchChange, loading, canViewPartners, canInvite, onInvite } = props;
  const searchRef = useRef<HTMLInputElement | null>(null);
  const searching = search.trim() !== '';
  const none = sections.trading.length + sections.partners.length + sections.brokers.length === 0;
  return (
    <Stack gap={6} p={8} h="100%" data-testid="network-panel">
      <Group gap={6} wrap="nowrap">
        <TextInput
          ref={searchRef}
          aria-label="Search firms and people"
          placeholder="Search firms and people"
          leftSection={<SearchIcon size={14} />}
          size="xs"
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && search) onSearchChange('');
          }}
          style={{ flex: 1 }}
          rightSection={loading ? <Loader size={12} aria-label="Searching" /> : null}
        />
        {canInvite ? (
          <Button size="compact-sm" variant="light" onClick={onInvite}>
            Invite
          </Button>
        ) : null}
      </Group>
      {none && !loading ? (
        <EmptyState
          size="sm"
          icon={<NetworkIcon />}
          withIndicatorBackground
          title={searching ? 'No firm or person matches' : 'Your network is empty'}
          description="Banks, funds, brokers and treasuries you trade with appear here. Quotes, runs and chats flow between the members of your network."
          py="md"
        />
      ) : (
        <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
          <Stack gap={8} onKeyDown={moveBetweenRows}>
            <Section
              title="Firms I trade with"
              rows={sections.trading}
              actions={props}
              empty={searching ? 'No firm you trade with matches.' : 'Firms you quote, negotiate or deal with in 90 days appear here.'}
            />
            <Section
              title="Partners"
              rows={sections.partners}
              actions={props}
              empty={canViewPartners ? 'Firms you have tickets with appear here.' : 'Seeing partners needs the View partners permission.'}
            />
            <Section title="Brokers and facilitators" rows={sections.brokers} actions={props} empty="No broker matches." />
          </Stack>
        </ScrollArea>
      )}
      {canInvite ? null : (
        <Text size="xs" c="dimmed">
          Your organisation&apos;s ops admin invites people to your network from Manage users.
        </Text>
      )}
    </Stack>
  );
}
