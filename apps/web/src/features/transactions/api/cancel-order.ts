import type { Order, OrderCancelSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { orderResource } from '../utils/order-format';
import { idempotencyHeaders, useOrderMutation } from './order-mutation';

export interface CancelOrderRequest {
  order: Pick<Order, 'id' | 'kind'>;
  /** `version` and the reason (required). */
  body: z.input<typeof OrderCancelSchema>;
  idempotencyKey: string;
}

/** POST api/orders/{id}/cancel/ or api/procurement-orders/{id}/cancel/ (spec §7 "Orders"): cancel the trade. */
export function cancelOrder({ order, body, idempotencyKey }: CancelOrderRequest): Promise<Order> {
  return http.post<Order>(
    `/api/${orderResource(order.kind)}/${encodeURIComponent(order.id)}/cancel/`,
    body,
    idempotencyHeaders(idempotencyKey),
  );
}

export const useCancelOrder = () => useOrderMutation(cancelOrder);
