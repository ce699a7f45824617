import type { Ticket } from '@dart/contracts';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { describeError } from '../../../lib/errors';
import { formatBondName } from '../../../lib/format';
import { useTicket } from '../api/get-ticket';
import { useTicketCommands } from '../hooks/use-ticket-commands';
import { counterpartyLabel, myRole, ROLE_LABELS } from '../utils/ticket-format';
import { ReportCountdown } from './report-countdown';
import { TicketActions } from './ticket-actions';
import { ConsiderationBreakdown, TicketAcceptances, TicketParties, TicketTerms } from './ticket-details';
import { TicketHistory } from './ticket-history';
import { TicketOrders } from './ticket-orders';
import { TicketStateBadge } from './ticket-state-badge';
import type { TicketsSlots } from './tickets-slots';
import classes from './tickets.module.css';

export interface TicketDialogProps extends Pick<TicketsSlots, 'renderPricing'> {
  /** The ticket shown; null: the dialog is closed. */
  ticketId: string | null;
  onClose: () => void;
  clientId: string;
  canTrade: boolean;
}

/** The ticket's headline: number, state, side from the user's side, the user's role and the reporting countdown. */
function Headline({ ticket, clientId }: { ticket: Ticket; clientId: string }) {
  const role = myRole(ticket, clientId);
  const sell = ticket.buy_or_sell === 'sell';
  return (
    <Stack gap={4}>
      <Group gap={8} wrap="wrap">
        <Text fw={700} className={classes.mono} data-testid="ticket-number">
          {ticket.number}
        </Text>
        <TicketStateBadge state={ticket.state} />
        <Text fw={800} c={sell ? 'red' : 'teal'}>
          {sell ? 'Sell' : 'Buy'}
        </Text>
        {role ? (
          <Badge variant="outline" color="gray" radius="sm" size="sm" tt="none">
            You: {ROLE_LABELS[role]}
          </Badge>
        ) : null}
        <Group ml="auto" gap={4}>
          <ReportCountdown ticket={ticket} size="sm" withLabel />
        </Group>
      </Group>
      <Text fw={600} title={ticket.bond_name}>
        {formatBondName(ticket.bond_name)}{' '}
        <Text span size="sm" c="dimmed" className={classes.mono}>
          {ticket.isin}
        </Text>
      </Text>
      <Text size="sm" c="dimmed">
        With {counterpartyLabel(ticket, clientId)}
      </Text>
    </Stack>
  );
}

/**
 * One ticket in full: terms, both parties and their brokers, the consideration breakdown, each side's acceptance
 * with its custodian, the orders once confirmed, the actions the user may take now, and the whole history as
 * stamps. Loads `GET api/chatter/trade/{id}/` (with history) and stays live through the tickets' query keys.
 */
export function TicketDialog({ ticketId, onClose, clientId, canTrade, renderPricing }: TicketDialogProps) {
  const query = useTicket(ticketId);
  const commands = useTicketCommands();
  const ticket = query.data;
  return (
    <Modal
      opened={ticketId !== null}
      onClose={onClose}
      title={<Text fw={600}>{ticket ? `Ticket ${ticket.number}` : 'Ticket'}</Text>}
      size="xl"
      aria-label="Ticket"
      data-testid="ticket-dialog"
    >
      {!ticket ? (
        query.isError ? (
          <Alert color="red" variant="light" title="Could not load the ticket">
            <Group gap="xs" justify="space-between">
              <Text size="sm">{describeError(query.error)}</Text>
              <Button size="compact-xs" variant="default" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : (
          <Loader size="sm" aria-label="Loading the ticket" />
        )
      ) : (
        <Stack gap="sm">
          <Headline ticket={ticket} clientId={clientId} />
          {ticket.reason ? (
            <Alert
              color={ticket.state === 'failed' ? 'red' : 'gray'}
              variant="light"
              title={ticket.state_label}
              py={6}
              data-testid="ticket-reason"
            >
              {ticket.reason}
            </Alert>
          ) : null}
          {ticket.report_alert ? (
            <Alert color={ticket.report_alert === 'escalated' ? 'red' : 'orange'} variant="light" py={6}>
              {ticket.report_alert === 'escalated'
                ? 'Not reported within 15 minutes of the deal: escalated.'
                : 'Not yet reported 10 minutes after the deal: report it within 15 minutes.'}
            </Alert>
          ) : null}
          {canTrade ? <TicketActions ticket={ticket} clientId={clientId} commands={commands} renderPricing={renderPricing} /> : null}
          <TicketTerms ticket={ticket} />
          <ConsiderationBreakdown ticket={ticket} />
          <TicketAcceptances ticket={ticket} />
          <TicketParties ticket={ticket} />
          <TicketOrders ticket={ticket} />
          {ticket.history ? <TicketHistory history={ticket.history} /> : <Loader size="xs" aria-label="Loading the history" />}
        </Stack>
      )}
    </Modal>
  );
}
