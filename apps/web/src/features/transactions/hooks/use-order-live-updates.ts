/**
 * Keeps the blotter current: `trade.open_orders` (an order or procurement order changed) and
 * `trade.refresh_tickets` (a ticket was confirmed, reported, settled…) refetch every orders query. Events come in
 * bursts (one per side and state), so they are gathered for a moment and the lists load once; a reconnect after
 * being offline refetches too.
 */
import { POST_TRADE_TOPICS } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveEvents } from '../../../lib/live';
import { ORDERS_KEY } from '../api/list-orders';

const GATHER_MS = 250;
const TOPICS: readonly string[] = [POST_TRADE_TOPICS.openOrders, POST_TRADE_TOPICS.refreshTickets];

export function useOrderLiveUpdates(): void {
  const queryClient = useQueryClient();
  const timer = useRef<number | null>(null);
  const refresh = () => {
    if (timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      // A load on its way may predate the event: this one replaces it.
      void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    }, GATHER_MS);
  };
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((event) => {
    if (TOPICS.includes(event.topic)) refresh();
  }, refresh);
}
