import type { NegotiationRequest } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { rememberDeal } from './deals-store';
import { PUBLIC_RUNS_KEY } from './list-public-runs';
import { rememberNegotiation, type Negotiation } from './negotiations-store';
import { refreshKey } from '../../../lib/refresh-key';

export type NegotiateRequest = Pick<NegotiationRequest, 'quote_id' | 'action'> &
  Partial<Pick<NegotiationRequest, 'negotiation_id' | 'unit_price_stored' | 'yield_stored' | 'quantum'>>;

/** POST api/eoi/add-negotiation/: counter (price or yield, not both), accept or reject. */
export function negotiateQuote(request: NegotiateRequest): Promise<Negotiation> {
  return http.post<Negotiation>('/api/eoi/add-negotiation/', request);
}

export function useNegotiateQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: negotiateQuote,
    onSuccess: async (negotiation) => {
      rememberNegotiation(queryClient, negotiation);
      if (negotiation.deal) {
        rememberDeal(queryClient, negotiation.deal);
        refreshKey(queryClient, PUBLIC_RUNS_KEY);
      }
    },
  });
}
