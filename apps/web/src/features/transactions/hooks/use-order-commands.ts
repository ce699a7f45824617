/**
 * The blotter's order actions as commands: each sends the order's `version` and one Idempotency-Key per submit,
 * toasts what happened, and throws the server's refusal for the caller to show (a 409 names the state).
 */
import type { Order } from '@dart/contracts';
import { showToast } from '../../../lib/toast';
import { useAcceptRejectOrder } from '../api/accept-reject-order';
import { useCancelOrder } from '../api/cancel-order';
import { useSettleCancelOrder } from '../api/settle-cancel-order';
import type { OrderActionId } from '../utils/order-format';

const newKey = () => crypto.randomUUID();

const DONE: Record<OrderActionId, string> = {
  accept: 'Trade accepted',
  reject: 'Consideration rejected',
  cancel: 'Trade cancelled',
  settle: 'Settlement retried',
  settle_cancel: 'Settlement cancelled',
};

export function useOrderCommands() {
  const acceptReject = useAcceptRejectOrder();
  const cancel = useCancelOrder();
  const settleCancel = useSettleCancelOrder();

  async function run(order: Order, action: OrderActionId, reason?: string): Promise<Order> {
    const withReason = reason ? { reason } : {};
    const idempotencyKey = newKey();
    let next: Order;
    if (action === 'accept' || action === 'reject')
      next = await acceptReject.mutateAsync({
        order,
        body: { version: order.version, reported_order_status: action === 'accept' ? 'ACCEPTED' : 'REJECTED', ...withReason },
        idempotencyKey,
      });
    else if (action === 'cancel')
      next = await cancel.mutateAsync({ order, body: { version: order.version, reason: reason ?? '' }, idempotencyKey });
    else
      next = await settleCancel.mutateAsync({
        order,
        action: action === 'settle' ? 'settle' : 'cancel',
        body: { version: order.version, ...withReason },
        idempotencyKey,
      });
    showToast({
      severity: action === 'accept' || action === 'settle' ? 'success' : 'info',
      summary: DONE[action],
      detail: `${order.number}: ${next.state_label}.`,
    });
    return next;
  }

  return { run, pending: acceptReject.isPending || cancel.isPending || settleCancel.isPending };
}

export type OrderCommands = ReturnType<typeof useOrderCommands>;
