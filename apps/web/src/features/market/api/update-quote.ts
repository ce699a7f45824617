import type { Quote, QuoteUpdateSchema } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { patchQuoteInRuns } from '../utils/patch-runs';

export type QuoteUpdateInput = z.input<typeof QuoteUpdateSchema>;

/** PUT api/eoi/update/{id}/: change an own open quote in place (quantum, price or yield, validity). */
export function updateQuote(id: string, body: QuoteUpdateInput): Promise<Quote> {
  return http.put<Quote>(`/api/eoi/update/${encodeURIComponent(id)}/`, body);
}

export function useUpdateQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: QuoteUpdateInput }) => updateQuote(id, body),
    onSuccess: (quote) => patchQuoteInRuns(queryClient, quote),
  });
}
