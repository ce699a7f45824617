import { IDEMPOTENCY_KEY_HEADER, type Quote, type QuoteCreate } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { refreshKey } from '../../../lib/refresh-key';
import { RFQ_QUOTES_KEY } from './list-rfq-quotes';
import { MY_RFQS_KEY } from './list-my-rfqs';

export interface RaiseRfqRequest {
  /** The quote payload with `send_to_rfq: true`, `clearing_corporation`, `rfq_mode` (and `oto_participant_details` for OTO). */
  body: QuoteCreate;
  /** One key per submit: the client's own retries of that submit reuse it, so an RFQ is raised once. */
  idempotencyKey: string;
}

/** POST api/trade/eoi/ with `send_to_rfq`: raises an NSE (NSCCL) or BSE (ICCL) RFQ through the exchange gateway. */
export function raiseRfq({ body, idempotencyKey }: RaiseRfqRequest): Promise<Quote> {
  return http.post<Quote>('/api/trade/eoi/', body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}

export function useRaiseRfq() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: raiseRfq,
    onSuccess: () => {
      refreshKey(queryClient, MY_RFQS_KEY);
      refreshKey(queryClient, RFQ_QUOTES_KEY);
    },
  });
}
