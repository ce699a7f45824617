import { Alert, Button, Center, EmptyState, Group, Loader, Text, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { TicketIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { useRovingFocus } from '../../../lib/hotkeys';
import { useOpenTickets } from '../api/list-tickets';
import { useTicketCommands } from '../hooks/use-ticket-commands';
import { needsAction, sortTickets } from '../utils/ticket-format';
import { TicketRow } from './ticket-row';
import classes from './tickets.module.css';

export interface TicketingPanelProps {
  clientId: string;
  canTrade: boolean;
  onOpen: (ticketId: string) => void;
  onNewTicket: () => void;
}

/**
 * Ticketing (spec §2 panel): the firm's open tickets, those needing the user's action first, each with
 * its state, side, bond, counterparty, size, price and yield, consideration, the countdown to the
 * reporting deadline and one-click actions; a click opens the ticket. Kept live by the ticket topics.
 */
export function TicketingPanel({ clientId, canTrade, onOpen, onNewTicket }: TicketingPanelProps) {
  const query = useOpenTickets();
  const commands = useTicketCommands();
  const tickets = useMemo(() => sortTickets(query.data?.results ?? []), [query.data]);
  const needAction = canTrade ? tickets.filter(needsAction).length : 0;
  const roving = useRovingFocus<HTMLUListElement>({ enterLabel: 'Open the ticket' });

  return (
    <section aria-labelledby="panel-ticketing" className={classes.panel} data-testid="panel-ticketing">
      <VisuallyHidden id="panel-ticketing">Ticketing</VisuallyHidden>
      <Group justify="space-between" wrap="nowrap" gap="xs" className={classes.panelHeader}>
        <Text size="xs" c="dimmed" truncate data-testid="ticketing-summary">
          {query.isPending
            ? 'Loading tickets…'
            : `${tickets.length} open${needAction > 0 ? ` · ${needAction} need${needAction === 1 ? 's' : ''} your action` : ''}`}
        </Text>
        {canTrade ? (
          <Button size="compact-xs" variant="light" onClick={onNewTicket} className={classes.noShrink}>
            New ticket
          </Button>
        ) : null}
      </Group>
      <div className={classes.panelBody}>
        {query.isError ? (
          <Alert color="red" variant="light" title="Could not load tickets">
            <Group gap="xs" justify="space-between">
              <Text size="sm">{describeError(query.error)}</Text>
              <Button size="compact-xs" variant="default" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : query.isPending ? (
          <Center py="lg">
            <Loader size="sm" aria-label="Loading tickets" />
          </Center>
        ) : tickets.length === 0 ? (
          <EmptyState
            size="sm"
            icon={<TicketIcon />}
            withIndicatorBackground
            title="No open tickets"
            description="Every deal your firm makes is ticketed here: confirm the price, accept the consideration, and follow it to reporting and settlement."
            py="lg"
          />
        ) : (
          <ul className={classes.list} aria-label="Open tickets" {...roving}>
            {tickets.map((ticket) => (
              <TicketRow key={ticket.id} ticket={ticket} clientId={clientId} canTrade={canTrade} commands={commands} onOpen={onOpen} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
