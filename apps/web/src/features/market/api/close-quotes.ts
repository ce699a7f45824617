import type { Quote } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { patchQuoteInRuns } from '../utils/patch-runs';

/** PUT api/trade/d/eoi/close/ {ids}: close several own quotes, all or none. */
export function closeQuotes(ids: readonly string[]): Promise<{ closed: Quote[] }> {
  return http.put<{ closed: Quote[] }>('/api/trade/d/eoi/close/', { ids });
}

export function useCloseQuotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeQuotes,
    onSuccess: (result) => {
      for (const quote of result.closed) patchQuoteInRuns(queryClient, quote);
    },
  });
}
