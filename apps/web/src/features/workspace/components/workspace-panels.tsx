import { Badge, EmptyState, Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { ChatIcon, NetworkIcon, TicketIcon } from '../../../components/ui/icons';
import { BUILD_NETWORK_PANEL, clearStaleWorkspaceLayout } from '../utils/stored-layout';
import classes from './workspace-panels.module.css';

interface PanelDefinition {
  id: string;
  title: string;
  icon: ReactNode;
  emptyTitle: string;
  emptyDescription: string;
  wide?: boolean;
}

interface WorkspacePanelsProps {
  /** The chat panel's body (the chat feature's compact workspace), passed by the route: features do not import each other. */
  chat?: ReactNode;
}

/**
 * The workspace panels of spec §2 whose features come later, each with its empty state. Private
 * runs, public runs and RFQ quotes are the market feature's (composed by the /dart route).
 */
const PANELS: readonly PanelDefinition[] = [
  {
    id: 'build-network',
    title: BUILD_NETWORK_PANEL,
    icon: <NetworkIcon />,
    emptyTitle: 'Your network is empty',
    emptyDescription:
      'Add the banks, funds, brokers and treasuries you trade with. Quotes, runs and chats flow between the members of your network.',
  },
  {
    id: 'chat',
    title: 'Chat',
    icon: <ChatIcon />,
    emptyTitle: 'No conversations yet',
    emptyDescription: 'Direct and group chats with your counterparties will appear here, with trades negotiated inline.',
    wide: true,
  },
  {
    id: 'ticketing',
    title: 'Ticketing',
    icon: <TicketIcon />,
    emptyTitle: 'No tickets yet',
    emptyDescription: 'Deal tickets you create or receive, from negotiation to exchange reporting, will be listed here.',
  },
];

/** The trading workspace: its panels; chat when the route passes it, the others in their empty state until they ship. */
export function WorkspacePanels({ chat }: WorkspacePanelsProps = {}) {
  useEffect(() => clearStaleWorkspaceLayout(), []);

  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" className={classes.grid}>
      {PANELS.map((panel) => (
        <Paper
          key={panel.id}
          withBorder
          radius="md"
          className={classes.panel}
          data-wide={panel.wide || undefined}
          component="section"
          aria-labelledby={`panel-${panel.id}`}
        >
          <Group justify="space-between" className={classes.header} wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <ThemeIcon variant="light" size="md" radius="sm">
                {panel.icon}
              </ThemeIcon>
              <Text fw={600} id={`panel-${panel.id}`}>
                {panel.title}
              </Text>
            </Group>
            {panel.id === 'chat' && chat ? null : (
              <Badge variant="light" color="gray" radius="sm" size="sm">
                Coming soon
              </Badge>
            )}
          </Group>
          {panel.id === 'chat' && chat ? (
            <div className={classes.slot} data-testid="workspace-chat">
              {chat}
            </div>
          ) : (
            <EmptyState
              className={classes.body}
              size="sm"
              icon={panel.icon}
              withIndicatorBackground
              title={panel.emptyTitle}
              description={panel.emptyDescription}
            />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
