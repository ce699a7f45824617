import type { Order, OrderAcceptRejectSchema } from '@dart/contracts';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { orderResource } from '../utils/order-format';
import { idempotencyHeaders, useOrderMutation } from './order-mutation';

export interface AcceptRejectOrderRequest {
  order: Pick<Order, 'id' | 'kind'>;
  /** `version`, `reported_order_status` (REJECTED rejects the consideration and cancels the trade), a reason. */
  body: z.input<typeof OrderAcceptRejectSchema>;
  idempotencyKey: string;
}

/** PUT api/orders/{id}/accept-reject/ or api/procurement-orders/{id}/accept-reject/: the firm's answer to the reported trade. */
export function acceptRejectOrder({ order, body, idempotencyKey }: AcceptRejectOrderRequest): Promise<Order> {
  return http.put<Order>(
    `/api/${orderResource(order.kind)}/${encodeURIComponent(order.id)}/accept-reject/`,
    body,
    idempotencyHeaders(idempotencyKey),
  );
}

export const useAcceptRejectOrder = () => useOrderMutation(acceptRejectOrder);
