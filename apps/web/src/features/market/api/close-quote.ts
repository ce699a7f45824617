import type { Quote } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { patchQuoteInRuns } from '../utils/patch-runs';

/** PUT api/trade/d/eoi/{id}/close/: close one own quote. */
export function closeQuote(id: string): Promise<Quote> {
  return http.put<Quote>(`/api/trade/d/eoi/${encodeURIComponent(id)}/close/`, {});
}

export function useCloseQuote() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: closeQuote, onSuccess: (quote) => patchQuoteInRuns(queryClient, quote) });
}
