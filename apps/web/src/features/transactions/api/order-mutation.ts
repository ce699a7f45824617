import { IDEMPOTENCY_KEY_HEADER, type Order } from '@dart/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ORDERS_KEY, type OrderList } from './list-orders';

/** Every order submit carries one Idempotency-Key (the client's own retries of that submit reuse it). */
export const idempotencyHeaders = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });

/** The order an answer brought replaces its row in every loaded page (unless a newer version is there). */
export function patchOrderInLists(queryClient: QueryClient, order: Order): void {
  queryClient.setQueriesData<OrderList>({ queryKey: ORDERS_KEY }, (old) => {
    if (!old) return old;
    const at = old.results.findIndex((row) => row.id === order.id);
    if (at < 0 || old.results[at]!.version > order.version) return old;
    const results = [...old.results];
    results[at] = order;
    return { ...old, results };
  });
}

/**
 * A change to one order: the answer goes into the loaded pages at once, then the lists are refetched (the
 * change may move the order out of the current state tab, and the other side of the trade changes too).
 */
export function useOrderMutation<TVariables>(mutationFn: (variables: TVariables) => Promise<Order>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (order) => {
      patchOrderInLists(queryClient, order);
      void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
}
