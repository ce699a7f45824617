import { MARKET_TOPICS, type MyRfqList } from '@dart/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live';
import { refreshKey } from '../../../lib/refresh-key';

/** Under `['market']`: a reconnect's market refetch reloads it too. */
export const MY_RFQS_KEY = ['market', 'my-rfqs'] as const;

/** GET api/eoi/my-rfqs/: the firm's exchange RFQs (open, or ended in the last 24 h) with every participant's latest terms. */
export function listMyRfqs(signal?: AbortSignal): Promise<MyRfqList> {
  return http.get<MyRfqList>('/api/eoi/my-rfqs/', signal ? { signal } : {});
}

/** While an RFQ is open, read again this often: a response that landed before the socket was up is not missed. */
export const MY_RFQS_POLL_MS = 10_000;

export const myRfqsQueryOptions = () =>
  queryOptions({
    queryKey: [...MY_RFQS_KEY] as const,
    queryFn: ({ signal }) => listMyRfqs(signal),
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.results.some((rfq) => rfq.status === 'open') ? MY_RFQS_POLL_MS : false),
  });

/** The events that change what the raiser sees: RFQs and responses, counters, deals. */
const MY_RFQ_TOPICS: ReadonlySet<string> = new Set([
  MARKET_TOPICS.inquiries,
  MARKET_TOPICS.rfqNegotiation,
  MARKET_TOPICS.considerationUpdate,
]);

/** The firm's RFQs, refetched when a response, a counter or a deal arrives on the live socket (and polled while one is open). */
export function useMyRfqs(enabled = true) {
  const queryClient = useQueryClient();
  useLiveEvents((event) => {
    if (MY_RFQ_TOPICS.has(event.topic)) refreshKey(queryClient, MY_RFQS_KEY);
  });
  return useQuery({ ...myRfqsQueryOptions(), enabled });
}
