import type { Ticket } from '@dart/contracts';
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatPrice } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import type { TicketCommands } from '../hooks/use-ticket-commands';
import { myRole, sideAccepted } from '../utils/ticket-format';
import { AcceptConsiderationButton, CloseTicketButton, SendToBrokerButton } from './action-popovers';
import { BrokerageForm, EditTermsForm, PriceForm } from './ticket-forms';
import { Section } from './ticket-details';
import type { TicketsSlots } from './tickets-slots';
import classes from './tickets.module.css';

type OpenForm = 'price' | 'edit' | 'brokerage' | null;

export interface TicketActionsProps extends Pick<TicketsSlots, 'renderPricing'> {
  ticket: Ticket;
  clientId: string;
  commands: TicketCommands;
}

const toastRefusal = (error: unknown) =>
  showToast({ severity: 'error', summary: 'The ticket was not changed', detail: describeError(error) });

/**
 * What the user may do to the ticket now: exactly the server's `my_actions`, as buttons (send, confirm price,
 * accept consideration with a custodian, reject or cancel with a reason, send to broker) and small forms
 * (price, terms, brokerage) opened in place. Nothing for a ticket with no action of the user's.
 */
export function TicketActions({ ticket, clientId, commands, renderPricing }: TicketActionsProps) {
  const [form, setForm] = useState<OpenForm>(null);
  const [busy, setBusy] = useState(false);
  const can = (action: Ticket['my_actions'][number]) => ticket.my_actions.includes(action);
  if (ticket.my_actions.length === 0) return null;
  const role = myRole(ticket, clientId);
  const broker = ticket.broker_details.find((entry) => entry.client_id === clientId);
  const toggle = (next: OpenForm) => setForm((open) => (open === next ? null : next));
  const sendDraft = async () => {
    setBusy(true);
    await commands.send(ticket).catch(toastRefusal);
    setBusy(false);
  };

  return (
    <Section title="Your actions" testId="ticket-actions">
      <div className={classes.actions}>
        {can('send') ? (
          <Button size="compact-sm" onClick={() => void sendDraft()} loading={busy}>
            Send to counterparty
          </Button>
        ) : null}
        {can('price') ? (
          <Button size="compact-sm" variant={form === 'price' ? 'filled' : 'light'} onClick={() => toggle('price')}>
            {ticket.state === 'sent' ? `Price (${formatPrice(ticket.price)})` : 'Re-price'}
          </Button>
        ) : null}
        {can('accept_consideration') ? <AcceptConsiderationButton ticket={ticket} commands={commands} size="compact-sm" /> : null}
        {can('edit') ? (
          <Button size="compact-sm" variant={form === 'edit' ? 'filled' : 'default'} onClick={() => toggle('edit')}>
            Edit terms
          </Button>
        ) : null}
        {can('brokerage') && broker ? (
          <Button size="compact-sm" variant={form === 'brokerage' ? 'filled' : 'default'} onClick={() => toggle('brokerage')}>
            Set brokerage
          </Button>
        ) : null}
        {can('send_to_broker') ? <SendToBrokerButton ticket={ticket} commands={commands} size="compact-sm" /> : null}
        {can('reject') ? <CloseTicketButton ticket={ticket} commands={commands} kind="reject" size="compact-sm" /> : null}
        {can('cancel') ? <CloseTicketButton ticket={ticket} commands={commands} kind="cancel" size="compact-sm" /> : null}
      </div>
      {can('accept_consideration') && sideAccepted(ticket, role) ? (
        <Text size="xs" c="dimmed" mt={4}>
          Your side has accepted; waiting for the other side.
        </Text>
      ) : null}
      {form === 'price' && can('price') ? (
        <div style={{ marginTop: 8 }}>
          <PriceForm ticket={ticket} commands={commands} onDone={() => setForm(null)} renderPricing={renderPricing} />
        </div>
      ) : null}
      {form === 'edit' && can('edit') ? (
        <div style={{ marginTop: 8 }}>
          <EditTermsForm ticket={ticket} commands={commands} onDone={() => setForm(null)} />
        </div>
      ) : null}
      {form === 'brokerage' && broker ? (
        <div style={{ marginTop: 8 }}>
          <BrokerageForm ticket={ticket} commands={commands} onDone={() => setForm(null)} current={broker.brokerage} />
        </div>
      ) : null}
    </Section>
  );
}
