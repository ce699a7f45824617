import type { OrderListSchema } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import type { OrderQuery } from '../utils/order-filters';

export type OrderList = z.infer<typeof OrderListSchema>;

/** Every orders query lives under this key (a live event refetches all of them). */
export const ORDERS_KEY = ['orders'] as const;
export const ORDER_PAGE_SIZES = [25, 50, 100] as const;

/** GET api/orders/unified/: the firm's orders and procurement orders, filtered and paged on the server. */
export function listOrders(query: OrderQuery, page: number, pageSize: number, signal?: AbortSignal): Promise<OrderList> {
  return http.get<OrderList>('/api/orders/unified/', {
    query: { ...query, page, page_size: pageSize, paginate: 'true' },
    ...(signal ? { signal } : {}),
  });
}

export const ordersQueryOptions = (query: OrderQuery, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, 'unified', query, page, pageSize] as const,
    queryFn: ({ signal }) => listOrders(query, page, pageSize, signal),
    // A new filter or page keeps the last rows on screen (dimmed) until its answer.
    placeholderData: keepPreviousData,
    // Kept current by live events (hooks/use-order-live-updates.ts).
    staleTime: 30_000,
  });

/** The blotter's page; `enabled` is false while a filter cannot be read (the filter bar says why). */
export function useOrders(query: OrderQuery, page: number, pageSize: number, enabled = true) {
  return useQuery({ ...ordersQueryOptions(query, page, pageSize), enabled });
}
