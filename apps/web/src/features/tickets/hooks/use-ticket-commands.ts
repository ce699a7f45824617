/**
 * The ticket's actions as commands shared by the panel's rows and the dialog: each sends the ticket's
 * `version` (a change by someone else meanwhile is refused with 409 and the ticket is reloaded) and one
 * Idempotency-Key per submit, toasts what happened, and returns the ticket as it now is (or throws the
 * server's refusal for the caller to show).
 */
import { HttpError } from '@dart/client';
import { TICKET_STATE_LABELS, type Ticket } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { showToast } from '../../../lib/toast';
import { useAcceptConsideration } from '../api/accept-consideration';
import { useEditTicket, type EditTicketRequest } from '../api/edit-ticket';
import { TICKET_KEY } from '../api/get-ticket';
import { OPEN_TICKETS_KEY } from '../api/list-tickets';
import { usePriceTicket } from '../api/price-ticket';
import { useSendToBroker } from '../api/send-to-broker';
import { useSetBrokerage } from '../api/set-brokerage';
import { useTicketAction } from '../api/ticket-action';
import type { Custodian } from '../api/search-custodians';
import { refreshKey } from '../../../lib/refresh-key';

const newKey = () => crypto.randomUUID();

export type TicketTermsChange = Omit<EditTicketRequest['body'], 'version'>;

export function useTicketCommands() {
  const queryClient = useQueryClient();
  const price = usePriceTicket();
  const accept = useAcceptConsideration();
  const action = useTicketAction();
  const edit = useEditTicket();
  const toBroker = useSendToBroker();
  const brokerage = useSetBrokerage();

  /** A 409 (the state moved on, or a stale version): reload what the user sees before they try again. */
  async function guard(ticket: Ticket, run: () => Promise<Ticket>): Promise<Ticket> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        refreshKey(queryClient, [...TICKET_KEY, ticket.id]);
        refreshKey(queryClient, OPEN_TICKETS_KEY);
      }
      throw error;
    }
  }

  return {
    pending: price.isPending || accept.isPending || action.isPending || edit.isPending || toBroker.isPending || brokerage.isPending,

    /** Quote the price, by clean price (per ₹100) or by yield (a fraction); without either, confirm the ticket's price. */
    price: (ticket: Ticket, by: { price: number } | { yield: number } = { price: ticket.price }) =>
      guard(ticket, async () => {
        const next = await price.mutateAsync({ id: ticket.id, body: { version: ticket.version, ...by }, idempotencyKey: newKey() });
        showToast({
          severity: 'success',
          summary: 'Price confirmed',
          detail: `${ticket.number}: waiting for both sides to accept the consideration.`,
        });
        return next;
      }),

    accept: (ticket: Ticket, custodian: Custodian) =>
      guard(ticket, async () => {
        const next = await accept.mutateAsync({
          id: ticket.id,
          body: { version: ticket.version, custodian_id: custodian.client_id },
          idempotencyKey: newKey(),
        });
        const confirmed = next.state !== 'priced';
        showToast({
          severity: 'success',
          summary: confirmed ? 'Trade confirmed' : 'Consideration accepted',
          detail: confirmed
            ? `${ticket.number} is being reported to ${next.exchange}.`
            : `${ticket.number}: waiting for the other side to accept.`,
        });
        return next;
      }),

    send: (ticket: Ticket) =>
      guard(ticket, async () => {
        const next = await action.mutateAsync({
          id: ticket.id,
          action: 'send',
          body: { version: ticket.version },
          idempotencyKey: newKey(),
        });
        showToast({
          severity: 'success',
          summary: 'Ticket sent',
          detail: `${ticket.number}: ${TICKET_STATE_LABELS[next.state].toLowerCase()}.`,
        });
        return next;
      }),

    /** Reject (the counterparty, or a principal once priced) or cancel, with the reason. */
    close: (ticket: Ticket, kind: 'reject' | 'cancel', reason: string) =>
      guard(ticket, async () => {
        const next = await action.mutateAsync({
          id: ticket.id,
          action: kind,
          body: { version: ticket.version, reason },
          idempotencyKey: newKey(),
        });
        showToast({ severity: 'info', summary: kind === 'reject' ? 'Ticket rejected' : 'Ticket cancelled', detail: ticket.number });
        return next;
      }),

    edit: (ticket: Ticket, change: TicketTermsChange) =>
      guard(ticket, async () => {
        const next = await edit.mutateAsync({ id: ticket.id, body: { version: ticket.version, ...change }, idempotencyKey: newKey() });
        showToast({ severity: 'success', summary: 'Terms changed', detail: `${ticket.number}: both sides accept the new consideration.` });
        return next;
      }),

    sendToBroker: (ticket: Ticket, brokerUserId: string, brokerName: string) =>
      guard(ticket, async () => {
        const next = await toBroker.mutateAsync({
          id: ticket.id,
          body: { version: ticket.version, broker_user_id: brokerUserId },
          idempotencyKey: newKey(),
        });
        showToast({ severity: 'success', summary: 'Sent to broker', detail: `${ticket.number} → ${brokerName}` });
        return next;
      }),

    setBrokerage: (ticket: Ticket, rupees: number) =>
      guard(ticket, async () => {
        const next = await brokerage.mutateAsync({
          id: ticket.id,
          body: { version: ticket.version, brokerage: rupees },
          idempotencyKey: newKey(),
        });
        showToast({ severity: 'success', summary: 'Brokerage set', detail: ticket.number });
        return next;
      }),
  };
}

export type TicketCommands = ReturnType<typeof useTicketCommands>;
