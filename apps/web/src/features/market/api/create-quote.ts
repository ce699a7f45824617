import { IDEMPOTENCY_KEY_HEADER, type Quote, type QuoteCreate } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { PRIVATE_RUNS_KEY } from './list-private-runs';
import { PUBLIC_RUNS_KEY } from './list-public-runs';
import { refreshKey } from '../../../lib/refresh-key';

export interface CreateQuoteRequest {
  body: QuoteCreate;
  /** One key per submit: the client's own retries of that submit reuse it, so a quote is made once. */
  idempotencyKey: string;
}

/** POST api/trade/eoi/ with header Idempotency-Key; `counterparties` (client ids) make it a private run. */
export function createQuote({ body, idempotencyKey }: CreateQuoteRequest): Promise<Quote> {
  return http.post<Quote>('/api/trade/eoi/', body, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
}

export function useCreateQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createQuote,
    onSuccess: (quote) => refreshKey(queryClient, quote.private ? PRIVATE_RUNS_KEY : PUBLIC_RUNS_KEY),
  });
}
