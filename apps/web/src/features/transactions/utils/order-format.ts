/**
 * How an order reads in the blotter and what a trader may do to it. The contracts give an order no `my_actions`:
 * the actions offered follow the order state machine of `post-trade.ts` (the server still decides, and refuses
 * with 409 naming the state). Pure, unit-tested beside.
 */
import { ORDER_STATE_LABELS, type Order, type OrderKind, type OrderState } from '@dart/contracts';
import { formatDate } from '../../../lib/format';

export const ORDER_STATE_COLORS: Record<OrderState, string> = {
  reporting: 'violet',
  mismatch: 'orange',
  reported: 'teal',
  accepted: 'blue',
  rejected: 'gray',
  settled: 'green',
  failed: 'red',
  cancelled: 'gray',
};

/** The state tabs of the blotter, in the order a trade goes through them. */
export const STATE_TABS: readonly { value: OrderState | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...(['reporting', 'mismatch', 'reported', 'accepted', 'settled', 'failed', 'cancelled', 'rejected'] as const).map((state) => ({
    value: state,
    label: ORDER_STATE_LABELS[state],
  })),
];

export const KIND_SHORT_LABELS: Record<OrderKind, string> = { order: 'Order', procurement: 'Procurement' };

export type OrderActionId = 'accept' | 'reject' | 'cancel' | 'settle' | 'settle_cancel';

export const ORDER_ACTION_LABELS: Record<OrderActionId, string> = {
  accept: 'Accept',
  reject: 'Reject consideration',
  cancel: 'Cancel trade',
  settle: 'Retry settlement',
  settle_cancel: 'Cancel settlement',
};

/** Actions that ask for a reason first (required for reject and cancel, optional for cancelling a settlement). */
export const REASON_ACTIONS: Readonly<Record<OrderActionId, 'required' | 'optional' | null>> = {
  accept: null,
  reject: 'required',
  cancel: 'required',
  settle: null,
  settle_cancel: 'optional',
};

/**
 * What a trader may do to an order in its state:
 * - reported, not yet answered: accept, or reject the consideration (which cancels the trade);
 * - reporting or mismatch (not matched at the venue yet), or reported: cancel the trade with a reason;
 * - settlement failed: retry the settlement, or cancel it.
 * Settled, cancelled and rejected orders are final.
 */
export function orderActions(order: Pick<Order, 'state' | 'reported_order_status'>): OrderActionId[] {
  switch (order.state) {
    case 'reported':
      return order.reported_order_status === null ? ['accept', 'reject', 'cancel'] : ['cancel'];
    case 'reporting':
    case 'mismatch':
      return ['cancel'];
    case 'failed':
      return ['settle', 'settle_cancel'];
    default:
      return [];
  }
}

/** A contract note exists for a trade that was not called off (it records the trade, whatever its settlement). */
export const hasContractNote = (order: Pick<Order, 'state'>) => order.state !== 'cancelled' && order.state !== 'rejected';

/** `api/orders` or `api/procurement-orders`: each kind has its own calls (spec §7 "Orders"). */
export const orderResource = (kind: OrderKind) => (kind === 'order' ? 'orders' : 'procurement-orders');

/** Where the settlement stands, in words (the blotter's tooltip on the state). */
export function settlementStatus(order: Pick<Order, 'state' | 'settlement_date' | 'clearing_corporation' | 'reason'>): string {
  switch (order.state) {
    case 'settled':
      return `Settled DVP-I at ${order.clearing_corporation}.`;
    case 'failed':
      return `Settlement failed at ${order.clearing_corporation}${order.reason ? `: ${order.reason}` : '.'}`;
    case 'cancelled':
      return order.reason ? `Cancelled: ${order.reason}` : 'Cancelled.';
    case 'rejected':
      return order.reason ? `Consideration rejected: ${order.reason}` : 'Consideration rejected.';
    case 'mismatch':
      return order.reason ? `The exchange refused the report: ${order.reason}` : 'The exchange refused the report.';
    case 'reporting':
      return 'Being reported to the exchange.';
    default:
      return `Settles ${formatDate(order.settlement_date)} at ${order.clearing_corporation}.`;
  }
}

/** The file name for a download when the server gives none. */
export const contractNoteName = (order: Pick<Order, 'number'>) => `contract-note-${order.number}.pdf`;
