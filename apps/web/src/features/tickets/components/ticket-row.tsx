import type { Ticket } from '@dart/contracts';
import { Button, Group, Text } from '@mantine/core';
import type { KeyboardEvent, MouseEvent } from 'react';
import { describeError } from '../../../lib/errors';
import { formatBondName, formatPrice, formatSize, formatYield } from '../../../lib/format';
import { ROVING_ITEM } from '../../../lib/hotkeys';
import { showToast } from '../../../lib/toast';
import { formatRupees } from '@dart/contracts';
import type { TicketCommands } from '../hooks/use-ticket-commands';
import { counterpartyLabel, needsAction } from '../utils/ticket-format';
import { AcceptConsiderationButton, CloseTicketButton, SendToBrokerButton } from './action-popovers';
import { ReportCountdown } from './report-countdown';
import { TicketStateBadge } from './ticket-state-badge';
import classes from './tickets.module.css';

export interface TicketRowProps {
  ticket: Ticket;
  clientId: string;
  canTrade: boolean;
  commands: TicketCommands;
  onOpen: (id: string) => void;
}

const toastRefusal = (error: unknown) =>
  showToast({ severity: 'error', summary: 'The ticket was not changed', detail: describeError(error) });

/**
 * One ticket in the panel: number, state, side (from the user's side), bond and the reporting countdown;
 * then size, price, yield, consideration and counterparty; then the one-click actions of `my_actions`.
 * A click (or Enter) opens the ticket.
 */
export function TicketRow({ ticket, clientId, canTrade, commands, onOpen }: TicketRowProps) {
  const actions = canTrade ? ticket.my_actions : [];
  const can = (action: Ticket['my_actions'][number]) => actions.includes(action);
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) {
      event.preventDefault();
      onOpen(ticket.id);
    }
  };
  const oneClick = (run: () => Promise<unknown>) => (event: MouseEvent) => {
    event.stopPropagation();
    run().catch(toastRefusal);
  };
  const sell = ticket.buy_or_sell === 'sell';
  const counterparty = counterpartyLabel(ticket, clientId);
  return (
    <li
      {...ROVING_ITEM}
      className={classes.row}
      data-testid="ticket-row"
      data-ticket={ticket.number}
      data-needs-action={canTrade && needsAction(ticket) ? 'true' : undefined}
      aria-label={`${ticket.number} ${sell ? 'Sell' : 'Buy'} ${ticket.bond_name}`}
      onClick={() => onOpen(ticket.id)}
      onKeyDown={onKeyDown}
    >
      <Group gap={6} wrap="nowrap">
        <Text size="xs" fw={600} className={classes.mono}>
          {ticket.number}
        </Text>
        <TicketStateBadge state={ticket.state} size="xs" />
        <Text size="xs" fw={700} c={sell ? 'red' : 'teal'} className={classes.noShrink}>
          {sell ? 'Sell' : 'Buy'}
        </Text>
        <Text size="xs" truncate className={classes.grow} title={ticket.bond_name}>
          {formatBondName(ticket.bond_name)}
        </Text>
        <ReportCountdown ticket={ticket} />
      </Group>
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed" className={classes.mono}>
          {formatSize(ticket.quantum)} · {formatPrice(ticket.price)} · {formatYield(ticket.yield)} ·{' '}
          <Text span size="xs" fw={600} c="var(--mantine-color-text)">
            {formatRupees(ticket.consideration.consideration)}
          </Text>
        </Text>
        <Text size="xs" c="dimmed" truncate className={classes.grow} ta="right" title={counterparty}>
          {counterparty}
        </Text>
      </Group>
      {can('send') || can('price') || can('accept_consideration') || can('reject') || can('cancel') || can('send_to_broker') ? (
        <Group gap={4} mt={2} wrap="wrap" justify="flex-end">
          {can('send') ? (
            <Button size="compact-xs" onClick={oneClick(() => commands.send(ticket))}>
              Send
            </Button>
          ) : null}
          {can('price') && ticket.state === 'sent' ? (
            <Button
              size="compact-xs"
              onClick={oneClick(() => commands.price(ticket))}
              title={`Confirm ${formatPrice(ticket.price)} (${formatYield(ticket.yield)})`}
            >
              Confirm price
            </Button>
          ) : null}
          {can('price') ? (
            <Button
              size="compact-xs"
              variant={ticket.state === 'sent' ? 'default' : 'light'}
              onClick={(event) => {
                event.stopPropagation();
                onOpen(ticket.id);
              }}
              title="Quote another price or yield in the ticket"
            >
              {ticket.state === 'sent' ? 'Other price…' : 'Re-price…'}
            </Button>
          ) : null}
          {can('accept_consideration') ? <AcceptConsiderationButton ticket={ticket} commands={commands} /> : null}
          {can('reject') ? <CloseTicketButton ticket={ticket} commands={commands} kind="reject" /> : null}
          {can('cancel') && !can('reject') ? <CloseTicketButton ticket={ticket} commands={commands} kind="cancel" /> : null}
          {can('send_to_broker') ? <SendToBrokerButton ticket={ticket} commands={commands} /> : null}
        </Group>
      ) : null}
    </li>
  );
}
