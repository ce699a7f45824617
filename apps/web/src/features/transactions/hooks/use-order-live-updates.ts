/**
 * Keeps the blotter current: `trade.open_orders` (an order or procurement order changed) and
 * `trade.refresh_tickets` (a ticket was confirmed, reported, settled…) refetch every orders query (gathered, and on
 * reconnect: `useLiveRefetch`).
 */
import { POST_TRADE_TOPICS } from '@dart/contracts';
import { useLiveRefetch } from '../../../lib/live';
import { ORDERS_KEY } from '../api/list-orders';

const TOPICS: readonly string[] = [POST_TRADE_TOPICS.openOrders, POST_TRADE_TOPICS.refreshTickets];

export function useOrderLiveUpdates(): void {
  useLiveRefetch(TOPICS, ORDERS_KEY);
}
