import type { Order, SETTLE_CANCEL_ACTIONS, SettleCancelBodySchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { orderResource } from '../utils/order-format';
import { idempotencyHeaders, useOrderMutation } from './order-mutation';

export interface SettleCancelOrderRequest {
  order: Pick<Order, 'id' | 'kind'>;
  /** `settle` retries a failed settlement, `cancel` cancels it. */
  action: (typeof SETTLE_CANCEL_ACTIONS)[number];
  body: z.input<typeof SettleCancelBodySchema>;
  idempotencyKey: string;
}

/** PATCH api/orders/settle-cancel/{id}/{action}/ or the procurement-orders twin: a failed settlement retried or cancelled. */
export function settleCancelOrder({ order, action, body, idempotencyKey }: SettleCancelOrderRequest): Promise<Order> {
  return http.patch<Order>(
    `/api/${orderResource(order.kind)}/settle-cancel/${encodeURIComponent(order.id)}/${action}/`,
    body,
    idempotencyHeaders(idempotencyKey),
  );
}

export const useSettleCancelOrder = () => useOrderMutation(settleCancelOrder);
