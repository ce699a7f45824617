/**
 * Refetches a key after a live event without aborting a load already on its way. TanStack Query's
 * `invalidateQueries` cancels an in-flight fetch and starts again, so each quote event arriving while
 * a panel loaded (an upload publishes many) showed an aborted GET. Here a key that is loading is
 * refetched once more when that load ends (its answer may predate the event); one that is idle is
 * refetched at once. Several events during one load cost one extra fetch.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

const waiting = new WeakMap<QueryClient, Set<string>>();

export function refreshKey(queryClient: QueryClient, queryKey: QueryKey): void {
  const refetch = () => void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
  if (queryClient.isFetching({ queryKey }) === 0) {
    refetch();
    return;
  }
  const keys = waiting.get(queryClient) ?? new Set<string>();
  waiting.set(queryClient, keys);
  const id = JSON.stringify(queryKey);
  if (keys.has(id)) return;
  keys.add(id);
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (queryClient.isFetching({ queryKey }) > 0) return;
    unsubscribe();
    keys.delete(id);
    refetch();
  });
}
