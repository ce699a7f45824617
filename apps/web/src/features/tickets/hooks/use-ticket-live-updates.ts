/**
 * Applies the post-trade topics of `ws/trade/d/` (contracts POST_TRADE_TOPICS) to the tickets' query
 * keys: `trade.refresh_tickets`, `trade.consideration_update` and `trade.open_orders` each name a ticket,
 * whose detail and the open list are refetched (the payloads carry ids and states only). A new ticket or a
 * consideration update someone else caused raises a toast with the notification sound; the echo of the
 * user's own action does not (utils/own-changes.ts). A reconnect after being offline refetches every ticket query.
 */
import { formatRupees, POST_TRADE_TOPICS } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useLiveEvents } from '../../../lib/live';
import { showToast } from '../../../lib/toast';
import { TICKET_KEY } from '../api/get-ticket';
import { OPEN_TICKETS_KEY, TICKETS_KEY } from '../api/list-tickets';
import { isOwnEcho } from '../utils/own-changes';
import { refreshKey } from '../../../lib/refresh-key';

/** The fields the panel reads of each topic's payload (the server may send more). */
const TicketEventSchema = z.object({ ticket_id: z.uuid(), state: z.string().optional(), action: z.string().optional() });
const ConsiderationEventSchema = z.object({ ticket_id: z.uuid(), consideration: z.number().optional() });

const TOPICS: readonly string[] = Object.values(POST_TRADE_TOPICS);

export interface TicketLiveOptions {
  /** Opens a ticket (the toast's "Open" action). */
  onOpen?: (ticketId: string) => void;
}

export function useTicketLiveUpdates({ onOpen }: TicketLiveOptions = {}): void {
  const queryClient = useQueryClient();
  useLiveEvents(
    (event) => {
      if (!TOPICS.includes(event.topic)) return;
      const parsed = TicketEventSchema.safeParse(event.payload);
      if (!parsed.success) return;
      const { ticket_id: ticketId, action } = parsed.data;
      refreshKey(queryClient, OPEN_TICKETS_KEY);
      if (queryClient.getQueryData([...TICKET_KEY, ticketId]) !== undefined) refreshKey(queryClient, [...TICKET_KEY, ticketId]);
      if (isOwnEcho(ticketId, action)) return;
      const open = onOpen ? { actionText: 'Open', onAction: () => onOpen(ticketId) } : {};
      if (event.topic === POST_TRADE_TOPICS.refreshTickets && action === 'created')
        showToast({
          severity: 'info',
          summary: 'New ticket',
          detail: 'A trade of your firm was ticketed.',
          sound: 'notification',
          ...open,
        });
      if (event.topic === POST_TRADE_TOPICS.considerationUpdate) {
        const consideration = ConsiderationEventSchema.safeParse(event.payload).data?.consideration;
        showToast({
          severity: 'info',
          summary: 'Consideration updated',
          detail: consideration === undefined ? 'The terms of a ticket changed.' : `Consideration now ${formatRupees(consideration)}.`,
          sound: 'notification',
          ...open,
        });
      }
    },
    () => refreshKey(queryClient, TICKETS_KEY),
  );
}
